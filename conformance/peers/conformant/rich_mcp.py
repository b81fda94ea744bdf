#!/usr/bin/env python3
"""A rich, conformant MCP server written from the specification text alone.

Python 3.11 standard library only; stdio transport, one JSON-RPC message per
line (MCP basic/transports §stdio). It is a *dual-era* server (2026-07-28
basic/versioning): an `initialize` opens a legacy session (2024-11-05,
2025-03-26, 2025-06-18 or 2025-11-25, as negotiated), and a request whose
`_meta` names `io.modelcontextprotocol/protocolVersion` is served statelessly
under 2026-07-28.

It serves tools, prompts, resources (with `resources/subscribe` where the
revision has it, `subscriptions/listen` in 2026-07-28), completions, logging,
progress and pagination. It is written independently of wirecheck's reference
peer (conformance/src/peer/) and, wherever the text allows a choice, takes a
different one, so that wirecheck's tolerance is exercised:

- an Invalid Request whose id can be read (a string or an integer) is answered
  with that id (JSON-RPC 2.0 §5: null only "If there was an error in detecting
  the id"); an id of a type MCP forbids (null, 1.5, true, an object) is treated
  as one that could not be read: null before 2025-11-25, omitted from
  2025-11-25 on (basic/index §Responses: "except in error cases where the ID
  could not be read due a malformed request");
- error messages are worded differently, and carry different `data`;
- pages hold ONE entry, and cursors are opaque base64url tokens carrying a
  keyed digest;
- no `tasks` capability in 2025-11-25 (tasks are optional), so a task-augmented
  call is processed normally (basic/utilities/tasks: receivers that do not
  declare the capability "MUST process requests of that type normally");
- a request sent as a `notifications/...` method with an id is -32601 (no
  such request exists), not -32600;
- log messages are sent only after the client asked for them (setLevel, or
  the per-request `_meta` level of 2026-07-28);
- 2026-07-28 cacheable results are `cacheScope: "private"` with short TTLs.

Tools take effect only inside this process: `add` adds two numbers,
`increment` bumps the in-memory counter resource `memo://counter` (and tells
subscribers), `countdown` reports progress. None reads or writes anything
outside the process.

Usage: python3 rich_mcp.py
"""

import base64
import decimal
import hashlib
import hmac
import json
import sys

# ---------------------------------------------------------------------------
# Revisions

LEGACY = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
MODERN = "2026-07-28"

META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPS = "io.modelcontextprotocol/clientCapabilities"
META_LOG = "io.modelcontextprotocol/logLevel"
META_SERVER = "io.modelcontextprotocol/serverInfo"
META_SUB = "io.modelcontextprotocol/subscriptionId"

SERVER_INFO = {"name": "rich-mcp-conformant", "version": "0.3.1"}

# server/utilities/logging §Log Levels (RFC 5424), least severe first.
LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603


def at_least(revision, floor):
    """Whether `revision` is `floor` or later (names sort by date)."""
    return revision >= floor


# ---------------------------------------------------------------------------
# Reading JSON exactly


class NumberText(float):
    """A JSON number that is not written as a plain integer, kept with its
    text so an id such as `1.0` is echoed byte for byte."""

    text = ""


def _parse_float(text):
    number = NumberText(text)
    number.text = text
    return number


def _no_constants(name):
    # Python's json accepts NaN and Infinity; RFC 8259 §6 has no such numbers.
    raise ValueError(f"{name} is not JSON")


def parse(data):
    """Parses one frame's bytes; ValueError when it is no JSON text."""
    # RFC 8259 §8.1: JSON text exchanged between systems MUST be UTF-8.
    text = data.decode("utf-8")  # UnicodeDecodeError is a ValueError
    if text.startswith("\ufeff"):
        # §8.1: "Implementations MUST NOT add a byte order mark"; this server
        # does not ignore one either, the frame is no JSON text.
        raise ValueError("byte order mark")
    try:
        return json.loads(text, parse_float=_parse_float, parse_constant=_no_constants)
    except RecursionError as exc:
        raise ValueError("nesting too deep for this server") from exc


def dump(value):
    """Serializes a value; ids kept as read are handled by `id_text`."""
    # ASCII escapes keep a lone surrogate read from an escaped string (which
    # RFC 8259 §8.2 lets a JSON text carry) writable as a JSON text again.
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False)


