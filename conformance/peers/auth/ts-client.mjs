// The official TypeScript SDK's client (the @modelcontextprotocol/sdk that
// ../official/package-lock.json pins) with its OAuth flow switched on, for
// `wirecheck run-client --transport http --auth` (serve --http --judge --auth):
// an OAuthClientProvider whose "browser" is a fetch that follows the authorization
// request to wirecheck's authorization server (which consents at once) and reads the
// code from the redirect, headlessly. The client id is pre-registered
// ("wirecheck-ts-client"; wirecheck's authorization server takes any). It connects,
// lists tools and calls `echo` (which the judged peer guards with a further scope, so
// the SDK's step-up runs), exactly as an application following the SDK's own
// simpleOAuthClient example would: on UnauthorizedError, finishAuth(code) and retry.
//
//   node ts-client.mjs [--step-up-refused] URL
//
// --step-up-refused: the authorization server never grants the further scope (serve
// --auth-scenario step-up-refused), so the call is expected to fail; exit 0 then.
// Prints one JSON line of what it saw; exits 1 on anything else.
import { randomUUID } from "node:crypto";
import { Client } from "../official/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js";
import { StreamableHTTPClientTransport } from "../official/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js";
import { UnauthorizedError } from "../official/node_modules/@modelcontextprotocol/sdk/dist/esm/client/auth.js";

const args = process.argv.slice(2);
const refused = args.includes("--step-up-refused");
const target = args.filter((a) => !a.startsWith("--")).pop();
if (!target) {
  console.error("usage: node ts-client.mjs [--step-up-refused] URL");
  process.exit(2);
}
const watchdog = setTimeout(() => fail(new Error("no complete exchange within 20 s")), 20_000);
function fail(error) {
  console.error(`ts-sdk oauth: ${error?.stack ?? error}`);
  process.exit(1);
}

// The code the last headless "redirect" brought back, for finishAuth.
let pendingCode;
const seen = { authorizations: 0 };

class HeadlessProvider {
  constructor() {
    this._tokens = undefined;
    this._verifier = undefined;
  }
  get redirectUrl() {
    return "http://127.0.0.1:1/callback";
  }
  get clientMetadata() {
    return {
      client_name: "wirecheck TS SDK OAuth client",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    return randomUUID();
  }
  clientInformation() {
    return { client_id: "wirecheck-ts-client" };
  }
  tokens() {
    return this._tokens;
  }
  saveTokens(tokens) {
    this._tokens = tokens;
  }
  saveCodeVerifier(verifier) {
    this._verifier = verifier;
  }
  codeVerifier() {
    return this._verifier;
  }
  // The user agent: the authorization server answers with a redirect at once.
  async redirectToAuthorization(url) {
    seen.authorizations += 1;
    const answer = await fetch(url, { redirect: "manual" });
    const location = answer.headers.get("location");
    if (!location) throw new Error(`the authorization request got ${answer.status} and no redirect`);
    const back = new URL(location);
    if (back.searchParams.get("error")) {
      throw new Error(`the authorization server refused: ${back.searchParams.get("error")}`);
    }
    pendingCode = back.searchParams.get("code");
  }
}

const provider = new HeadlessProvider();

// Runs `step` with `transport`; on UnauthorizedError redeems the code the headless
// redirect brought and runs it once more, as the SDK's example application does.
async function authorized(transport, step) {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof UnauthorizedError) || pendingCode === undefined) throw error;
    const code = pendingCode;
    pendingCode = undefined;
    await transport.finishAuth(code);
    return step(true);
  }
}

async function main() {
  let transport = new StreamableHTTPClientTransport(new URL(target), { authProvider: provider });
  let client = new Client({ name: "wirecheck-ts-oauth-client", version: "1.0.0" });
  await authorized(transport, async (again) => {
    if (again) {
      // A fresh transport and client after the redirect, as the SDK's example does.
      transport = new StreamableHTTPClientTransport(new URL(target), { authProvider: provider });
      client = new Client({ name: "wirecheck-ts-oauth-client", version: "1.0.0" });
    }
    await client.connect(transport);
  });
  const tools = (await client.listTools()).tools.map((t) => t.name);
  const text = "hello from the TypeScript SDK, authorized";
  let echo = null;
  let refusal = null;
  try {
    const result = await authorized(transport, () => client.callTool({ name: "echo", arguments: { text } }));
    echo = result.content?.[0]?.text ?? null;
    if (echo !== text) throw new Error(`echo answered ${JSON.stringify(result)}`);
  } catch (error) {
    if (!refused) throw error;
    refusal = String(error?.message ?? error);
  }
  if (refused && refusal === null) throw new Error("the call succeeded though the scope was never granted");
  console.log(JSON.stringify({ client: "ts-sdk-oauth", tools, echo, refusal, authorizations: seen.authorizations }));
  await transport.terminateSession().catch(() => {});
  await client.close();
}

main().then(
  () => {
    clearTimeout(watchdog);
    process.exit(0);
  },
  fail,
);
