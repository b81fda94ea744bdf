// The JSON-RPC 2.0 §7 example methods served by the npm package `json-rpc-2.0`
// (pinned in package.json) over plain HTTP on 127.0.0.1:PORT, the way its README wires it
// (`server.receive` on each POST body). Only the glue is ours; every answer is the library's.
"use strict";
const http = require("node:http");
const { JSONRPCServer, JSONRPCErrorException } = require("json-rpc-2.0");

// Params of a shape a method cannot take: the library's own way to say -32602.
const invalid = () => {
  throw new JSONRPCErrorException("Invalid params", -32602);
};
const numbers = (p) => (Array.isArray(p) && p.every((x) => typeof x === "number") ? p : invalid());

const server = new JSONRPCServer();
server.addMethod("subtract", (p) => {
  if (Array.isArray(p)) return numbers(p).length === 2 ? p[0] - p[1] : invalid();
  if (p && typeof p.minuend === "number" && typeof p.subtrahend === "number") return p.minuend - p.subtrahend;
  return invalid();
});
server.addMethod("sum", (p) => numbers(p).reduce((a, b) => a + b, 0));
server.addMethod("update", () => undefined);
server.addMethod("notify_hello", () => undefined);
server.addMethod("notify_sum", () => undefined);
server.addMethod("get_data", () => ["hello", 5]);

const port = Number(process.env.PORT || process.argv[2]);
http
  .createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      server.receiveJSON(body).then((answer) => {
        if (answer === null || answer === undefined) {
          res.writeHead(204).end();
        } else {
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
        }
      });
    });
  })
  .listen(port, "127.0.0.1");