def is_integer_number(value):
    """Whether a JSON number's value is an integer, however it is spelled:
    `1.0`, `1e2` and `1e400` are (JSON Schema counts values, not spellings;
    the text is read exactly, never through a float that overflows)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    if isinstance(value, NumberText):
        number = decimal.Decimal(value.text)
        if number.as_tuple().exponent >= 0:
            return True
        try:
            return number == number.to_integral_value()
        except decimal.DecimalException:
            return False
    return False


def readable_id(value):
    """Whether `value` is an id MCP allows: a string or an integer
    (basic/index §Requests: "Requests MUST include a string or integer ID";
    `1.0` is an integer by JSON Schema's count)."""
    return isinstance(value, str) or is_integer_number(value)


def id_text(value):
    if isinstance(value, NumberText):
        return value.text
    return dump(value)


# ---------------------------------------------------------------------------
# The catalogue

PAGE = 1  # entries per page: small on purpose (server/utilities/pagination:
# "Page size is determined by the server")

CURSOR_KEY = b"rich-mcp conformant cursors"


def issue_cursor(kind, offset):
    body = f"{kind}:{offset}".encode()
    tag = hmac.new(CURSOR_KEY, body, hashlib.sha256).hexdigest()[:12]
    return base64.urlsafe_b64encode(body + b"|" + tag.encode()).decode().rstrip("=")


def read_cursor(kind, cursor):
    """The offset `cursor` stands for in list `kind`, or None."""
    if not isinstance(cursor, str) or not cursor:
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        body, tag = raw.rsplit(b"|", 1)
        good = hmac.new(CURSOR_KEY, body, hashlib.sha256).hexdigest()[:12].encode()
        if not hmac.compare_digest(tag, good):
            return None
        name, offset = body.decode().split(":")
        offset = int(offset)
    except (ValueError, UnicodeDecodeError):
        return None
    if name != kind or issue_cursor(kind, offset) != cursor:
        return None
    return offset


def tools(revision):
    out = []
    add = {
        "name": "add",
        "description": "Adds two numbers `a` and `b`.",
        "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"],
        },
    }
    increment = {
        "name": "increment",
        "description": "Adds `by` (default 1) to the in-memory counter memo://counter and returns its new value.",
        "inputSchema": {"type": "object", "properties": {"by": {"type": "integer"}}},
    }
    countdown = {
        "name": "countdown",
        "description": "Counts down from `from` (default 3, at most 20), reporting progress on each step.",
        "inputSchema": {
            "type": "object",
            "properties": {"from": {"type": "integer", "minimum": 1, "maximum": 20}},
        },
    }
    if at_least(revision, "2025-03-26"):
        # server/tools §Tool: annotations (2025-03-26 on) describe behaviour.
        add["annotations"] = {"readOnlyHint": True, "idempotentHint": True, "openWorldHint": False}
        increment["annotations"] = {"readOnlyHint": False, "destructiveHint": False, "openWorldHint": False}
        countdown["annotations"] = {"readOnlyHint": True, "openWorldHint": False}
    if at_least(revision, "2025-06-18"):
        # 2025-06-18 server/tools §Output Schema: "Servers MUST provide
        # structured results that conform to this schema."
        add["outputSchema"] = {
            "type": "object",
            "properties": {"sum": {"type": "number"}},
            "required": ["sum"],
        }
        add["title"] = "Add"
        increment["title"] = "Increment the counter"
        countdown["title"] = "Count down"
    out.extend([add, countdown, increment])  # a fixed, deterministic order
    return out


PROMPTS = [
    {
        "name": "greeting",
        "description": "Greets someone by name.",
        "arguments": [{"name": "name", "description": "Whom to greet.", "required": True}],
    },
    {"name": "haiku", "description": "Asks for a haiku about the sea."},
    {
        "name": "summarize",
        "description": "Asks for a summary of a text, in a style.",
        "arguments": [
            {"name": "text", "description": "The text to summarize.", "required": True},
            {"name": "style", "description": "brief, bulleted or detailed.", "required": False},
        ],
    },
]

STYLES = ["brief", "bulleted", "detailed", "dramatic"]
NOTES = {"readme": "Notes are served from memory.\n", "todo": "- nothing\n"}


