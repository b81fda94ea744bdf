// A protected MCP server built on the official TypeScript SDK (1.32.2, pinned in
// ../official/package.json) with its own authorization pieces switched on, configured
// against wirecheck's authorization server, for `wirecheck run --auth` to judge.
//
//   node ts-server.mjs --port PORT --issuer http://127.0.0.1:AS_PORT
//
// Streamable HTTP at http://127.0.0.1:PORT/mcp (stateful: one McpServer per session),
// bound to 127.0.0.1 only. What authorization does here is the SDK's, wired the way its
// own example (dist/esm/examples/server/simpleStreamableHttp.js, `--oauth`) wires it:
//   - `requireBearerAuth` guards every method of /mcp, with `requiredScopes: ["mcp"]`,
//     `resourceMetadataUrl` from `getOAuthProtectedResourceMetadataUrl`, and
//     `expectedResource` this server's URL;
//   - `mcpAuthMetadataRouter` serves the Protected Resource Metadata (and the issuer's
//     RFC 8414 metadata, fetched once at start) with `scopesSupported: ["mcp"]`.
// The verifier is ours (the SDK ships none for JWTs): `jose` (pinned beside the SDK) checks
// the signature against the issuer's JWKS, `iss`, `aud` (this server's URL) and `exp`, and
// a failure is the SDK's `InvalidTokenError`, which the middleware turns into 401. (The
// SDK's example verifier throws a plain `Error` instead, which the middleware answers
// with 500; that is the example's mistake, not the middleware's, so it is not copied.)
import { randomUUID } from "node:crypto";

import { createRemoteJWKSet, jwtVerify } from "../official/node_modules/jose/dist/webapi/index.js";
import { McpServer } from "../official/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js";
import { createMcpExpressApp } from "../official/node_modules/@modelcontextprotocol/sdk/dist/esm/server/express.js";
import { StreamableHTTPServerTransport } from "../official/node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js";
import { isInitializeRequest } from "../official/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js";
import {
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthMetadataRouter,
} from "../official/node_modules/@modelcontextprotocol/sdk/dist/esm/server/auth/router.js";
import { requireBearerAuth } from "../official/node_modules/@modelcontextprotocol/sdk/dist/esm/server/auth/middleware/bearerAuth.js";
import { InvalidTokenError } from "../official/node_modules/@modelcontextprotocol/sdk/dist/esm/server/auth/errors.js";

function option(name) {
  const at = process.argv.indexOf(name);
  if (at === -1 || at + 1 >= process.argv.length) {
    console.error(`ts-server.mjs: ${name} is required (--port PORT --issuer URL)`);
    process.exit(2);
  }
  return process.argv[at + 1];
}

const port = Number(option("--port"));
const issuer = option("--issuer").replace(/\/$/, "");
const mcpServerUrl = new URL(`http://127.0.0.1:${port}/mcp`);

// The issuer's RFC 8414 metadata: mcpAuthMetadataRouter takes it whole (it names the
// issuer in the PRM's authorization_servers and serves it at the root well-known URI).
const response = await fetch(`${issuer}/.well-known/oauth-authorization-server`);
if (!response.ok) {
  console.error(`ts-server.mjs: ${issuer} metadata: HTTP ${response.status}`);
  process.exit(2);
}
const oauthMetadata = await response.json();
const jwks = createRemoteJWKSet(new URL(oauthMetadata.jwks_uri));

const tokenVerifier = {
  verifyAccessToken: async (token) => {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, jwks, {
        issuer: oauthMetadata.issuer,
        audience: mcpServerUrl.href,
      }));
    } catch (error) {
      throw new InvalidTokenError(`Invalid token: ${error.code ?? error.message}`);
    }
    return {
      token,
      clientId: String(payload.client_id ?? payload.sub ?? ""),
      scopes: typeof payload.scope === "string" ? payload.scope.split(" ").filter(Boolean) : [],
      expiresAt: payload.exp,
      // jwtVerify checked that `aud` names this server: the resource it was issued for
      resource: mcpServerUrl,
    };
  },
};

const app = createMcpExpressApp({ host: "127.0.0.1" });
app.use(
  mcpAuthMetadataRouter({
    oauthMetadata,
    resourceServerUrl: mcpServerUrl,
    scopesSupported: ["mcp"],
    resourceName: "wirecheck TS SDK auth peer",
  }),
);
const authMiddleware = requireBearerAuth({
  verifier: tokenVerifier,
  requiredScopes: ["mcp"],
  resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpServerUrl),
  expectedResource: mcpServerUrl,
});

function getServer() {
  const server = new McpServer({ name: "wirecheck-ts-auth-peer", version: "1.0.0" });
  server.registerTool("hello", { description: "Says hello" }, async () => ({
    content: [{ type: "text", text: "hello" }],
  }));
  return server;
}

const transports = new Map();

app.post("/mcp", authMiddleware, async (req, res) => {
  const sessionId = req.headers["mcp-session-id"];
  try {
    if (sessionId && transports.has(sessionId)) {
      await transports.get(sessionId).handleRequest(req, res, req.body);
      return;
    }
    if (sessionId) {
      res.status(404).json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null });
      return;
    }
    if (!isInitializeRequest(req.body)) {
      res.status(400).json({
        jsonrpc: "2.0",
        error: { code: -32000, message: "Bad Request: No valid session ID provided" },
        id: null,
      });
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => transports.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
    };
    await getServer().connect(transport);
    await transport.handleRequest(req, res, req.body);
  } catch (error) {
    console.error("ts-server.mjs:", error);
    if (!res.headersSent) {
      res.status(500).json({ jsonrpc: "2.0", error: { code: -32603, message: "Internal server error" }, id: null });
    }
  }
});

// GET (the server's SSE stream) and DELETE (ending a session), behind the same guard.
const sessionRequest = async (req, res) => {
  const sessionId = req.headers["mcp-session-id"];
  const transport = sessionId ? transports.get(sessionId) : undefined;
  if (!sessionId) {
    res.status(400).send("Missing session ID");
    return;
  }
  if (!transport) {
    res.status(404).json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null });
    return;
  }
  await transport.handleRequest(req, res);
};
app.get("/mcp", authMiddleware, sessionRequest);
app.delete("/mcp", authMiddleware, sessionRequest);

app.listen(port, "127.0.0.1", (error) => {
  if (error) {
    console.error(`ts-server.mjs: ${error.message}`);
    process.exit(2);
  }
  console.error(`listening on ${mcpServerUrl.href}`);
});
