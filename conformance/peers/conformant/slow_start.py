#!/usr/bin/env python3
"""A small conformant MCP server over stdio that is slow to start.

It sleeps before it reads its first line, as a Python SDK server does while it
imports on a loaded machine (first answers have been seen 4-5 s after
start), then answers as the spec text asks. Standard library only.

Usage: slow_start.py [SECONDS]   (default: $SLOW_START_SECONDS, else 4)

What it implements, each from the text it cites:
- stdio framing (basic/transports "stdio"): one JSON-RPC message per line on
  stdin/stdout, nothing else on stdout; exit when stdin ends.
- JSON-RPC 2.0 §5 / §5.1: -32700 with "id": null for a line that is not JSON;
  -32600 for a value that is not a Request, with the request's id when it can
  be read (a string or an integer, MCP basic/index "Requests") and null when it
  could not be; -32601 for a method it does not have; -32602 for `initialize`
  without a protocol version. Notifications and responses get no reply (§4.1).
- Batches (§6) under 2024-11-05 and 2025-03-26, whose text has them:
  each request answered, an empty array refused with one -32600. Later
  revisions removed batching ("Remove support for JSON-RPC batching",
  2025-06-18 changelog); a batch there is refused with one -32600.
- basic/lifecycle: `initialize` answered with the version asked for when it
  is one of SUPPORTED, else the latest; no capabilities declared, so nothing
  beyond `ping` is offered (basic/utilities/ping: answered with {}).
"""
import json
import os
import sys
import time

SUPPORTED = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
BATCH_REVISIONS = {"2024-11-05", "2025-03-26"}

out = sys.stdout.buffer
state = {"version": None}


def write(message) -> None:
    out.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
    out.flush()


def error(id_, code, message):
    return {"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message}}


def readable_id(value):
    """The id as MCP allows it (a string or an integer), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return value
    return None


def handle(msg):
    """The reply to one parsed message, or None."""
    if not isinstance(msg, dict):
        return error(None, -32600, "Invalid Request")
    has_id = "id" in msg
    if "method" not in msg:
        # A response (or junk without a method): never answered.
        if "result" in msg or "error" in msg:
            return None
        return error(readable_id(msg.get("id")), -32600, "Invalid Request")
    id_ = readable_id(msg.get("id")) if has_id else None
    method = msg.get("method")
    params = msg.get("params")
    if (msg.get("jsonrpc") != "2.0" or not isinstance(method, str)
            or ("params" in msg and not isinstance(params, (dict, list)))
            or (has_id and id_ is None)):
        return error(id_, -32600, "Invalid Request")
    if not has_id:
        return None  # a notification
    if method == "initialize":
        if not isinstance(params, dict) or not isinstance(params.get("protocolVersion"), str):
            return error(id_, -32602, "Invalid params: protocolVersion is required")
        asked = params["protocolVersion"]
        version = asked if asked in SUPPORTED else SUPPORTED[-1]
        state["version"] = version
        return {"jsonrpc": "2.0", "id": id_, "result": {
            "protocolVersion": version,
            "capabilities": {},
            "serverInfo": {"name": "slow-start", "version": "1.0.0"},
        }}
    if method == "ping":
        return {"jsonrpc": "2.0", "id": id_, "result": {}}
    return error(id_, -32601, "Method not found")


def handle_line(line: bytes):
    try:
        msg = json.loads(line)
    except ValueError:
        return error(None, -32700, "Parse error")
    if isinstance(msg, list):
        if not msg or state["version"] not in BATCH_REVISIONS:
            return error(None, -32600, "Invalid Request")
        replies = [r for r in (handle(m) for m in msg) if r is not None]
        return replies or None
    return handle(msg)


def main() -> None:
    delay = float(sys.argv[1]) if len(sys.argv) > 1 else float(
        os.environ.get("SLOW_START_SECONDS", "4"))
    time.sleep(delay)
    for line in sys.stdin.buffer:
        line = line.rstrip(b"\r\n")
        if not line.strip():
            continue
        reply = handle_line(line)
        if reply is not None:
            write(reply)


if __name__ == "__main__":
    main()
