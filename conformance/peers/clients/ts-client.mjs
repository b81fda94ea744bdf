// The official TypeScript SDK's client (pinned by ../official/package-lock.json) as a client
// under test for `wirecheck run-client`: it declares roots and sampling, answers them with fixed
// harmless values, sets the log level, calls the reference peer's `echo` with a progress token,
// then calls `echo` four more times (the error-shapes scenario answers those with errors, which
// the script expects and tolerates), and lists tools again. The target is its last argument:
//
//   node ts-client.mjs stdio "WIRECHECK serve --judge --report FILE …"   (spawns that command)
//   node ts-client.mjs http URL                                        (Streamable HTTP)
import { Client } from "../official/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js";
import { StdioClientTransport } from "../official/node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js";
import { StreamableHTTPClientTransport } from "../official/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ListRootsRequestSchema,
} from "../official/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js";

const [mode, target] = process.argv.slice(2);
if (!["stdio", "http"].includes(mode) || !target) {
  console.error('usage: node ts-client.mjs stdio "SERVER COMMAND" | node ts-client.mjs http URL');
  process.exit(2);
}
const watchdog = setTimeout(() => fail(new Error("no complete exchange within 30 s")), 30_000);
function fail(error) {
  console.error(`ts-client ${mode}: ${error?.stack ?? error}`);
  process.exit(1);
}

async function main() {
  const [command, ...args] = target.split(" ");
  const transport =
    mode === "stdio"
      ? new StdioClientTransport({ command, args, stderr: "inherit" })
      : new StreamableHTTPClientTransport(new URL(target));
  const client = new Client(
    { name: "wirecheck-ts-client", version: "1.0.0" },
    { capabilities: { roots: { listChanged: true }, sampling: {} } },
  );
  client.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: [{ uri: "file:///tmp/wirecheck-client", name: "wirecheck" }],
  }));
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: "assistant",
    content: { type: "text", text: "ok" },
    model: "wirecheck-fixed-reply",
    stopReason: "endTurn",
  }));
  let progress = 0;
  const seen = { client: "ts-sdk", transport: mode, errors: [] };
  await client.connect(transport);
  await client.listTools();
  await client.setLoggingLevel("info");
  const first = await client.callTool(
    { name: "echo", arguments: { text: "hello" } },
    undefined,
    { onprogress: () => progress++ },
  );
  seen.echo = first.content?.[0]?.text;
  for (let i = 0; i < 4; i++) {
    try {
      const r = await client.callTool({ name: "echo", arguments: { text: `again ${i}` } });
      seen.errors.push(r.isError ? "isError" : "result");
    } catch (e) {
      seen.errors.push(e?.code ?? String(e));
    }
  }
  // Every page, each cursor sent back as the peer issued it (the client
  // judge's mcp.pagination.cursor-opaque).
  let page = await client.listTools();
  seen.pages = 1;
  while (page.nextCursor !== undefined && seen.pages < 16) {
    page = await client.listTools({ cursor: page.nextCursor });
    seen.pages++;
  }
  // Where the peer lists tasks (2025-11-25): three task-augmented calls, then
  // every page of tasks/list, each cursor sent back as issued (the client
  // judge's mcp.tasks.cursor-opaque).
  if (client.getServerCapabilities()?.tasks?.list) {
    for (let i = 0; i < 3; i++) {
      const stream = client.experimental.tasks.callToolStream(
        { name: "long_job", arguments: { steps: 1 } },
        undefined,
        { task: { ttl: 60000 } },
      );
      for await (const message of stream) {
        if (message.type === "error") throw message.error;
      }
    }
    let tasks = await client.experimental.tasks.listTasks();
    seen.taskPages = 1;
    while (tasks.nextCursor !== undefined && seen.taskPages < 16) {
      tasks = await client.experimental.tasks.listTasks(tasks.nextCursor);
      seen.taskPages++;
    }
  }
  seen.progress = progress;
  console.log(JSON.stringify(seen));
  await client.close();
}

main().then(() => {
  clearTimeout(watchdog);
  process.exit(0);
}, fail);
