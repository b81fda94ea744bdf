#!/usr/bin/env python3
"""A plain JSON-RPC 2.0 server written from the specification text alone
(https://www.jsonrpc.org/specification), Python 3 standard library only.

Its one deliberate style: an Invalid Request whose id it can read is answered
with that id, not null. JSON-RPC 2.0 §5 ("id"): "It MUST be the same as the
value of the id member in the Request Object. If there was an error in
detecting the id in the Request object (e.g. Parse error/Invalid Request), it
MUST be Null." An id that is there and of a type §4 allows ("MUST contain a
String, Number, or NULL value if included") was detected, so it is echoed; an
id of another type (true, [1], {}) is an error in detecting the id: null.

Methods (the §7 examples, and an `echo`): subtract, sum, update, get_data,
notify_hello, notify_sum, echo (its params back, or null past ECHO_DEPTH).
Everything else is -32601.

    jsonrpc_echo_ids.py            newline-delimited JSON on stdin/stdout
    jsonrpc_echo_ids.py --http     JSON-RPC over HTTP: POST / on 127.0.0.1, a
                                   free port; prints "http://127.0.0.1:PORT/"
                                   as its first stdout line
"""

import json
import sys

# Unique: never equal to a value a request could carry.
_ABSENT = object()


class Invalid(Exception):
    """-32600: the JSON sent is not a valid Request object (§5.1)."""


def _error(code, message, id_):
    return {"jsonrpc": "2.0", "error": {"code": code, "message": message}, "id": id_}


def _readable_id(obj):
    """The request's id when it could be detected (§4 types), else None
    (answered as null), or _ABSENT when the member is not there."""
    if not isinstance(obj, dict) or "id" not in obj:
        return _ABSENT
    id_ = obj["id"]
    # bool is an int in Python; §4 allows String, Number, NULL.
    if id_ is None or isinstance(id_, str) or (
        isinstance(id_, (int, float)) and not isinstance(id_, bool)
    ):
        return id_
    return None


def _check_request(obj):
    """Raises Invalid unless `obj` is a Request object (§4)."""
    if not isinstance(obj, dict):
        raise Invalid("not an object")
    if obj.get("jsonrpc", _ABSENT) != "2.0" or not isinstance(obj.get("jsonrpc"), str):
        raise Invalid('"jsonrpc" must be exactly "2.0"')
    if not isinstance(obj.get("method", _ABSENT), str):
        raise Invalid('"method" must be a string')
    if "params" in obj and not isinstance(obj["params"], (list, dict)):
        raise Invalid('"params" must be an array or an object')
    if "id" in obj and _readable_id(obj) is None and obj["id"] is not None:
        raise Invalid('"id" must be a string, a number or null')
    if "result" in obj or "error" in obj:
        # A Response's members on a Request: taken as neither (our choice;
        # the specification defines no such object).
        raise Invalid("a request with a response's members")


class InvalidParams(Exception):
    pass


def _numbers(params):
    values = params if isinstance(params, list) else list(params.values())
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        raise InvalidParams("numbers expected")
    return values


def _subtract(params):
    if isinstance(params, list) and len(params) == 2:
        a, b = params
    elif isinstance(params, dict) and set(params) == {"minuend", "subtrahend"}:
        a, b = params["minuend"], params["subtrahend"]
    else:
        raise InvalidParams("subtract takes [minuend, subtrahend] or {minuend, subtrahend}")
    _numbers([a, b])
    return a - b


# RFC 8259 §9: "An implementation may set limits on the maximum depth of
# nesting." This server reads any depth Python's parser reads, but sends back
# nothing nested deeper than this: `echo` answers null for deeper params.
ECHO_DEPTH = 64


def _depth(value):
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        deepest = max(deepest, d)
        if isinstance(v, list):
            stack.extend((x, d + 1) for x in v)
        elif isinstance(v, dict):
            stack.extend((x, d + 1) for x in v.values())
    return deepest


METHODS = {
    "subtract": _subtract,
    "sum": lambda params: sum(_numbers(params)),
    "update": lambda params: None,
    "get_data": lambda params: ["hello", 5],
    "notify_hello": lambda params: None,
    "notify_sum": lambda params: sum(_numbers(params)),
    "echo": lambda params: params if _depth(params) <= ECHO_DEPTH else None,
}


def handle_one(obj):
    """The Response to one Request object, or None for a notification (§4.1)."""
    try:
        _check_request(obj)
    except Invalid as e:
        id_ = _readable_id(obj)
        # §5: an Invalid Request is always answered, id or not (§7's example).
        return _error(-32600, "Invalid Request: " + str(e), None if id_ is _ABSENT else id_)
    notification = "id" not in obj
    params = obj.get("params", [])
    method = METHODS.get(obj["method"])
    if method is None:
        response = _error(-32601, "Method not found", obj.get("id"))
    else:
        try:
            response = {"jsonrpc": "2.0", "result": method(params), "id": obj.get("id")}
        except InvalidParams as e:
            response = _error(-32602, "Invalid params: " + str(e), obj.get("id"))
    # §4.1: "The Server MUST NOT reply to a Notification", errors included.
    return None if notification else response


def handle_text(data):
    """The reply to one frame's bytes (a str of JSON), or None."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        value = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return _error(-32700, "Parse error", None)
    if isinstance(value, list):
        if not value:
            return _error(-32600, "Invalid Request: empty batch", None)
        answers = [a for a in (handle_one(v) for v in value) if a is not None]
        # §6: "If there are no Response objects contained within the Response
        # array ... the server MUST NOT return an empty Array and should
        # return nothing at all."
        return answers or None
    return handle_one(value)


def _dump(reply):
    return json.dumps(reply, separators=(",", ":"), ensure_ascii=False)


def serve_stdio():
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        reply = handle_text(line.rstrip(b"\r\n"))
        if reply is not None:
            out.write(_dump(reply).encode("utf-8") + b"\n")
            out.flush()


def serve_http():
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def _send(self, status, body=b"", content_type=None):
            self.send_response(status)
            if content_type:
                self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            reply = handle_text(body)
            if reply is None:
                self._send(204)
            else:
                self._send(200, _dump(reply).encode("utf-8"), "application/json")

        def do_GET(self):
            self._send(405)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    if "--http" in sys.argv[1:]:
        serve_http()
    else:
        serve_stdio()
