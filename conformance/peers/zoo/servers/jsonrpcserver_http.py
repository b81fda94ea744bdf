"""The JSON-RPC 2.0 §7 example methods served by the PyPI package `jsonrpcserver`
(pinned in requirements.txt) over plain HTTP on 127.0.0.1:PORT, with the standard
library's HTTP server as its README shows. Only the glue is ours; `dispatch` answers."""
import os
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

from builtins import sum as sum_

from jsonrpcserver import InvalidParams, Success, dispatch, method


@method
def subtract(*args, **named):  # §7 calls it by position and by name
    if len(args) == 2 and not named and all(isinstance(x, (int, float)) for x in args):
        return Success(args[0] - args[1])
    if not args and isinstance(named.get("minuend"), (int, float)) and isinstance(named.get("subtrahend"), (int, float)):
        return Success(named["minuend"] - named["subtrahend"])
    return InvalidParams("subtract takes two numbers")


@method
def sum(*args):  # noqa: A001 - the method's name in JSON-RPC 2.0 §7
    if not all(isinstance(x, (int, float)) for x in args):
        return InvalidParams("sum takes numbers")
    return Success(sum_(args))


@method
def update(*args):
    return Success(None)


@method
def notify_hello(*args):
    return Success(None)


@method
def notify_sum(*args):
    return Success(None)


@method
def get_data():
    return Success(["hello", 5])


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode("utf-8", errors="replace")
        answer = dispatch(body)
        if answer:
            data = answer.encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        else:
            self.send_response(204)
            self.end_headers()

    def log_message(self, *args):
        pass


port = int(os.environ.get("PORT") or sys.argv[1])
HTTPServer(("127.0.0.1", port), Handler).serve_forever()
