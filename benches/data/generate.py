#!/usr/bin/env python3
"""Writes the fixed message mix the benches read, deterministically.

Run from anywhere: `python3 benches/data/generate.py`; with `--check` it writes
nothing and fails if a committed file differs from what it would write (CI runs
that). Every frame is compact JSON (no whitespace between tokens), so the
codec's round trip must give it back byte for byte.

The mix:
  1. ping.json            a `ping` request, about 40 bytes
  2. tools_call.json      a `tools/call` request with nested arguments and `_meta`, about 400 bytes
  3. tools_list.json      a `tools/list` result of 50 tools with JSON-Schema input schemas, about 30 KB
  4. resources_read.json  a `resources/read` result carrying a 1 MiB base64 blob
  5. batch.json           a batch of 100 mixed small requests and notifications
"""

import base64
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def compact(value):
    # ensure_ascii=False keeps non-ASCII text as UTF-8, as peers send it.
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def ping():
    return {"jsonrpc": "2.0", "id": 1, "method": "ping"}


def tools_call():
    return {
        "jsonrpc": "2.0",
        "id": "call-7f3a9c",
        "method": "tools/call",
        "params": {
            "name": "search_issues",
            "arguments": {
                "repository": {"owner": "example-org", "name": "wirecheck"},
                "query": "label:bug state:open \"lossless round trip\"",
                "filters": {"labels": ["bug", "codec"], "since": "2026-01-01T00:00:00Z",
                            "assignee": None},
                "limit": 25,
                "sort": [{"field": "updated", "order": "desc"}],
                "include_closed": False,
            },
            "_meta": {"progressToken": "tok-42", "trace": "0af7651916cd43dd"},
        },
    }


def schema(i):
    # A JSON Schema of the shape MCP servers publish: nested objects, enums,
    # arrays of objects, defaults, descriptions, required lists.
    return {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": f"Path of the file to act on (tool {i})."},
            "mode": {"type": "string", "enum": ["read", "write", "append"], "default": "read"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 1048576, "default": 4096},
            "options": {
                "type": "object",
                "properties": {
                    "encoding": {"type": "string", "enum": ["utf-8", "base64"]},
                    "follow_symlinks": {"type": "boolean", "default": True},
                    "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 16},
                },
                "additionalProperties": False,
            },
        },
        "required": ["path"],
        "additionalProperties": False,
    }


def tools_list():
    tools = []
    for i in range(50):
        tools.append({
            "name": f"tool_{i:02d}",
            "description": f"Reads, writes or appends a byte range of a file (task {i}).",
            "inputSchema": schema(i),
            "annotations": {"readOnlyHint": i % 3 == 0, "idempotentHint": i % 2 == 0},
        })
    return {"jsonrpc": "2.0", "id": 3, "result": {"tools": tools, "nextCursor": "page-2"}}


def blob(size):
    # SHA-256 in counter mode: incompressible, reproducible bytes.
    out = bytearray()
    counter = 0
    while len(out) < size:
        out += hashlib.sha256(counter.to_bytes(8, "little")).digest()
        counter += 1
    return bytes(out[:size])


def resources_read():
    # 786,432 raw bytes are exactly 1 MiB (1,048,576 characters) of base64.
    data = base64.b64encode(blob(786_432)).decode("ascii")
    return {
        "jsonrpc": "2.0",
        "id": 4,
        "result": {"contents": [{"uri": "file:///data/archive.bin",
                                 "mimeType": "application/octet-stream", "blob": data}]},
    }


def batch():
    messages = []
    for i in range(100):
        kind = i % 5
        if kind == 0:
            messages.append({"jsonrpc": "2.0", "id": i, "method": "ping"})
        elif kind == 1:
            messages.append({"jsonrpc": "2.0", "id": f"req-{i}", "method": "tools/call",
                             "params": {"name": "echo", "arguments": {"text": f"hello {i}"}}})
        elif kind == 2:
            messages.append({"jsonrpc": "2.0", "method": "notifications/progress",
                             "params": {"progressToken": i, "progress": i * 0.5,
                                        "total": 50}})
        elif kind == 3:
            messages.append({"jsonrpc": "2.0", "id": i, "method": "resources/read",
                             "params": {"uri": f"file:///tmp/{i}.txt"}})
        else:
            messages.append({"jsonrpc": "2.0", "id": i, "method": "tools/list",
                             "params": {"cursor": f"c{i}"}})
    return messages


def main():
    check = sys.argv[1:] == ["--check"]
    stale = []
    for name, make in [
        ("ping", ping),
        ("tools_call", tools_call),
        ("tools_list", tools_list),
        ("resources_read", resources_read),
        ("batch", batch),
    ]:
        text = compact(make())
        path = os.path.join(HERE, f"{name}.json")
        if check:
            try:
                with open(path, encoding="utf-8", newline="") as f:
                    same = f.read() == text
            except OSError:
                same = False
            if not same:
                stale.append(path)
            continue
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        print(f"{name}.json: {len(text.encode('utf-8'))} bytes")
    if stale:
        sys.exit("stale, run `python3 benches/data/generate.py`: " + ", ".join(stale))


if __name__ == "__main__":
    main()