def resources_listing(revision):
    entries = [
        {"uri": "memo://counter", "name": "counter", "mimeType": "text/plain",
         "description": "A counter the increment tool bumps."},
        {"uri": "memo://logo", "name": "logo", "mimeType": "image/png",
         "description": "A one-pixel image, as a blob."},
        {"uri": "memo://notes/readme", "name": "readme", "mimeType": "text/plain"},
    ]
    if at_least(revision, "2025-06-18"):
        for entry in entries:
            entry["title"] = entry["name"].capitalize()
    return entries


TEMPLATES = [
    {"uriTemplate": "memo://notes/{slug}", "name": "note", "mimeType": "text/plain",
     "description": "A note, by slug."},
]

# A 1x1 transparent PNG.
LOGO = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=")


class Failure(Exception):
    """A JSON-RPC error to answer with."""

    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


# ---------------------------------------------------------------------------
# The server


class Server:
    def __init__(self, out):
        self.out = out
        self.revision = None  # the legacy revision `initialize` negotiated
        self.log_level = None  # legacy logging/setLevel, an index into LEVELS
        self.subscribed = set()  # legacy resources/subscribe
        self.listens = {}  # 2026-07-28: id text -> set of URIs, open subscriptions/listen
        self.counter = 0

    # -- output --

    def send(self, text):
        self.out.write(text.encode("utf-8") + b"\n")
        self.out.flush()

    def notify(self, method, params):
        self.send(dump({"jsonrpc": "2.0", "method": method, "params": params}))

    # -- framing --

    def frame(self, data):
        if not data.strip():
            # A blank line carries no message; nothing to answer.
            return
        try:
            value = parse(data)
        except ValueError:
            # JSON-RPC 2.0 §5.1: -32700 "Invalid JSON was received by the server".
            self.send(self.error_text(None, PARSE_ERROR, "Parse error: the line is not JSON",
                                      {"hint": "one JSON-RPC message per line"}))
            return
        if isinstance(value, list):
            self.batch(value)
            return
        reply = self.message(value, in_batch=False)
        if reply is not None:
            self.send(reply)

    def batch(self, elements):
        era = self.revision or (MODERN if self.modern_seen else None)
        if era is not None and at_least(era, "2025-06-18"):
            # 2025-06-18 changelog: "Remove support for JSON-RPC batching". An
            # array is no MCP message, so it is an Invalid Request whose id
            # could not be read (JSON-RPC 2.0 §5).
            self.send(self.error_text(None, INVALID_REQUEST,
                                      f"Batches are not part of MCP {era}"))
            return
        if not elements:
            # JSON-RPC 2.0 §7: "rpc call with an empty Array" -> one Invalid Request.
            self.send(self.error_text(None, INVALID_REQUEST, "Invalid Request: empty batch"))
            return
        # JSON-RPC 2.0 §6 (2025-03-26 basic/index §Batching: implementations
        # "MUST support receiving JSON-RPC batches"); 2024-11-05 is silent and
        # rests on JSON-RPC, so it is answered the same way.
        replies = []
        for element in elements:
            reply = self.message(element, in_batch=True)
            if reply is not None:
                replies.append(reply)
        if replies:
            self.send("[" + ",".join(replies) + "]")

    # Set once a request named 2026-07-28 in `_meta`: from then on this
    # process answers frames it cannot place (batches, unreadable ids) the
    # 2026-07-28 way.
    modern_seen = False

    # -- the envelope (JSON-RPC 2.0 §4) --

    def message(self, value, in_batch):
        """Handles one message; the reply's text, or None."""
        if not isinstance(value, dict):
            return self.error_text(None, INVALID_REQUEST, "Invalid Request: a message is a JSON object")
        has_id = "id" in value
        ident = value.get("id")
        method = value.get("method")
        if "method" not in value and ("result" in value or "error" in value):
            # A response. This server sends no requests, so none is awaited; a
            # response is never answered (JSON-RPC 2.0 §5 answers calls only).
            return None
        problem = None
        if value.get("jsonrpc") != "2.0":
            problem = 'the member "jsonrpc" must be exactly "2.0"'
        elif not isinstance(method, str):
            problem = 'the member "method" must be a string'
        elif "result" in value or "error" in value:
            problem = "a request carries no result or error"
        elif has_id and not readable_id(ident):
            # MCP basic/index §Requests: "Requests MUST include a string or
            # integer ID. Unlike base JSON-RPC, the ID MUST NOT be null."
            problem = "MCP request ids are strings or integers"
        elif "params" in value and not isinstance(value["params"], (dict, list)):
            # JSON-RPC 2.0 §4.2: params "MUST be a Structured value".
            problem = 'the member "params" must be an object'
        if problem is not None:
            # No Request object, so no Notification either: JSON-RPC 2.0 §7
            # answers `{"jsonrpc": "2.0", "method": 1, "params": "bar"}` (no
            # id) with -32600 and "id": null.
            answer_id = ident if has_id and readable_id(ident) else None
            return self.error_text(answer_id, INVALID_REQUEST, f"Invalid Request: {problem}")
        params = value.get("params")
        if "params" in value and not isinstance(params, dict):
            if not has_id:
                return None
            # JSON-RPC 2.0 §4.2 allows by-position (array) params, so the frame
            # is a valid Request object (-32600 would say it is not); MCP's
            # params are an object (basic/index §Requests), so these are
            # "Invalid method parameter(s)": -32602 (§5.1), the code 2026-07-28
            # basic/index also demands for a request missing its `_meta` fields.
            return self.error_text(ident, INVALID_PARAMS, "Invalid params: MCP params are an object",
                                   {"received": type(params).__name__})
        if not has_id:
            self.notification(method, params)
            return None
        try:
            result = self.request(ident, method, params, in_batch)
        except Failure as failure:
            return self.error_text(ident, failure.code, failure.message, failure.data)
        except Exception as exc:  # noqa: BLE001 - a bug here is an Internal error, not a crash
            return self.error_text(ident, INTERNAL_ERROR, "Internal error", {"detail": repr(exc)})
        if result is None:
            return None  # left open (subscriptions/listen)
        return '{"jsonrpc":"2.0","id":' + id_text(ident) + ',"result":' + dump(result) + "}"

    def error_text(self, ident, code, message, data=None):
        error = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        head = '{"jsonrpc":"2.0",'
        if ident is not None:
            head += '"id":' + id_text(ident) + ","
        elif not self.omits_unread_id():
            # JSON-RPC 2.0 §5: "If there was an error in detecting the id in
            # the Request object (e.g. Parse error/Invalid Request), it MUST be
            # Null."
            head += '"id":null,'
        return head + '"error":' + dump(error) + "}"

    def omits_unread_id(self):
        """From 2025-11-25 `JSONRPCErrorResponse.id` is optional and the text
        excepts unreadable ids from echoing (basic/index §Error Responses);
        no id is then sent, which that schema allows and null is not."""
        era = self.revision or (MODERN if self.modern_seen else None)
        return era is not None and at_least(era, "2025-11-25")

    # -- notifications --

    def notification(self, method, params):
        if method == "notifications/cancelled" and isinstance(params, dict):
            # 2026-07-28 basic/patterns/subscriptions §Cancellation: the client
            # ends a stdio subscription with notifications/cancelled; servers
            # SHOULD then "Not send a response for the cancelled request".
            request = params.get("requestId")
            if request is not None and readable_id(request):
                self.listens.pop(id_text(request), None)
        # Everything else (notifications/initialized, progress, roots changes,
        # unknown ones) needs no action from this server, and none is answered.

    # -- requests --

    def request(self, ident, method, params, in_batch):
        meta = params.get("_meta") if isinstance(params, dict) else None
        if isinstance(meta, dict) and META_VERSION in meta:
            # 2026-07-28 basic/versioning §Backward Compatibility: "A request
            # carrying modern per-request `_meta` is served statelessly
            # according to this revision".
            return self.modern(ident, method, params)
        if self.modern_seen and self.revision is None:
            # "A dual-era server selects its behavior from how the client
            # opens": this client opened the modern way, so a request without
            # the per-request fields is a malformed modern one (an `initialize`
            # included: this server does not switch eras mid-process, which
            # the text allows but does not require). basic/index §Per-request
            # protocol fields: "A request missing any required field is
            # malformed; the server MUST reject it with JSON-RPC error code
            # -32602".
            raise Failure(INVALID_PARAMS, f"Missing _meta[{META_VERSION!r}]: this request names no protocol version",
                          {"missing": [META_VERSION, META_CAPS]})
        if method == "initialize":
            # "An `initialize` request selects legacy semantics, scoped to the
            # stdio process".
            return self.initialize(params, in_batch)
        if self.revision is None:
            if method == "ping":
                # lifecycle §Initialization: a client may ping before initialize.
                return {}
            # Neither a legacy session (no initialize yet; lifecycle: the client
            # "SHOULD NOT send requests other than pings before the server has
            # responded to the initialize request") nor a modern request (no
            # `_meta` version, which 2026-07-28 makes malformed, -32602).
            raise Failure(INVALID_PARAMS, f"{method} before initialize, and without _meta[{META_VERSION!r}]",
                          {"hint": "send initialize first, or name the protocol version in _meta"})
        return self.legacy(method, params)

    def initialize(self, params, in_batch):
        if in_batch:
            # 2025-03-26 basic/lifecycle §Initialization: "The initialize request
            # MUST NOT be part of a JSON-RPC batch".
            raise Failure(INVALID_REQUEST, "initialize must be sent on its own, not in a batch")
        if self.revision is not None:
            raise Failure(INVALID_REQUEST, f"This session was already initialized at {self.revision}")
        if not isinstance(params, dict):
            raise Failure(INVALID_PARAMS, "initialize needs params")
        requested = params.get("protocolVersion")
        if not isinstance(requested, str):
            raise Failure(INVALID_PARAMS, "params.protocolVersion must be a string")
        if not isinstance(params.get("capabilities"), dict):
            raise Failure(INVALID_PARAMS, "params.capabilities must be an object")
        if not isinstance(params.get("clientInfo"), dict):
            raise Failure(INVALID_PARAMS, "params.clientInfo must be an object")
        # lifecycle §Version Negotiation: "If the server supports the requested
        # protocol version, it MUST respond with the same version. Otherwise,
        # the server MUST respond with another protocol version it supports.
        # This SHOULD be the latest version supported by the server." The
        # latest this server negotiates by initialize is 2025-11-25 (2026-07-28
        # has no initialize).
        chosen = requested if requested in LEGACY else LEGACY[-1]
        self.revision = chosen
        result = {
            "protocolVersion": chosen,
            "capabilities": self.capabilities(chosen),
            "serverInfo": dict(SERVER_INFO),
        }
        if at_least(chosen, "2025-03-26"):
            result["instructions"] = "Call add, increment or countdown; read memo:// resources."
        return result

    def capabilities(self, revision):
        caps = {"tools": {}, "prompts": {}, "logging": {}}
        if revision == MODERN:
            # 2026-07-28 replaced resources/subscribe with subscriptions/listen.
            caps["resources"] = {}
        else:
            caps["resources"] = {"subscribe": True}
        if at_least(revision, "2025-03-26"):
            # The `completions` capability first appears in 2025-03-26
            # (server/utilities/completion §Capabilities); 2024-11-05 has
            # completion/complete without a capability.
            caps["completions"] = {}
        return caps

    def legacy(self, method, params):
        revision = self.revision
        handler = {
            "ping": lambda p: {},
            "tools/list": lambda p: self.page("tools", tools(revision), p),
            "tools/call": lambda p: self.call_tool(revision, p, self.log_level, None),
            "prompts/list": lambda p: self.page("prompts", PROMPTS, p),
            "prompts/get": lambda p: self.get_prompt(p),
            "resources/list": lambda p: self.page("resources", resources_listing(revision), p),
            "resources/templates/list": lambda p: self.page("resourceTemplates", TEMPLATES, p),
            "resources/read": lambda p: self.read(revision, p),
            "resources/subscribe": lambda p: self.subscribe(p, True),
            "resources/unsubscribe": lambda p: self.subscribe(p, False),
            "logging/setLevel": lambda p: self.set_level(p),
            "completion/complete": lambda p: self.complete(p),
        }.get(method)
        if handler is None:
            # JSON-RPC 2.0 §5.1: -32601 "The method does not exist / is not available".
            raise Failure(METHOD_NOT_FOUND, f"No method named {method!r} in MCP {revision}")
        return handler(params if isinstance(params, dict) else {})

    # -- 2026-07-28 --

    def modern(self, ident, method, params):
        if self.revision is None:
            self.modern_seen = True  # the client opened the modern way
        meta = params["_meta"]
        version = meta.get(META_VERSION)
        if not isinstance(version, str):
            raise Failure(INVALID_PARAMS, f"_meta[{META_VERSION!r}] must be a string")
        if not isinstance(meta.get(META_CAPS), dict):
            # basic/index §Per-request protocol fields: clientCapabilities is
            # required; "A request missing any required field is malformed; the
            # server MUST reject it with JSON-RPC error code -32602".
            raise Failure(INVALID_PARAMS, f"_meta[{META_CAPS!r}] is required and must be an object")
        if version != MODERN:
            # basic/versioning §Protocol Version Negotiation: an
            # UnsupportedProtocolVersionError "listing the versions it does
            # support" (schema: data.supported and data.requested).
            raise Failure(-32022, "Unsupported protocol version",
                          {"supported": [MODERN], "requested": version})
        level = None
        if META_LOG in meta:
            if meta[META_LOG] not in LEVELS:
                # server/utilities/logging §Error Handling: an unrecognized
                # level SHOULD be rejected with -32602.
                raise Failure(INVALID_PARAMS, f"Unrecognized log level {meta[META_LOG]!r}")
            level = LEVELS.index(meta[META_LOG])
        if method == "subscriptions/listen":
            self.listen(ident, params)
            return None
        cacheable = {"server/discover", "tools/list", "prompts/list", "resources/list",
                     "resources/templates/list", "resources/read"}
        handler = {
            "server/discover": lambda p: {
                "supportedVersions": [MODERN],
                "capabilities": self.capabilities(MODERN),
                "instructions": "Call add, increment or countdown; read memo:// resources.",
            },
            "tools/list": lambda p: self.page("tools", tools(MODERN), p),
            "tools/call": lambda p: self.call_tool(MODERN, p, level, ident),
            "prompts/list": lambda p: self.page("prompts", PROMPTS, p),
            "prompts/get": lambda p: self.get_prompt(p),
            "resources/list": lambda p: self.page("resources", resources_listing(MODERN), p),
            "resources/templates/list": lambda p: self.page("resourceTemplates", TEMPLATES, p),
            "resources/read": lambda p: self.read(MODERN, p),
            "completion/complete": lambda p: self.complete(p),
        }.get(method)
        if handler is None:
            # ping, logging/setLevel, resources/subscribe and initialize are
            # gone in 2026-07-28 (changelog §Major changes 2, 4, 5).
            raise Failure(METHOD_NOT_FOUND, f"No method named {method!r} in MCP {MODERN}")
        result = handler(params)
        # schema `Result.resultType`: required from 2026-07-28.
        result["resultType"] = "complete"
        if method in cacheable:
            # server/utilities/caching: hints required on these results;
            # "Servers MUST provide a ttlMs value that is >= 0". The counter
            # changes, so reads are immediately stale; nothing here is shared.
            result["ttlMs"] = 0 if method == "resources/read" else 60000
            result["cacheScope"] = "private"
        # basic/index §Per-response protocol fields: SHOULD identify itself.
        result.setdefault("_meta", {})[META_SERVER] = dict(SERVER_INFO)
        return result

    def listen(self, ident, params):
        wanted = params.get("notifications")
        if wanted is not None and not isinstance(wanted, dict):
            raise Failure(INVALID_PARAMS, "notifications must be an object")
        wanted = wanted or {}
        uris = wanted.get("resourceSubscriptions")
        agreed = {}
        # §Acknowledgment: "Notification types the server does not support
        # are omitted". Only resource updates ever happen here (the lists
        # never change).
        if isinstance(uris, list) and all(isinstance(u, str) for u in uris):
            agreed["resourceSubscriptions"] = uris
        key = id_text(ident)
        self.notify("notifications/subscriptions/acknowledged",
                    {"_meta": {META_SUB: ident}, "notifications": agreed})
        self.listens[key] = (ident, set(agreed.get("resourceSubscriptions", [])))

    def close(self):
        """stdin ended: tear every open subscription down."""
        for key, (ident, _) in list(self.listens.items()):
            # basic/patterns/cancellation: "A server MUST send
            # notifications/cancelled referencing a subscriptions/listen request
            # ID when it tears down that subscription stream"; subscriptions
            # §Graceful Closure: it SHOULD respond to the original request with
            # a completion result.
            self.notify("notifications/cancelled",
                        {"requestId": ident, "reason": "stdin closed",
                         "_meta": {META_SUB: ident}})
            result = {"resultType": "complete",
                      "_meta": {META_SUB: ident, META_SERVER: dict(SERVER_INFO)}}
            self.send('{"jsonrpc":"2.0","id":' + key + ',"result":' + dump(result) + "}")
        self.listens.clear()

    # -- features --

    def page(self, key, items, params):
        cursor = params.get("cursor")
        offset = 0
        if cursor is not None:
            offset = read_cursor(key, cursor)
            if offset is None or not 0 < offset < len(items):
                # server/utilities/pagination §Error Handling: "Invalid cursors
                # SHOULD result in an error with code -32602 (Invalid params)."
                raise Failure(INVALID_PARAMS, "This cursor was not issued by this server for this list",
                              {"cursor": cursor})
        result = {key: items[offset:offset + PAGE]}
        if offset + PAGE < len(items):
            result["nextCursor"] = issue_cursor(key, offset + PAGE)
        return result

    def call_tool(self, revision, params, level, request_id):
        name = params.get("name")
        arguments = params.get("arguments", {})
        if not isinstance(name, str):
            raise Failure(INVALID_PARAMS, "tools/call needs a string name")
        if not isinstance(arguments, dict):
            raise Failure(INVALID_PARAMS, "arguments must be an object")
        listed = {t["name"] for t in tools(revision)}
        if name not in listed:
            # server/tools §Error Handling: unknown tools are protocol errors;
            # the page's example is -32602.
            raise Failure(INVALID_PARAMS, f"There is no tool called {name!r}", {"tools": sorted(listed)})
        meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
        token = meta.get("progressToken")
        if token is not None and not readable_id(token):
            # basic/utilities/progress: "Progress tokens MUST be a string or
            # integer value".
            raise Failure(INVALID_PARAMS, "_meta.progressToken must be a string or an integer")
        self.log(level, "debug", {"tool": name, "event": "called"})
        if name == "add":
            a, b = arguments.get("a"), arguments.get("b")
            if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)):
                return self.tool_error(revision, "add needs numbers `a` and `b`")
            total = a + b
            if isinstance(total, float) and total.is_integer():
                total = int(total)
            result = {"content": [{"type": "text", "text": dump({"sum": total})}]}
            if at_least(revision, "2025-06-18"):
                result["structuredContent"] = {"sum": total}
            return result
        if name == "increment":
            by = arguments.get("by", 1)
            if not is_integer_number(by):
                return self.tool_error(revision, "increment takes an integer `by`")
            self.counter += int(by)
            self.resource_changed("memo://counter", revision)
            self.log(level, "info", {"tool": name, "counter": self.counter})
            return {"content": [{"type": "text", "text": str(self.counter)}]}
        start = arguments.get("from", 3)
        if not is_integer_number(start) or not 1 <= start <= 20:
            return self.tool_error(revision, "countdown takes an integer `from` between 1 and 20")
        start = int(start)
        for step in range(1, start + 1):
            if token is not None:
                # basic/utilities/progress: "The progress value MUST increase
                # with each notification"; `message` exists from 2025-03-26.
                progress = {"progressToken": token, "progress": step, "total": start}
                if at_least(revision, "2025-03-26"):
                    progress["message"] = f"{start - step} left"
                self.notify("notifications/progress", progress)
        return {"content": [{"type": "text", "text": "liftoff"}]}

    def tool_error(self, revision, text):
        # server/tools §Error Handling: input validation failures are tool
        # execution errors, reported with isError so the model can retry.
        # (2024-11-05 also lists "Invalid arguments" among protocol errors;
        # an isError result is a result either way.)
        return {"content": [{"type": "text", "text": text}], "isError": True}

    def log(self, level, severity, data):
        """notifications/message when the client asked for `severity`."""
        if level is None or LEVELS.index(severity) < level:
            # 2026-07-28 logging: "The server MUST NOT emit notifications/message
            # for a request that does not include this field"; legacy: this
            # server logs only once logging/setLevel asked for it.
            return
        self.notify("notifications/message", {"level": severity, "logger": "rich-mcp", "data": data})

    def resource_changed(self, uri, revision):
        if revision == MODERN:
            for ident, uris in self.listens.values():
                if uri in uris:
                    # subscriptions §Receiving Notifications: each carries the
                    # subscription id in _meta.
                    self.notify("notifications/resources/updated", {"uri": uri, "_meta": {META_SUB: ident}})
        elif uri in self.subscribed:
            # server/resources §Subscriptions: the server notifies subscribers.
            self.notify("notifications/resources/updated", {"uri": uri})

    def get_prompt(self, params):
        name = params.get("name")
        prompt = next((p for p in PROMPTS if p["name"] == name), None)
        if prompt is None:
            # server/prompts §Error Handling: "Invalid prompt name: -32602".
            raise Failure(INVALID_PARAMS, f"No prompt is named {name!r}")
        arguments = params.get("arguments", {})
        if not isinstance(arguments, dict) or not all(isinstance(v, str) for v in arguments.values()):
            raise Failure(INVALID_PARAMS, "Prompt arguments are a map of strings")
        for declared in prompt.get("arguments", []):
            if declared.get("required") and declared["name"] not in arguments:
                # server/prompts §Error Handling: "Missing required arguments: -32602".
                raise Failure(INVALID_PARAMS, f"The prompt {name!r} needs the argument {declared['name']!r}")
        if name == "greeting":
            text = f"Say hello to {arguments['name']}."
        elif name == "haiku":
            text = "Write a haiku about the sea."
        else:
            style = arguments.get("style", "brief")
            text = f"Summarize this text in a {style} style:\n{arguments['text']}"
        return {"description": prompt["description"],
                "messages": [{"role": "user", "content": {"type": "text", "text": text}}]}

    def read(self, revision, params):
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise Failure(INVALID_PARAMS, "resources/read needs a string uri")
        if uri == "memo://counter":
            contents = {"uri": uri, "mimeType": "text/plain", "text": str(self.counter)}
        elif uri == "memo://logo":
            contents = {"uri": uri, "mimeType": "image/png", "blob": LOGO}
        elif uri.startswith("memo://notes/") and uri[len("memo://notes/"):] in NOTES:
            contents = {"uri": uri, "mimeType": "text/plain", "text": NOTES[uri[len("memo://notes/"):]]}
        else:
            # server/resources §Error Handling: "Resource not found: -32002"
            # until 2025-11-25; 2026-07-28 changelog minor 6: "Change resource
            # not found error code from -32002 to -32602".
            code = INVALID_PARAMS if revision == MODERN else -32002
            raise Failure(code, "No such resource", {"uri": uri})
        return {"contents": [contents]}

    def subscribe(self, params, on):
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise Failure(INVALID_PARAMS, "a subscription needs a string uri")
        # Subscriptions to a URI not (yet) served are accepted: nothing in
        # server/resources §Subscriptions restricts them to listed resources.
        if on:
            self.subscribed.add(uri)
        else:
            self.subscribed.discard(uri)
        return {}

    def set_level(self, params):
        level = params.get("level")
        if level not in LEVELS:
            # server/utilities/logging §Error Handling: "Invalid log level: -32602".
            raise Failure(INVALID_PARAMS, f"Unrecognized log level {level!r}", {"levels": LEVELS})
        self.log_level = LEVELS.index(level)
        return {}

    def complete(self, params):
        ref = params.get("ref")
        argument = params.get("argument")
        if not isinstance(ref, dict) or not isinstance(argument, dict):
            raise Failure(INVALID_PARAMS, "completion/complete needs ref and argument objects")
        name = argument.get("name")
        value = argument.get("value")
        if not isinstance(name, str) or not isinstance(value, str):
            raise Failure(INVALID_PARAMS, "argument.name and argument.value must be strings")
        kind = ref.get("type")
        if kind == "ref/prompt":
            prompt = next((p for p in PROMPTS if p["name"] == ref.get("name")), None)
            if prompt is None:
                # server/utilities/completion §Error Handling: "Invalid prompt
                # name: -32602".
                raise Failure(INVALID_PARAMS, f"No prompt is named {ref.get('name')!r}")
            pool = STYLES if (prompt["name"], name) == ("summarize", "style") else []
        elif kind == "ref/resource":
            if ref.get("uri") != TEMPLATES[0]["uriTemplate"]:
                raise Failure(INVALID_PARAMS, f"No resource template {ref.get('uri')!r}")
            pool = sorted(NOTES) if name == "slug" else []
        else:
            raise Failure(INVALID_PARAMS, "ref.type must be ref/prompt or ref/resource")
        matches = [v for v in pool if v.startswith(value)]
        # server/utilities/completion: at most 100 values per response.
        return {"completion": {"values": matches[:100], "total": len(matches),
                               "hasMore": len(matches) > 100}}


def main():
    server = Server(sys.stdout.buffer)
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline()
        if not line:
            break
        server.frame(line.rstrip(b"\n"))
    # basic/transports/stdio: servers SHOULD exit promptly when stdin closes.
    server.close()


if __name__ == "__main__":
    sys.setrecursionlimit(4000)
    main()
