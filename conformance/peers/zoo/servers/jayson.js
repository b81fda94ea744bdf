// The JSON-RPC 2.0 §7 example methods served by the npm package `jayson` (pinned in
// package.json) with its own HTTP server on 127.0.0.1:PORT. Only the method bodies are ours.
"use strict";
const jayson = require("jayson");

// Params of a shape a method cannot take: -32602, through the library's error callback.
const invalid = (cb) => cb({ code: -32602, message: "Invalid params" });
const numbers = (p) => Array.isArray(p) && p.every((x) => typeof x === "number");

const methods = {
  subtract: (args, cb) => {
    if (numbers(args) && args.length === 2) return cb(null, args[0] - args[1]);
    if (args && typeof args.minuend === "number" && typeof args.subtrahend === "number") {
      return cb(null, args.minuend - args.subtrahend);
    }
    return invalid(cb);
  },
  sum: (args, cb) => (numbers(args) ? cb(null, args.reduce((a, b) => a + b, 0)) : invalid(cb)),
  update: (args, cb) => cb(),
  notify_hello: (args, cb) => cb(),
  notify_sum: (args, cb) => cb(),
  get_data: (args, cb) => cb(null, ["hello", 5]),
};
const port = Number(process.env.PORT || process.argv[2]);
new jayson.Server(methods, { params: undefined }).http().listen(port, "127.0.0.1");
