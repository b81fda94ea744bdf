// The official TypeScript SDK's client (the version package-lock.json pins) against the
// wirecheck reference peer: handshake, every page of tools/list, prompts/list and
// resources/list, and one call of `echo`, the catalogue's harmless tool (it returns its
// `text` argument). Prints one JSON line of what it saw; exits 1 on any error or on an
// answer that is not the one the catalogue (conformance/src/peer/catalogue.rs) implies.
//
//   node client.mjs stdio WIRECHECK_BINARY   spawns `WIRECHECK_BINARY serve` as its child
//   node client.mjs http URL                 Streamable HTTP, e.g. http://127.0.0.1:PORT/mcp
//   node client.mjs sse URL                  the 2024-11-05 HTTP+SSE transport, …/sse
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";

const [mode, target] = process.argv.slice(2);
if (!["stdio", "http", "sse"].includes(mode) || !target) {
  console.error("usage: node client.mjs stdio WIRECHECK_BINARY | node client.mjs http|sse URL");
  process.exit(2);
}
// A peer that never answers must not hang the driver: the whole exchange gets 20 s.
const watchdog = setTimeout(() => fail(new Error("no complete exchange within 20 s")), 20_000);

function fail(error) {
  console.error(`ts-sdk ${mode}: ${error?.stack ?? error}`);
  process.exit(1);
}

// Every page of a paginated list (the reference peer pages by two on purpose).
async function all(list, key) {
  const items = [];
  let cursor;
  do {
    const page = await list(cursor === undefined ? {} : { cursor });
    items.push(...page[key]);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return items;
}

async function main() {
  const transport =
    mode === "stdio"
      ? new StdioClientTransport({ command: target, args: ["serve"], stderr: "inherit" })
      : mode === "http"
        ? new StreamableHTTPClientTransport(new URL(target))
        : new SSEClientTransport(new URL(target));
  const client = new Client({ name: "wirecheck-official-ts-client", version: "1.0.0" });
  await client.connect(transport);
  const tools = await all((p) => client.listTools(p), "tools");
  const prompts = await all((p) => client.listPrompts(p), "prompts");
  const resources = await all((p) => client.listResources(p), "resources");
  const names = tools.map((t) => t.name);
  if (!names.includes("echo")) throw new Error(`no echo tool in tools/list: ${names}`);
  const text = "hello from the TypeScript SDK";
  const result = await client.callTool({ name: "echo", arguments: { text } });
  const echoed = result.content?.[0]?.text;
  if (result.isError || echoed !== text) {
    throw new Error(`echo answered ${JSON.stringify(result)}, not its text`);
  }
  console.log(
    JSON.stringify({
      client: "ts-sdk",
      transport: mode,
      // Only the Streamable HTTP transport keeps the negotiated version (for its header).
      protocolVersion: transport.protocolVersion ?? null,
      server: client.getServerVersion(),
      tools: names,
      prompts: prompts.map((p) => p.name),
      resources: resources.map((r) => r.uri),
      echo: echoed,
    }),
  );
  await client.close();
}

main().then(
  () => {
    clearTimeout(watchdog);
    process.exit(0);
  },
  fail,
);
