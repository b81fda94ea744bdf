#!/usr/bin/env python3
"""Writes the session vectors: conformance/sessions/<profile>/<topic>/{y,n,i}_<name>.json.

Each vector is a transcript (the lines of the project's transcript format), the
rules it exercises, and the exact set of findings expected, each as its rule and
the index of the event that makes it certain (the last event the finding
points at). The expectations are written here by hand from the specification,
never taken from the judge's output.

    python3 gen_sessions.py          # rewrite the vectors
    python3 gen_sessions.py --check  # exit 1 if the committed files differ
"""

import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
JSONRPC = "jsonrpc-2.0"
R1, R2, R3, R4, R5 = "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"
HANDSHAKE = [R1, R2, R3, R4]
MCP = HANDSHAKE + [R5]
ALL = [JSONRPC] + MCP


def enc(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def client(msg):
    return {"from": "client", "frame": enc(msg)}


def server(msg):
    return {"from": "server", "frame": enc(msg)}


CLOSED = {"event": "closed"}
WAIT = {"event": "wait-elapsed"}


def meta5(extra=None):
    """The per-request `_meta` every 2026-07-28 client request carries."""
    m = {
        "io.modelcontextprotocol/protocolVersion": R5,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"},
    }
    m.update(extra or {})
    return m


def call(rev, id_, meta=None, params=None):
    """A client request that needs no capability, in `rev`'s words."""
    if rev == JSONRPC:
        return {"jsonrpc": "2.0", "id": id_, "method": "sum", "params": [1, 2]}
    if rev == R5:
        p = {"name": "t", "_meta": meta5(meta)}
        p.update(params or {})
        return {"jsonrpc": "2.0", "id": id_, "method": "tools/call", "params": p}
    p = dict(params or {})
    if meta:
        p["_meta"] = meta
    msg = {"jsonrpc": "2.0", "id": id_, "method": "ping"}
    if p:
        msg["params"] = p
    return msg


def result(rev, id_, result_type="complete"):
    """The answer to `call`."""
    if rev == JSONRPC:
        return {"jsonrpc": "2.0", "id": id_, "result": 3}
    if rev == R5:
        body = {"resultType": result_type, "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}}}
        if result_type == "complete":
            body["content"] = []
        else:
            body["requestState"] = "opaque"
        return {"jsonrpc": "2.0", "id": id_, "result": body}
    return {"jsonrpc": "2.0", "id": id_, "result": {}}


def note(method, params=None):
    msg = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        msg["params"] = params
    return msg


def init(rev, client_caps=None, server_caps=None):
    """The handshake of 2024-11-05 to 2025-11-25, ids 0; nothing for the others."""
    if rev not in HANDSHAKE:
        return []
    return [
        client({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": rev, "capabilities": client_caps or {}, "clientInfo": {"name": "c", "version": "1"}}}),
        server({"jsonrpc": "2.0", "id": 0, "result": {
            "protocolVersion": rev, "capabilities": server_caps or {}, "serverInfo": {"name": "s", "version": "1"}}}),
        client(note("notifications/initialized")),
    ]


def progress(token, value):
    return server(note("notifications/progress", {"progressToken": token, "progress": value}))


def cancel(id_, sender=client):
    return sender(note("notifications/cancelled", {"requestId": id_, "reason": "no longer needed"}))


VECTORS = {}


def vector(rev, topic, name, description, rules, transcript, expect):
    """Records one vector; `expect` is a list of (rule, event index)."""
    VECTORS[pathlib.Path(rev) / topic / f"{name}.json"] = {
        "description": description,
        "revision": rev,
        "rules": rules,
        "expect": [{"rule": r, "frame": i} for r, i in expect],
        "transcript": transcript,
    }


def id_rules(rev):
    return {JSONRPC: "session.id.reused-inflight", R5: "mcp.base.id-unique-inflight"}.get(rev, "mcp.base.id-unique-session")


def notification_rule(rev):
    return "jsonrpc.notification.no-reply" if rev in (JSONRPC, R1) else "mcp.base.notification-no-response"


def build():
    for rev in ALL:
        h = init(rev)
        n = len(h)
        # ---- answers -------------------------------------------------------
        vector(rev, "answers", "y_each-answered-once", "Two requests, each answered once, in the opposite order.",
               ["session.response.duplicate", "session.response.unknown-id", "jsonrpc.response.required"],
               h + [client(call(rev, 1)), client(call(rev, 2)), server(result(rev, 2)), server(result(rev, 1)), CLOSED], [])
        vector(rev, "answers", "n_answered-twice", "The server answers id 1 twice (JSON-RPC 2.0 §5: a Response).",
               ["session.response.duplicate"],
               h + [client(call(rev, 1)), server(result(rev, 1)), server(result(rev, 1))],
               [("session.response.duplicate", n + 2)])
        vector(rev, "answers", "n_unknown-id", "The server answers id 7, which the client never sent.",
               ["session.response.unknown-id"],
               h + [client(call(rev, 1)), server(result(rev, 7)), server(result(rev, 1))],
               [("session.response.unknown-id", n + 1)])
        vector(rev, "answers", "n_unanswered-at-close", "The stream closes with request 1 unanswered.",
               ["jsonrpc.response.required"],
               h + [client(call(rev, 1)), CLOSED], [("jsonrpc.response.required", n + 1)])
        vector(rev, "answers", "n_unanswered-after-wait", "The wait for an answer to request 1 runs out.",
               ["jsonrpc.response.required"],
               h + [client(call(rev, 1)), WAIT], [("jsonrpc.response.required", n + 1)])
        vector(rev, "answers", "i_unanswered-capture-stops", "The capture stops with request 1 unanswered: not observed, not a finding.",
               ["jsonrpc.response.required"], h + [client(call(rev, 1))], [])
        vector(rev, "answers", "y_notification-not-answered", "A notification followed by an answered request.",
               [notification_rule(rev)],
               h + [client(note("notifications/x-progress-hint")), client(call(rev, 1)), server(result(rev, 1))], [])
        vector(rev, "answers", "n_notification-answered", "The server answers a notification (with id null).",
               [notification_rule(rev)],
               h + [client(note("notifications/x-progress-hint")), server(result(rev, None))],
               [(notification_rule(rev), n + 1)])
        # ---- ids -------------------------------------------------------------
        vector(rev, "ids", "y_distinct-ids", "Every request takes a new id.", [id_rules(rev)],
               h + [client(call(rev, 1)), client(call(rev, 2)), server(result(rev, 1)), server(result(rev, 2))], [])
        inflight = h + [client(call(rev, 1)), client(call(rev, 1)), server(result(rev, 1))]
        expect = [(id_rules(rev), n + 1)]
        vector(rev, "ids", "n_reused-in-flight", "The client sends id 1 again while the first is in flight.",
               [id_rules(rev)], inflight, expect)
        if rev in HANDSHAKE:
            vector(rev, "ids", "n_reused-in-session", "The client reuses id 1 after it was answered.",
                   ["mcp.base.id-unique-session"],
                   h + [client(call(rev, 1)), server(result(rev, 1)), client(call(rev, 1)), server(result(rev, 1))],
                   [("mcp.base.id-unique-session", n + 2)])
        else:
            vector(rev, "ids", "y_reused-after-answer", "Reusing an id after its answer is allowed here.",
                   [id_rules(rev)],
                   h + [client(call(rev, 1)), server(result(rev, 1)), client(call(rev, 1)), server(result(rev, 1))], [])
            # Issue 27, divergence 5: the reuse is a request all the same
            # (JSON-RPC 2.0 §5: "the Server MUST reply with a Response").
            vector(rev, "ids", "n_reused-after-answer-dropped",
                   "The client reuses id 1 after its answer, which is allowed here; the server never answers the second request.",
                   ["jsonrpc.response.required"],
                   h + [client(call(rev, 1)), server(result(rev, 1)), client(call(rev, 1)), CLOSED],
                   [("jsonrpc.response.required", n + 3)])
        # ---- batches ---------------------------------------------------------
        if rev in (JSONRPC, R2):
            calls = [call(rev, 1), call(rev, 2)]
            vector(rev, "batch", "y_answers-any-order", "A batch answered in the reverse order (JSON-RPC 2.0 §6: MAY).",
                   ["session.batch.any-order"],
                   h + [{"from": "client", "frame": enc(calls)},
                        {"from": "server", "frame": enc([result(rev, 2), result(rev, 1)])}], [])
            vector(rev, "batch", "n_answer-to-no-request", "A batch answer carries id 9, which no request of the batch had.",
                   ["session.batch.any-order", "session.response.unknown-id"],
                   h + [{"from": "client", "frame": enc(calls)},
                        {"from": "server", "frame": enc([result(rev, 2), result(rev, 1), result(rev, 9)])}],
                   [("session.response.unknown-id", n + 1)])
        if rev == JSONRPC:
            continue
        # ---- progress --------------------------------------------------------
        def req_tok(id_, token):
            return client(call(rev, id_, meta={"progressToken": token}))
        vector(rev, "progress", "y_increasing", "Progress for the request's own token, increasing, then the answer.",
               ["mcp.progress.increase", "mcp.progress.active-token-only", "mcp.progress.token-unique"],
               h + [req_tok(1, "t1"), progress("t1", 1), progress("t1", 2.5), server(result(rev, 1))], [])
        vector(rev, "progress", "n_not-increasing", "The second progress value equals the first (ambiguity A10: strictly).",
               ["mcp.progress.increase"],
               h + [req_tok(1, "t1"), progress("t1", 2), progress("t1", 2), server(result(rev, 1))],
               [("mcp.progress.increase", n + 2)])
        vector(rev, "progress", "n_unknown-token", "Progress for a token no request carried.",
               ["mcp.progress.active-token-only"],
               h + [req_tok(1, "t1"), progress("t2", 1), server(result(rev, 1))],
               [("mcp.progress.active-token-only", n + 1)])
        vector(rev, "progress", "n_after-answer", "Progress for a token whose request was already answered.",
               ["mcp.progress.active-token-only"],
               h + [req_tok(1, "t1"), server(result(rev, 1)), progress("t1", 1)],
               [("mcp.progress.active-token-only", n + 2)])
        vector(rev, "progress", "n_token-reused", "Two requests in flight carry one token.",
               ["mcp.progress.token-unique"],
               h + [req_tok(1, "t1"), req_tok(2, "t1"), server(result(rev, 1)), server(result(rev, 2))],
               [("mcp.progress.token-unique", n + 1)])
        vector(rev, "progress", "y_token-reused-after-answer", "A token used again after its request was answered.",
               ["mcp.progress.token-unique"],
               h + [req_tok(1, "t1"), server(result(rev, 1)), req_tok(2, "t1"), server(result(rev, 2))], [])
        # ---- cancellation ----------------------------------------------------
        if rev != R5:
            vector(rev, "cancel", "y_cancelled-not-answered", "A request cancelled and never answered; the stream then closes.",
                   ["mcp.cancel.receiver-should", "mcp.cancel.same-direction", "jsonrpc.response.required"],
                   h + [client(call(rev, 1)), cancel(1), CLOSED], [])
            vector(rev, "cancel", "n_answered-after-cancel", "The server answers a request the client cancelled (SHOULD).",
                   ["mcp.cancel.receiver-should"],
                   h + [client(call(rev, 1)), cancel(1), server(result(rev, 1))],
                   [("mcp.cancel.receiver-should", n + 2)])
            vector(rev, "cancel", "n_cancel-unknown-request", "The client cancels id 5, which it never sent.",
                   ["mcp.cancel.same-direction"],
                   h + [client(call(rev, 1)), cancel(5), server(result(rev, 1))],
                   [("mcp.cancel.same-direction", n + 1)])
            vector(rev, "cancel", "y_cancel-after-answer", "A cancellation racing the answer (§Timing Considerations).",
                   ["mcp.cancel.same-direction"],
                   h + [client(call(rev, 1)), server(result(rev, 1)), cancel(1)], [])
            vector(rev, "cancel", "n_initialize-cancelled", "The client cancels its initialize request.",
                   ["mcp.cancel.not-initialize"],
                   [h[0], cancel(0), h[1], h[2]], [("mcp.cancel.not-initialize", 1)])
            vector(rev, "cancel", "y_initialize-not-cancelled", "The handshake completes; another request is cancelled.",
                   ["mcp.cancel.not-initialize"], h + [client(call(rev, 1)), cancel(1)], [])
        else:
            listen = client({"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen", "params": {
                "notifications": {}, "_meta": meta5()}})
            vector(rev, "cancel", "y_server-cancels-listen", "The server ends a subscriptions/listen stream by cancelling it.",
                   ["mcp.cancel.client-only"], [listen, cancel(1, server)], [])
            vector(rev, "cancel", "n_server-cancels-call", "The server cancels a tools/call, not a subscription.",
                   ["mcp.cancel.client-only"],
                   [client(call(rev, 1)), cancel(1, server), server(result(rev, 1))],
                   [("mcp.cancel.client-only", 1)])
            vector(rev, "cancel", "y_cancelled-not-answered", "A request cancelled by the client and never answered.",
                   ["mcp.cancel.receiver-should"], [client(call(rev, 1)), cancel(1), CLOSED], [])
            vector(rev, "cancel", "n_answered-after-cancel", "The server answers a request the client cancelled (SHOULD).",
                   ["mcp.cancel.receiver-should"],
                   [client(call(rev, 1)), cancel(1), server(result(rev, 1))],
                   [("mcp.cancel.receiver-should", 2)])
            # ---- 2026-07-28: per-request fields ------------------------------
            vector(rev, "logging", "y_log-for-request-that-asked", "notifications/message while a request with logLevel is in flight.",
                   ["mcp.r5.logging.per-request"],
                   [client(call(rev, 1, meta={"io.modelcontextprotocol/logLevel": "info"})),
                    server(note("notifications/message", {"level": "info", "data": "x"})), server(result(rev, 1))], [])
            vector(rev, "logging", "n_log-nobody-asked-for", "notifications/message while no request carries logLevel.",
                   ["mcp.r5.logging.per-request"],
                   [client(call(rev, 1)), server(note("notifications/message", {"level": "info", "data": "x"})),
                    server(result(rev, 1))], [("mcp.r5.logging.per-request", 1)])
            retry = {"inputResponses": {}, "requestState": "opaque"}
            vector(rev, "mrtr", "y_retry-new-id", "The retry after an input-required answer takes a new id.",
                   ["mcp.r5.mrtr.retry-id"],
                   [client(call(rev, 1)), server(result(rev, 1, "input_required")),
                    client(call(rev, 2, params=retry)), server(result(rev, 2))], [])
            vector(rev, "mrtr", "n_retry-same-id", "The retry reuses the initial request's id.",
                   ["mcp.r5.mrtr.retry-id"],
                   [client(call(rev, 1)), server(result(rev, 1, "input_required")),
                    client(call(rev, 1, params=retry)), server(result(rev, 1))], [("mcp.r5.mrtr.retry-id", 2)])
            continue
        # ---- lifecycle (handshake revisions) ---------------------------------
        vector(rev, "lifecycle", "y_handshake", "initialize, its answer, notifications/initialized, then operation.",
               ["mcp.lifecycle.initialize-first", "mcp.lifecycle.initialized-notification",
                "mcp.lifecycle.client-pre-init-requests", "mcp.lifecycle.server-pre-initialized-requests"],
               h + [client(call(rev, 1)), server(result(rev, 1)), CLOSED], [])
        vector(rev, "lifecycle", "n_request-before-initialize", "The client's first frame is a request other than initialize.",
               ["mcp.lifecycle.initialize-first"],
               [client(call(rev, 1))] + h + [server(result(rev, 1))], [("mcp.lifecycle.initialize-first", 0)])
        vector(rev, "lifecycle", "n_initialized-never-sent", "The stream closes and notifications/initialized never came.",
               ["mcp.lifecycle.initialized-notification"], h[:2] + [CLOSED],
               [("mcp.lifecycle.initialized-notification", 2)])
        vector(rev, "lifecycle", "n_operation-before-initialized", "The client calls tools/list before notifications/initialized.",
               ["mcp.lifecycle.initialized-notification"],
               init(rev, server_caps={"tools": {}})[:2]
               + [client({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
                  server({"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}), h[2]],
               [("mcp.lifecycle.initialized-notification", 2)])
        vector(rev, "lifecycle", "i_initialized-capture-stops", "The capture stops before notifications/initialized: not observed.",
               ["mcp.lifecycle.initialized-notification"], h[:2], [])
        vector(rev, "lifecycle", "y_ping-before-answer", "A ping while initialize is unanswered is allowed.",
               ["mcp.lifecycle.client-pre-init-requests"],
               [h[0], client({"jsonrpc": "2.0", "id": 1, "method": "ping"}), server(result(rev, 1)), h[1], h[2]], [])
        vector(rev, "lifecycle", "n_request-before-answer", "The client lists tools before initialize is answered (SHOULD NOT).",
               ["mcp.lifecycle.client-pre-init-requests"],
               [h[0], client({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}), h[1], h[2],
                server({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}})],
               [("mcp.lifecycle.client-pre-init-requests", 1)])
        sample = {"jsonrpc": "2.0", "id": "s1", "method": "roots/list"}
        h_roots = init(rev, client_caps={"roots": {}})
        vector(rev, "lifecycle", "y_server-request-after-initialized", "The server asks for roots after notifications/initialized.",
               ["mcp.lifecycle.server-pre-initialized-requests"],
               h_roots + [server(sample), client({"jsonrpc": "2.0", "id": "s1", "result": {"roots": []}})], [])
        vector(rev, "lifecycle", "n_server-request-before-initialized", "The server asks for roots before notifications/initialized (SHOULD NOT).",
               ["mcp.lifecycle.server-pre-initialized-requests"],
               h_roots[:2] + [server(sample), client({"jsonrpc": "2.0", "id": "s1", "result": {"roots": []}}), h_roots[2]],
               [("mcp.lifecycle.server-pre-initialized-requests", 2)])
        # ---- capabilities ------------------------------------------------------
        respect = "mcp.lifecycle.operation-respect-r1" if rev in (R1, R2) else "mcp.lifecycle.operation-respect"
        tools = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        tools_ok = server({"jsonrpc": "2.0", "id": 1, "result": {"tools": []}})
        vector(rev, "capabilities", "y_declared-tools", "tools/list and a list_changed after the server declared tools.listChanged.",
               [respect],
               init(rev, server_caps={"tools": {"listChanged": True}})
               + [client(tools), tools_ok, server(note("notifications/tools/list_changed"))], [])
        vector(rev, "capabilities", "n_undeclared-tools", "The client calls tools/list; the server declared no tools, yet answers it with a result.",
               [respect, "mcp.capabilities.server-declares"], h + [client(tools), tools_ok],
               [(respect, 3), ("mcp.capabilities.server-declares", 4)])
        vector(rev, "capabilities", "n_undeclared-logging", "The server logs without declaring logging.",
               [respect], h + [server(note("notifications/message", {"level": "info", "data": "x"}))], [(respect, 3)])
        vector(rev, "capabilities", "n_list-changed-not-declared", "tools/list_changed while tools.listChanged is not declared.",
               [respect], init(rev, server_caps={"tools": {}}) + [server(note("notifications/tools/list_changed"))],
               [(respect, 3)])


def gap():
    """Closing the gap (issue 14): the session rules added for sentences of
    conformance/spec/mapping.json."""
    prompts = {"jsonrpc": "2.0", "id": 1, "method": "prompts/list"}
    for rev in HANDSHAKE:
        respect = "mcp.lifecycle.operation-respect-r1" if rev in (R1, R2) else "mcp.lifecycle.operation-respect"
        declares = "mcp.capabilities.server-declares"
        vector(rev, "capabilities", "y_server-answers-declared-feature", "The server declared prompts and answers prompts/list with a result.",
               [declares], init(rev, server_caps={"prompts": {}}) + [client(prompts), server({"jsonrpc": "2.0", "id": 1, "result": {"prompts": []}})], [])
        vector(rev, "capabilities", "n_server-answers-undeclared-feature", "The server declared no prompts yet answers prompts/list with a result: a server that supports prompts MUST declare them.",
               [declares, respect], init(rev) + [client(prompts), server({"jsonrpc": "2.0", "id": 1, "result": {"prompts": []}})],
               [(respect, 3), (declares, 4)])
    # 2026-07-28: capabilities are declared in the server/discover answer.
    sinfo = {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}}
    def discover(caps):
        return [client({"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": {"_meta": meta5()}}),
                server({"jsonrpc": "2.0", "id": 0, "result": {
                    "supportedVersions": [R5], "capabilities": caps, "resultType": "complete",
                    "ttlMs": 0, "cacheScope": "public", "_meta": sinfo}})]
    tools5 = client({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta5()}})
    tools5_ok = server({"jsonrpc": "2.0", "id": 1, "result": {
        "tools": [], "resultType": "complete", "ttlMs": 0, "cacheScope": "public", "_meta": sinfo}})
    tools5_missing = server({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}})
    lists, declares = "mcp.r5.capabilities.declared-lists", "mcp.capabilities.server-declares"
    vector(R5, "capabilities", "y_declared-and-listed", "server/discover declares tools; tools/list is answered with the tools.",
           [lists, declares], discover({"tools": {}}) + [tools5, tools5_ok], [])
    vector(R5, "capabilities", "n_declared-not-listed", "server/discover declares tools, then tools/list is answered -32601 (Method not found).",
           [lists], discover({"tools": {}}) + [tools5, tools5_missing], [(lists, 3)])
    vector(R5, "capabilities", "n_listed-not-declared", "server/discover declares no tools, yet tools/list is answered with a result: a server that supports tools MUST declare them.",
           [declares], discover({}) + [tools5, tools5_ok], [(declares, 3)])
    # server/tools §Embedded Resources: SHOULD implement resources.
    embedded = [{"type": "resource", "resource": {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "a"}}]
    embeds = "mcp.tools.embedded-resources-capability"
    for rev in [R3, R4, R5]:
        if rev == R5:
            call_ = client({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "_meta": meta5()}})
            answer = server({"jsonrpc": "2.0", "id": 1, "result": {"content": embedded, "resultType": "complete", "_meta": sinfo}})
            start = lambda caps: discover(caps)
        else:
            call_ = client({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t"}})
            answer = server({"jsonrpc": "2.0", "id": 1, "result": {"content": embedded}})
            start = lambda caps, rev=rev: init(rev, server_caps=caps)
        at = len(start({})) + 1
        vector(rev, "capabilities", "y_embedded-resource-declared", "A tools/call result embeds a resource; the server declared resources.",
               [embeds], start({"tools": {}, "resources": {}}) + [call_, answer], [])
        vector(rev, "capabilities", "n_embedded-resource-undeclared", "A tools/call result embeds a resource; the server declared no resources (SHOULD).",
               [embeds], start({"tools": {}}) + [call_, answer], [(embeds, at)])
    # 2025-11-25: modes and options inside a declared client capability.
    ask_url = {"jsonrpc": "2.0", "id": "e1", "method": "elicitation/create", "params": {
        "mode": "url", "message": "Sign in", "url": "https://example.com/login", "elicitationId": "x-1"}}
    declined = client({"jsonrpc": "2.0", "id": "e1", "result": {"action": "decline"}})
    msgs = [{"role": "user", "content": {"type": "text", "text": "hi"}}]
    def sample(**extra):
        return {"jsonrpc": "2.0", "id": "s1", "method": "sampling/createMessage",
                "params": {"messages": msgs, "maxTokens": 10, **extra}}
    sampled = client({"jsonrpc": "2.0", "id": "s1", "result": {
        "role": "assistant", "content": {"type": "text", "text": "hello"}, "model": "m", "stopReason": "endTurn"}})
    tools = [{"name": "search", "inputSchema": {"type": "object"}}]
    cases = [
        ("elicitation", "mcp.elicitation.mode-declared", "url-mode", {"elicitation": {"form": {}}}, {"elicitation": {"url": {}}}, ask_url, declined,
         "a URL-mode elicitation/create"),
        ("sampling", "mcp.sampling.tools-declared", "tools", {"sampling": {}}, {"sampling": {"tools": {}}}, sample(tools=tools), sampled,
         "a tool-enabled sampling/createMessage"),
        ("sampling", "mcp.sampling.include-context-declared", "include-context", {"sampling": {}}, {"sampling": {"context": {}}},
         sample(includeContext="thisServer"), sampled, "sampling/createMessage with includeContext \"thisServer\""),
    ]
    for topic, rule, slug, without, with_, request, answer, what in cases:
        vector(R4, topic, f"n_{slug}-undeclared", f"The server sends {what}; the client's initialize did not declare {list(with_.values())[0]}.",
               [rule], init(R4, client_caps=without) + [server(request), answer], [(rule, 3)])
        vector(R4, topic, f"y_{slug}-declared", f"The server sends {what}; the client declared it.",
               [rule], init(R4, client_caps=with_) + [server(request), answer], [])
    # 2026-07-28 basic/patterns/subscriptions: acknowledgment first, then only what was asked for.
    def listen(filt):
        return client({"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen",
                       "params": {"notifications": filt, "_meta": meta5()}})
    sub = {"io.modelcontextprotocol/subscriptionId": 1}
    def ack(filt):
        return server(note("notifications/subscriptions/acknowledged", {"notifications": filt, "_meta": sub}))
    def on_sub(method, **params):
        return server(note(method, {**params, "_meta": sub}))
    first, only = "mcp.r5.subscription.acknowledged-first", "mcp.r5.subscriptions.requested-only"
    tools_f = {"toolsListChanged": True}
    vector(R5, "subscriptions", "y_acknowledged-then-notified", "subscriptions/listen for tool list changes: acknowledged, then a tools/list_changed on the subscription.",
           [first, only], [listen(tools_f), ack(tools_f), on_sub("notifications/tools/list_changed")], [])
    vector(R5, "subscriptions", "n_notified-before-acknowledged", "A tools/list_changed on the subscription before its acknowledgment.",
           [first], [listen(tools_f), on_sub("notifications/tools/list_changed"), ack(tools_f)], [(first, 1)])
    vector(R5, "subscriptions", "n_type-not-requested", "The subscription asked for tool list changes; the server sends prompts/list_changed on it.",
           [only], [listen(tools_f), ack(tools_f), on_sub("notifications/prompts/list_changed")], [(only, 2)])
    res_f = {"resourceSubscriptions": ["file:///a.txt"]}
    vector(R5, "subscriptions", "y_resource-requested", "The subscription asked for updates to file:///a.txt and gets one.",
           [only], [listen(res_f), ack(res_f), on_sub("notifications/resources/updated", uri="file:///a.txt")], [])
    vector(R5, "subscriptions", "n_resource-not-requested", "The subscription asked for updates to file:///a.txt; the server sends one for file:///b.txt.",
           [only], [listen(res_f), ack(res_f), on_sub("notifications/resources/updated", uri="file:///b.txt")], [(only, 2)])
    # A server's teardown of a subscription: basic/patterns/cancellation (top) says it MUST send
    # notifications/cancelled for the listen id; basic/patterns/subscriptions §Cancellation and
    # §Graceful Closure say it SHOULD answer the listen with a successful result. Either is accepted.
    down = "mcp.r5.subscription.teardown-signalled"
    ended = server({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "_meta": {**sub, **sinfo}}})
    failed = server({"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": "shutting down"}})
    vector(R5, "subscriptions", "y_teardown-cancelled", "The server tears the subscription down with notifications/cancelled for the listen id (basic/patterns/cancellation: MUST).",
           [down, "mcp.cancel.client-only"], [listen(tools_f), ack(tools_f), cancel(1, server)], [])
    vector(R5, "subscriptions", "y_teardown-answered", "The server ends the subscription with a successful subscriptions/listen result carrying the subscription id (basic/patterns/subscriptions §Graceful Closure: SHOULD). basic/patterns/cancellation says a server tearing a subscription down MUST send notifications/cancelled; wirecheck accepts the subscriptions page's signal as well, as the two pages disagree.",
           [down], [listen(tools_f), ack(tools_f), ended], [])
    vector(R5, "subscriptions", "y_teardown-cancelled-then-answered",
           "Ambiguity: basic/patterns/cancellation says a server tearing a subscription down MUST send notifications/cancelled referencing the subscriptions/listen id; "
           "basic/patterns/subscriptions §Cancellation and §Graceful Closure say it SHOULD send a successful subscriptions/listen response, then close the stream. "
           "wirecheck accepts either signal and, as here, both, cancellation first: no sentence forbids the result after the server's own cancellation (the SHOULD not to answer binds a receiver of a cancellation, and the client SHOULD ignore a late response), and the result is the one answer the request is owed. "
           "The other order (result, then notifications/cancelled) cancels a request already answered, which mcp.cancel.client-only reports. A teardown with neither (an error, or a silent stream end) is mcp.r5.subscription.teardown-signalled's.",
           [down, "mcp.cancel.client-only", "mcp.cancel.receiver-should", "mcp.r5.stdio.cancel-no-further"], [listen(tools_f), ack(tools_f), cancel(1, server), ended], [])
    vector(R5, "subscriptions", "n_teardown-error-unsignalled", "The server ends an acknowledged subscription with a JSON-RPC error and no notifications/cancelled before it: neither teardown signal.",
           [down], [listen(tools_f), ack(tools_f), failed], [(down, 2)])
    vector(R5, "subscriptions", "y_teardown-error-after-cancel", "The server cancels the subscription, then answers the listen with an error: the cancellation was the signal.",
           [down], [listen(tools_f), ack(tools_f), cancel(1, server), failed], [])
    vector(R5, "subscriptions", "y_listen-refused", "The server refuses subscriptions/listen with an error before any acknowledgment: no subscription was set up, so none was torn down.",
           [down], [listen(tools_f), failed], [])
    vector(R5, "subscriptions", "n_answered-then-cancelled", "The server answers the listen (graceful end), then sends notifications/cancelled for it: the request was no longer in flight.",
           [down, "mcp.cancel.client-only"], [listen(tools_f), ack(tools_f), ended, cancel(1, server)], [("mcp.cancel.client-only", 3)])
    vector(R5, "subscriptions", "i_closed-with-subscription-open", "The stream closes with an acknowledged subscription open and no signal: a transport close (allowed by §Cancellation) or a silent teardown, not told apart: not observed.",
           [down], [listen(tools_f), ack(tools_f), CLOSED], [])

    # basic/utilities/tasks §Task Status Lifecycle, §Task ID Requirements (2025-11-25).
    final, unique = "mcp.tasks.terminal-final", "mcp.tasks.id-unique"
    caps = {"tools": {}, "tasks": {"requests": {"tools": {"call": {}}}}}

    def task_call(id_):
        return client({"jsonrpc": "2.0", "id": id_, "method": "tools/call", "params": {"name": "job", "arguments": {}, "task": {"ttl": 60000}}})

    def task(task_id, status):
        return {"taskId": task_id, "status": status, "createdAt": "2025-11-25T10:00:00Z",
                "lastUpdatedAt": "2025-11-25T10:00:00Z", "ttl": 60000}

    def created(id_, task_id):
        return server({"jsonrpc": "2.0", "id": id_, "result": {"task": task(task_id, "working")}})

    def get(id_, task_id):
        return client({"jsonrpc": "2.0", "id": id_, "method": "tasks/get", "params": {"taskId": task_id}})

    def got(id_, task_id, status):
        return server({"jsonrpc": "2.0", "id": id_, "result": task(task_id, status)})
    vector(R4, "tasks", "y_task-status-lifecycle", "A task created working, seen completed, then completed again: a terminal status stays.",
           [final, unique], init(R4, server_caps=caps) + [task_call(1), created(1, "t1"), get(2, "t1"), got(2, "t1", "completed"),
                                                          get(3, "t1"), got(3, "t1", "completed")], [])
    vector(R4, "tasks", "n_task-left-terminal", "A task seen completed, then announced working by notifications/tasks/status: terminal statuses MUST NOT transition.",
           [final], init(R4, server_caps=caps) + [task_call(1), created(1, "t1"), get(2, "t1"), got(2, "t1", "completed"),
                                                  server(note("notifications/tasks/status", task("t1", "working")))], [(final, 7)])
    vector(R4, "tasks", "n_task-cancelled-then-completed", "A task cancelled, then seen completed: once cancelled it MUST remain cancelled.",
           [final], init(R4, server_caps=caps) + [task_call(1), created(1, "t1"),
                                                  client({"jsonrpc": "2.0", "id": 2, "method": "tasks/cancel", "params": {"taskId": "t1"}}),
                                                  got(2, "t1", "cancelled"), get(3, "t1"), got(3, "t1", "completed")], [(final, 8)])
    vector(R4, "tasks", "n_task-id-reused", "Two task-augmented calls answered with the same taskId: task ids MUST be unique among the receiver's tasks.",
           [unique], init(R4, server_caps=caps) + [task_call(1), created(1, "t1"), task_call(2), created(2, "t1")], [(unique, 6)])


def server_gap():
    """Issue 14's server-side sentences: list changes announced, tool order,
    `cacheScope` across pages, logging declared (2026-07-28)."""
    changed = "mcp.lists.changed-notification"
    def tools_answer(id_, names, rev, **extra):
        body = {"tools": [{"name": n, "inputSchema": {"type": "object"}} for n in names], **extra}
        if rev == R5:
            body.update({"resultType": "complete", "ttlMs": 0, "cacheScope": "public",
                         "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}}})
            body.update(extra)
        return server({"jsonrpc": "2.0", "id": id_, "result": body})
    def tools_list(id_, rev, **params):
        if rev == R5:
            params = {**params, "_meta": meta5()}
        msg = {"jsonrpc": "2.0", "id": id_, "method": "tools/list"}
        if params:
            msg["params"] = params
        return client(msg)
    list_changed = server(note("notifications/tools/list_changed"))
    # 2024-11-05 to 2025-11-25 server/tools §List Changed Notification (SHOULD).
    for rev in HANDSHAKE:
        h = init(rev, server_caps={"tools": {"listChanged": True}})
        vector(rev, "lists", "n_changed-without-notification",
               "tools.listChanged declared; two complete tools/list answers differ and no notifications/tools/list_changed came between them.",
               [changed], h + [tools_list(1, rev), tools_answer(1, ["a"], rev), tools_list(2, rev), tools_answer(2, ["a", "b"], rev)],
               [(changed, 6)])
        vector(rev, "lists", "y_changed-with-notification",
               "tools.listChanged declared; the tools change and notifications/tools/list_changed comes between the two answers.",
               [changed], h + [tools_list(1, rev), tools_answer(1, ["a"], rev), list_changed, tools_list(2, rev), tools_answer(2, ["a", "b"], rev)],
               [])
        vector(rev, "lists", "y_changed-not-declared",
               "tools declared without listChanged: the tools change with no notification, which nothing asks for.",
               [changed], init(rev, server_caps={"tools": {}}) + [tools_list(1, rev), tools_answer(1, ["a"], rev), tools_list(2, rev), tools_answer(2, ["a", "b"], rev)],
               [])
        vector(rev, "lists", "y_pages-not-compared",
               "Two first pages (with nextCursor) differ: a page says nothing about the whole list.",
               [changed], h + [tools_list(1, rev), tools_answer(1, ["a"], rev, nextCursor="c"), tools_list(2, rev), tools_answer(2, ["b"], rev, nextCursor="c")],
               [])
    # 2026-07-28: capabilities from server/discover; the notification is owed
    # to an open subscriptions/listen that asked for tool list changes.
    sinfo = {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}}
    def discover(caps):
        return [client({"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": {"_meta": meta5()}}),
                server({"jsonrpc": "2.0", "id": 0, "result": {
                    "supportedVersions": [R5], "capabilities": caps, "resultType": "complete",
                    "ttlMs": 0, "cacheScope": "public", "_meta": sinfo}})]
    filt = {"toolsListChanged": True}
    sub = {"io.modelcontextprotocol/subscriptionId": 9}
    listen = [client({"jsonrpc": "2.0", "id": 9, "method": "subscriptions/listen", "params": {"notifications": filt, "_meta": meta5()}}),
              server(note("notifications/subscriptions/acknowledged", {"notifications": filt, "_meta": sub}))]
    on_sub = server(note("notifications/tools/list_changed", {"_meta": sub}))
    d = discover({"tools": {"listChanged": True}})
    vector(R5, "lists", "n_changed-without-notification",
           "tools.listChanged declared and a subscription asks for tool list changes; two complete tools/list answers differ with no list_changed on it between them.",
           [changed], d + listen + [tools_list(1, R5), tools_answer(1, ["a"], R5), tools_list(2, R5), tools_answer(2, ["a", "b"], R5)],
           [(changed, 7)])
    vector(R5, "lists", "y_changed-with-notification",
           "The tools change and the subscription gets notifications/tools/list_changed between the two answers.",
           [changed], d + listen + [tools_list(1, R5), tools_answer(1, ["a"], R5), on_sub, tools_list(2, R5), tools_answer(2, ["a", "b"], R5)],
           [])
    vector(R5, "lists", "y_changed-without-subscription",
           "The tools change with no subscription open: the notification goes to subscribed clients only, and the set may vary with each request's authorization.",
           [changed], d + [tools_list(1, R5), tools_answer(1, ["a"], R5), tools_list(2, R5), tools_answer(2, ["a", "b"], R5)],
           [])
    # 2026-07-28 server/tools §Capabilities: deterministic order (SHOULD).
    order = "mcp.r5.tools.deterministic-order"
    t = discover({"tools": {}})
    vector(R5, "lists", "n_tools-reordered",
           "Two complete tools/list answers hold the same tools in another order, with no list change between them.",
           [order], t + [tools_list(1, R5), tools_answer(1, ["a", "b"], R5), tools_list(2, R5), tools_answer(2, ["b", "a"], R5)],
           [(order, 5)])
    vector(R5, "lists", "y_tools-same-order",
           "Two complete tools/list answers hold the same tools in the same order.",
           [order], t + [tools_list(1, R5), tools_answer(1, ["a", "b"], R5), tools_list(2, R5), tools_answer(2, ["a", "b"], R5)],
           [])
    # 2026-07-28 server/utilities/caching §Interaction with Pagination (MUST).
    scope = "mcp.r5.cache.scope-pages"
    vector(R5, "lists", "n_cache-scope-differs-across-pages",
           "The first tools/list page is private; the page its nextCursor reaches is public.",
           [scope], t + [tools_list(1, R5), tools_answer(1, ["a"], R5, nextCursor="p2", cacheScope="private"),
                         tools_list(2, R5, cursor="p2"), tools_answer(2, ["b"], R5, cacheScope="public")],
           [(scope, 5)])
    vector(R5, "lists", "y_cache-scope-same-across-pages",
           "Both pages of one tools/list are private.",
           [scope], t + [tools_list(1, R5), tools_answer(1, ["a"], R5, nextCursor="p2", cacheScope="private"),
                         tools_list(2, R5, cursor="p2"), tools_answer(2, ["b"], R5, cacheScope="private")],
           [])
    # 2026-07-28 server/utilities/logging §Capabilities (MUST).
    logcap = "mcp.r5.logging.capability"
    asked = client({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "t", "_meta": meta5({"io.modelcontextprotocol/logLevel": "info"})}})
    log = server(note("notifications/message", {"level": "info", "data": "x"}))
    vector(R5, "logging", "n_log-without-logging-capability",
           "server/discover declared no logging, then the server logs for a request that asked for it.",
           [logcap], t + [asked, log, server(result(R5, 1))], [(logcap, 3)])
    vector(R5, "logging", "y_log-with-logging-capability",
           "server/discover declared logging; the server logs for a request that asked for it.",
           [logcap], discover({"tools": {}, "logging": {}}) + [asked, log, server(result(R5, 1))], [])

    server_gap_answers()


def server_gap_answers():
    """Issue 14: answers judged against earlier list answers (issued cursors,
    listed prompts and their required arguments, completions, task support)
    and URL-mode elicitation ids."""
    sinfo = {"_meta": {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}}}
    def ask(rev, id_, method, params=None):
        params = dict(params or {})
        if rev == R5:
            params["_meta"] = meta5()
        msg = {"jsonrpc": "2.0", "id": id_, "method": method}
        if params:
            msg["params"] = params
        return client(msg)
    def answer(rev, id_, body, cacheable=False):
        body = dict(body)
        if rev == R5:
            body.update({"resultType": "complete", **sinfo})
            if cacheable:
                body.update({"ttlMs": 0, "cacheScope": "public"})
        return server({"jsonrpc": "2.0", "id": id_, "result": body})
    def error(id_, code, message):
        return server({"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message}})
    def start(rev, caps):
        if rev == R5:
            return [client({"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": {"_meta": meta5()}}),
                    server({"jsonrpc": "2.0", "id": 0, "result": {
                        "supportedVersions": [R5], "capabilities": caps, "resultType": "complete",
                        "ttlMs": 0, "cacheScope": "public", **sinfo}})]
        return init(rev, server_caps=caps)
    # Where the transcript's next event lands: the handshake is 3 events, discover 2.
    def n0(rev):
        return 2 if rev == R5 else 3
    tool = {"name": "a", "inputSchema": {"type": "object"}}
    # server/utilities/pagination §Implementation Guidelines: stable cursors (SHOULD).
    stable = "mcp.pagination.stable-cursor"
    for rev in MCP:
        h = start(rev, {"tools": {}})
        first = [ask(rev, 1, "tools/list"), answer(rev, 1, {"tools": [tool], "nextCursor": "c2"}, cacheable=True),
                 ask(rev, 2, "tools/list", {"cursor": "c2"})]
        vector(rev, "pagination", "n_issued-cursor-refused",
               "The server's own nextCursor, sent back at once, is answered -32602 (Invalid params): the cursor was not stable.",
               [stable], h + first + [error(2, -32602, "Invalid cursor")], [(stable, n0(rev) + 3)])
        vector(rev, "pagination", "y_issued-cursor-followed",
               "The server's nextCursor, sent back, is answered with the next page.",
               [stable], h + first + [answer(rev, 2, {"tools": []}, cacheable=True)], [])
        vector(rev, "pagination", "y_unissued-cursor-refused",
               "A cursor the server never issued is answered -32602: that is the answer mcp.error.invalid-cursor asks for, not an unstable cursor.",
               [stable], h + [ask(rev, 1, "tools/list", {"cursor": "never"}), error(1, -32602, "Invalid cursor")], [])
    # server/prompts §Error Handling and §Implementation Considerations (SHOULD).
    pget = "mcp.prompts.get-invalid-params"
    listed = {"prompts": [{"name": "review", "arguments": [{"name": "code", "required": True}, {"name": "style"}]}]}
    got = {"messages": [{"role": "user", "content": {"type": "text", "text": "Review x"}}]}
    for rev in MCP:
        h = start(rev, {"prompts": {"listChanged": True}}) + [ask(rev, 1, "prompts/list"), answer(rev, 1, listed, cacheable=True)]
        at = n0(rev) + 3
        vector(rev, "prompts", "n_unknown-prompt-answered",
               "prompts/get for a prompt the complete prompts/list does not hold is answered with a result, not -32602.",
               [pget], h + [ask(rev, 2, "prompts/get", {"name": "nope"}), answer(rev, 2, got)], [(pget, at)])
        vector(rev, "prompts", "n_missing-argument-answered",
               "prompts/get without the argument prompts/list marks required is answered with a result: the arguments were not validated.",
               [pget], h + [ask(rev, 2, "prompts/get", {"name": "review", "arguments": {"style": "terse"}}), answer(rev, 2, got)], [(pget, at)])
        vector(rev, "prompts", "n_unknown-prompt-other-error",
               "prompts/get for an unlisted prompt is answered -32603 (Internal error) rather than -32602 (Invalid params).",
               [pget], h + [ask(rev, 2, "prompts/get", {"name": "nope"}), error(2, -32603, "Internal error")], [(pget, at)])
        vector(rev, "prompts", "y_unknown-prompt-invalid-params",
               "prompts/get for an unlisted prompt is answered -32602 (Invalid params).",
               [pget], h + [ask(rev, 2, "prompts/get", {"name": "nope"}), error(2, -32602, "Unknown prompt")], [])
        vector(rev, "prompts", "y_listed-prompt-with-arguments",
               "prompts/get for the listed prompt with its required argument is answered with the prompt.",
               [pget], h + [ask(rev, 2, "prompts/get", {"name": "review", "arguments": {"code": "x"}}), answer(rev, 2, got)], [])
        if rev == R5:
            filt = {"promptsListChanged": True}
            sub = {"io.modelcontextprotocol/subscriptionId": 9}
            changed = [client({"jsonrpc": "2.0", "id": 9, "method": "subscriptions/listen", "params": {"notifications": filt, "_meta": meta5()}}),
                       server(note("notifications/subscriptions/acknowledged", {"notifications": filt, "_meta": sub})),
                       server(note("notifications/prompts/list_changed", {"_meta": sub}))]
        else:
            changed = [server(note("notifications/prompts/list_changed"))]
        vector(rev, "prompts", "y_list-changed-since",
               "The prompt list changed (notifications/prompts/list_changed) after it was listed: an unlisted name may be new.",
               [pget], h + changed + [ask(rev, 2, "prompts/get", {"name": "new"}), answer(rev, 2, got)], [])
    # server/utilities/completion §Error Handling (SHOULD), 2025-03-26 on.
    comp = "mcp.completion.standard-errors"
    cparams = lambda name: {"ref": {"type": "ref/prompt", "name": name}, "argument": {"name": "code", "value": "x"}}
    for rev in [R2, R3, R4, R5]:
        h = start(rev, {"prompts": {}})
        # Before 2026-07-28 the client breaks the handshake's capabilities by asking at all.
        respect = [] if rev == R5 else [("mcp.lifecycle.operation-respect-r1" if rev == R2 else "mcp.lifecycle.operation-respect", n0(rev))]
        vector(rev, "completion", "n_undeclared-other-error",
               "completion/complete to a server that declared no completions is answered -32602 rather than -32601 (Capability not supported).",
               [comp] + [r for r, _ in respect], h + [ask(rev, 1, "completion/complete", cparams("review")), error(1, -32602, "Invalid params")],
               respect + [(comp, n0(rev) + 1)])
        vector(rev, "completion", ("y" if rev == R5 else "n") + "_undeclared-method-not-found",
               "completion/complete to a server that declared no completions is answered -32601 (Capability not supported)"
               + ("." if rev == R5 else "; the client broke the declared capabilities by asking, the server's answer is the right one."),
               [comp] + [r for r, _ in respect], h + [ask(rev, 1, "completion/complete", cparams("review")), error(1, -32601, "Method not found")],
               respect)
        h = start(rev, {"prompts": {}, "completions": {}}) + [ask(rev, 1, "prompts/list"), answer(rev, 1, listed, cacheable=True)]
        vector(rev, "completion", "n_unknown-prompt-answered",
               "completion/complete for a prompt the complete prompts/list does not hold is answered with a result, not -32602.",
               [comp], h + [ask(rev, 2, "completion/complete", cparams("nope")), answer(rev, 2, {"completion": {"values": []}})],
               [(comp, n0(rev) + 3)])
        vector(rev, "completion", "y_unknown-prompt-invalid-params",
               "completion/complete for an unlisted prompt is answered -32602 (Invalid params).",
               [comp], h + [ask(rev, 2, "completion/complete", cparams("nope")), error(2, -32602, "Unknown prompt")], [])
    # 2025-11-25 basic/utilities/tasks §Tool-Level Negotiation.
    forbidden, required = "mcp.tasks.tool-forbidden", "mcp.tasks.tool-required"
    h = init(R4, server_caps={"tools": {}, "tasks": {"requests": {"tools": {"call": {}}}}}) + [
        client({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        server({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
            {"name": "slow", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "required"}},
            {"name": "quick", "inputSchema": {"type": "object"}}]}})]
    plain = client({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "slow", "arguments": {}}})
    as_task = client({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "quick", "arguments": {}, "task": {"ttl": 60000}}})
    vector(R4, "tasks", "n_required-called-plainly",
           "A tool listed with taskSupport \"required\" is called without a task and answered with a result, not -32601.",
           [required], h + [plain, server({"jsonrpc": "2.0", "id": 2, "result": {"content": []}})], [(required, 6)])
    vector(R4, "tasks", "y_required-called-plainly-refused",
           "A tool listed with taskSupport \"required\" is called without a task and answered -32601 (Method not found).",
           [required], h + [plain, error(2, -32601, "Method not found")], [])
    vector(R4, "tasks", "n_forbidden-called-as-task",
           "A tool listed without taskSupport is called as a task and answered -32602 rather than -32601 (Method not found).",
           [forbidden], h + [as_task, error(2, -32602, "Invalid params")], [(forbidden, 6)])
    vector(R4, "tasks", "y_forbidden-called-as-task-refused",
           "A tool listed without taskSupport is called as a task and answered -32601 (Method not found).",
           [forbidden], h + [as_task, error(2, -32601, "Method not found")], [])
    # 2025-11-25 client/elicitation §Completion Notifications for URL Mode Elicitation (MUST).
    known = "mcp.elicitation.complete-known-id"
    h = init(R4, client_caps={"elicitation": {"url": {}}}) + [
        server({"jsonrpc": "2.0", "id": "e", "method": "elicitation/create", "params": {
            "mode": "url", "message": "Sign in", "url": "https://example.com/login", "elicitationId": "e-1"}}),
        client({"jsonrpc": "2.0", "id": "e", "result": {"action": "accept"}})]
    vector(R4, "elicitation", "y_complete-names-its-elicitation",
           "notifications/elicitation/complete names the URL-mode elicitation the server started in this session.",
           [known], h + [server(note("notifications/elicitation/complete", {"elicitationId": "e-1"}))], [])
    # 2026-07-28 basic/transports/stdio §Cancellation: no further messages (MUST NOT).
    further, should = "mcp.r5.stdio.cancel-no-further", "mcp.cancel.receiver-should"
    vector(R5, "cancel", "n_answered-after-cancellation-read",
           "The client cancels request 1, then sends request 2; the server answers 2, then still answers 1: it had read the cancellation.",
           [further, should], [client(call(R5, 1)), cancel(1), client(call(R5, 2)), server(result(R5, 2)), server(result(R5, 1))],
           [(further, 4), (should, 4)])
    vector(R5, "cancel", "y_answer-crossing-cancellation",
           "The server's answer to request 1 follows its cancellation with nothing between: it may have crossed it (reported at SHOULD only).",
           [further, should], [client(call(R5, 1)), cancel(1), server(result(R5, 1))], [(should, 2)])
    # server/tools §Output Schema (MUST), 2025-06-18 on.
    conform = "mcp.tools.output-schema-conform"
    weather = {"name": "weather", "inputSchema": {"type": "object"}, "outputSchema": {
        "type": "object", "properties": {"temperature": {"type": "number"}}, "required": ["temperature"]}}
    def called(rev, structured):
        body = {"content": [{"type": "text", "text": json.dumps(structured)}]}
        if structured is not None:
            body["structuredContent"] = structured
        return answer(rev, 2, body)
    for rev in [R3, R4, R5]:
        ho = start(rev, {"tools": {}}) + [ask(rev, 1, "tools/list"), answer(rev, 1, {"tools": [weather]}, cacheable=True),
                                          ask(rev, 2, "tools/call", {"name": "weather", "arguments": {}})]
        at = n0(rev) + 3
        vector(rev, "tools", "y_structured-content-conforms",
               "tools/call of a tool listed with an outputSchema returns structuredContent that conforms to it.",
               [conform], ho + [called(rev, {"temperature": 22.5})], [])
        vector(rev, "tools", "n_structured-content-breaks-schema",
               "tools/call returns structuredContent whose temperature is a string; the outputSchema says number.",
               [conform], ho + [called(rev, {"temperature": "warm"})], [(conform, at)])
        vector(rev, "tools", "n_structured-content-missing",
               "tools/call of a tool listed with an outputSchema returns no structuredContent.",
               [conform], ho + [called(rev, None)], [(conform, at)])
    # The same, judged with the jsonschema crate (harness::schema_check): `$ref`,
    # bounds and composition are judged; the dialect is `$schema`'s, else
    # 2020-12 from 2025-11-25 (basic/index §Schema Dialect), and 2025-06-18,
    # naming none, refuses only what draft-07 and 2020-12 both refuse. A remote
    # `$ref` is never fetched: the call is not judged (not observed).
    def listed(rev, schema):
        tool = dict(weather, outputSchema=schema)
        return start(rev, {"tools": {}}) + [ask(rev, 1, "tools/list"), answer(rev, 1, {"tools": [tool]}, cacheable=True),
                                            ask(rev, 2, "tools/call", {"name": "weather", "arguments": {}})]
    by_ref = {"type": "object", "$defs": {"celsius": {"type": "number", "minimum": -273.15}},
              "properties": {"temperature": {"$ref": "#/$defs/celsius"}}, "required": ["temperature"]}
    remote = {"type": "object", "properties": {"temperature": {"$ref": "https://example.com/schemas/celsius.json"}}}
    paired = {"type": "object", "properties": {"low": {"type": "number"}, "high": {"type": "number"}},
              "dependentRequired": {"low": ["high"]}}
    for rev in [R3, R4, R5]:
        at = n0(rev) + 3
        vector(rev, "tools", "y_structured-content-conforms-by-ref",
               "The outputSchema reaches its temperature through a local `$ref` with a minimum; the structuredContent meets it.",
               [conform], listed(rev, by_ref) + [called(rev, {"temperature": 21.0})], [])
        vector(rev, "tools", "n_structured-content-breaks-ref",
               "The outputSchema's temperature is a local `$ref` to a number of at least -273.15; the structuredContent says -300.",
               [conform], listed(rev, by_ref) + [called(rev, {"temperature": -300})], [(conform, at)])
        vector(rev, "tools", "i_structured-content-remote-ref",
               "The outputSchema's temperature is a `$ref` to https://example.com/…: never fetched, so the structuredContent is not judged (not observed), neither passed nor failed.",
               [conform], listed(rev, remote) + [called(rev, {"temperature": "warm"})], [])
        if rev == R3:
            vector(rev, "tools", "y_structured-content-no-default-dialect",
                   "2025-06-18 names no default dialect: `dependentRequired` (2020-12 only) is ignored by draft-07, so a structuredContent with low and no high is not a certain breach.",
                   [conform], listed(rev, paired) + [called(rev, {"low": 1})], [])
        else:
            vector(rev, "tools", "n_structured-content-default-dialect",
                   "No `$schema`: the schema is 2020-12 (basic/index §Schema Dialect), whose `dependentRequired` makes high required with low; the structuredContent has low only.",
                   [conform], listed(rev, paired) + [called(rev, {"low": 1})], [(conform, at)])
    # 2026-07-28 basic/patterns/mrtr §Error Handling: missing input asked again (SHOULD).
    reasked = "mcp.r5.mrtr.missing-input-reasked"
    caps = {"io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}}
    confirm = {"confirm": {"method": "elicitation/create", "params": {
        "message": "Deploy?", "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}}}
    def needing(id_):
        return server({"jsonrpc": "2.0", "id": id_, "result": {
            "resultType": "input_required", "inputRequests": confirm, "requestState": "s1", **sinfo}})
    first = [client(call(R5, 1, meta=caps)), needing(1)]
    retry = client(call(R5, 2, meta=caps, params={"inputResponses": {}, "requestState": "s1"}))
    vector(R5, "mrtr", "n_incomplete-retry-refused",
           "The retry leaves out the `confirm` input the server asked for, and the server answers -32602 rather than asking again.",
           [reasked], first + [retry, error(2, -32602, "Missing input")], [(reasked, 3)])
    vector(R5, "mrtr", "y_incomplete-retry-asked-again",
           "The retry leaves out the `confirm` input; the server answers with a new InputRequiredResult asking for it again.",
           [reasked], first + [retry, needing(2)], [])
    full = client(call(R5, 2, meta=caps, params={"inputResponses": {"confirm": {"action": "accept", "content": {"ok": True}}}, "requestState": "s1"}))
    vector(R5, "mrtr", "y_complete-retry-refused",
           "The retry answers every input asked for; an error then is about something else, not missing input.",
           [reasked], first + [full, error(2, -32602, "Invalid params")], [])
    ignored = "mcp.r5.mrtr.extra-input-ignored"
    accept = {"action": "accept", "content": {"ok": True}}
    more = client(call(R5, 2, meta=caps, params={"inputResponses": {"confirm": accept, "extra": accept}, "requestState": "s1"}))
    vector(R5, "mrtr", "n_extra-input-refused",
           "The retry answers the `confirm` input and adds an `extra` one nobody asked for; the server refuses it rather than ignoring the extra.",
           [ignored], first + [more, error(2, -32602, "Unexpected input")], [(ignored, 3)])
    vector(R5, "mrtr", "y_extra-input-ignored",
           "The retry adds an `extra` input nobody asked for; the server ignores it and completes the call.",
           [ignored], first + [more, server(result(R5, 2))], [])
    validated = "mcp.r5.mrtr.input-responses-validated"
    garbled = client(call(R5, 2, meta=caps, params={"inputResponses": {"confirm": "yes"}, "requestState": "s1"}))
    vector(R5, "mrtr", "n_garbled-input-accepted",
           "The retry's `confirm` input is a string, not an ElicitResult, and the server completes the call as if it were valid.",
           [validated], first + [garbled, server(result(R5, 2))], [(validated, 3)])
    vector(R5, "mrtr", "y_garbled-input-refused",
           "The retry's `confirm` input is a string, not an ElicitResult; the server refuses it.",
           [validated], first + [garbled, error(2, -32602, "Invalid input response")], [])
    vector(R5, "mrtr", "y_valid-input-accepted",
           "The retry's `confirm` input is an ElicitResult; the server completes the call.",
           [validated], first + [full, server(result(R5, 2))], [])
    vector(R4, "elicitation", "n_complete-names-unknown-elicitation",
           "notifications/elicitation/complete names an elicitation id this session never saw.",
           [known], h + [server(note("notifications/elicitation/complete", {"elicitationId": "e-2"}))], [(known, 5)])


def task_gap():
    """Issue 14, 2025-11-25 tasks: the capability, cancelling and retrieving
    after the end, and progress across a task's lifetime."""
    caps = {"tools": {}, "tasks": {"requests": {"tools": {"call": {}}}}}
    declared, asked = "mcp.tasks.capability-declared", "mcp.tasks.request-capability"
    cancel_rule, blocks = "mcp.tasks.cancel-terminal-rejected", "mcp.tasks.result-blocks"
    success, lifetime = "mcp.tasks.result-completed-success", "mcp.progress.task-token-lifetime"
    active = "mcp.progress.active-token-only"

    def task(task_id, status):
        return {"taskId": task_id, "status": status, "createdAt": "2025-11-25T10:00:00Z",
                "lastUpdatedAt": "2025-11-25T10:00:00Z", "ttl": 60000}

    def task_call(id_, token=None):
        p = {"name": "job", "arguments": {}, "task": {"ttl": 60000}}
        if token is not None:
            p["_meta"] = {"progressToken": token}
        return client({"jsonrpc": "2.0", "id": id_, "method": "tools/call", "params": p})

    def created(id_, task_id):
        return server({"jsonrpc": "2.0", "id": id_, "result": {"task": task(task_id, "working")}})

    def ask(id_, method, task_id):
        return client({"jsonrpc": "2.0", "id": id_, "method": method, "params": {"taskId": task_id}})

    def got(id_, task_id, status):
        body = task(task_id, status)
        if status == "failed":
            body["statusMessage"] = "the tool failed"
        return server({"jsonrpc": "2.0", "id": id_, "result": body})

    def error(id_, code):
        return server({"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": "no"}})

    def tool_result(id_):
        return server({"jsonrpc": "2.0", "id": id_, "result": {"content": [], "_meta": {
            "io.modelcontextprotocol/related-task": {"taskId": "t1"}}}})

    def progress(token, value):
        return server(note("notifications/progress", {"progressToken": token, "progress": value}))

    h = init(R4, server_caps=caps)
    plain = init(R4, server_caps={"tools": {}})
    vector(R4, "tasks", "y_task-created-when-declared", "The server declared tasks.requests.tools.call, so a task-augmented call may create a task.",
           [declared, asked], h + [task_call(1), created(1, "t1")], [])
    vector(R4, "tasks", "y_undeclared-task-processed-normally", "The server declared no tasks: it processes a task-augmented call normally (the client still SHOULD NOT have asked).",
           [declared, asked], plain + [task_call(1), tool_result(1)], [(asked, 3)])
    vector(R4, "tasks", "n_task-created-undeclared", "A CreateTaskResult from a server whose capabilities lack tasks.requests.tools.call: it MUST process the request normally.",
           [declared], plain + [task_call(1), created(1, "t1")], [(asked, 3), (declared, 4)])
    vector(R4, "tasks", "n_sampling-task-undeclared", "The server sends sampling/createMessage as a task to a client that declared no tasks.requests.sampling.createMessage.",
           [asked], init(R4, client_caps={"sampling": {}}) + [server({"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage", "params": {
               "messages": [], "maxTokens": 1, "task": {"ttl": 60000}}})], [(asked, 3)])
    vector(R4, "tasks", "y_cancel-terminal-rejected", "tasks/cancel of a task already completed is rejected with -32602.",
           [cancel_rule], h + [task_call(1), created(1, "t1"), ask(2, "tasks/get", "t1"), got(2, "t1", "completed"),
                               ask(3, "tasks/cancel", "t1"), error(3, -32602)], [])
    vector(R4, "tasks", "n_cancel-terminal-accepted", "tasks/cancel of a task already completed answered with a result: it MUST be rejected with -32602.",
           [cancel_rule], h + [task_call(1), created(1, "t1"), ask(2, "tasks/get", "t1"), got(2, "t1", "completed"),
                               ask(3, "tasks/cancel", "t1"), got(3, "t1", "completed")],
           [(cancel_rule, 8), ("mcp.tasks.cancel-result-cancelled", 8)])
    vector(R4, "tasks", "n_cancel-terminal-wrong-code", "tasks/cancel of a task already failed answered with -32603, not -32602.",
           [cancel_rule], h + [task_call(1), created(1, "t1"), ask(2, "tasks/get", "t1"), got(2, "t1", "failed"),
                               ask(3, "tasks/cancel", "t1"), error(3, -32603)], [(cancel_rule, 8)])
    vector(R4, "tasks", "y_result-after-end", "tasks/result answered once the task is completed, with the tool's result.",
           [blocks, success], h + [task_call(1), created(1, "t1"), ask(2, "tasks/result", "t1"),
                                   server(note("notifications/tasks/status", task("t1", "completed"))), tool_result(2),
                                   ask(3, "tasks/get", "t1"), got(3, "t1", "completed")], [])
    vector(R4, "tasks", "n_result-before-end", "tasks/result answered, then tasks/get shows the task still working: the answer MUST wait for a terminal status.",
           [blocks], h + [task_call(1), created(1, "t1"), ask(2, "tasks/result", "t1"), tool_result(2),
                          ask(3, "tasks/get", "t1"), got(3, "t1", "working")], [(blocks, 8)])
    vector(R4, "tasks", "y_result-failed-error", "A failed task's tasks/result may be the underlying JSON-RPC error.",
           [success], h + [task_call(1), created(1, "t1"), ask(2, "tasks/get", "t1"), got(2, "t1", "failed"),
                           ask(3, "tasks/result", "t1"), error(3, -32603)], [])
    vector(R4, "tasks", "n_result-completed-error", "A completed task's tasks/result answered with an error: it MUST return the successful result.",
           [success], h + [task_call(1), created(1, "t1"), ask(2, "tasks/get", "t1"), got(2, "t1", "completed"),
                           ask(3, "tasks/result", "t1"), error(3, -32603)], [(success, 8)])
    vector(R4, "progress", "y_task-progress-after-create", "Progress on the task-augmented request's token after its CreateTaskResult, until the task completes.",
           [lifetime, active], h + [task_call(1, token="p1"), created(1, "t1"), progress("p1", 1), progress("p1", 2),
                                    server(note("notifications/tasks/status", task("t1", "completed")))], [])
    vector(R4, "progress", "n_task-progress-after-end", "Progress on a task's token after the task was seen completed: it MUST stop.",
           [lifetime], h + [task_call(1, token="p1"), created(1, "t1"), progress("p1", 1),
                            ask(2, "tasks/get", "t1"), got(2, "t1", "completed"), progress("p1", 2)], [(lifetime, 8)])
    vector(R4, "progress", "n_task-progress-other-token", "Progress for a task on a token its request did not carry: the original token MUST be used.",
           [lifetime, active], h + [task_call(1, token="p1"), created(1, "t1"), progress("p2", 1)], [(active, 5)])
    listed = "mcp.tasks.list-retrievable"
    caps_list = {"tools": {}, "tasks": {"list": {}, "requests": {"tools": {"call": {}}}}}
    hl = init(R4, server_caps=caps_list)

    def created_ttl(id_, task_id, ttl):
        body = task(task_id, "working")
        body["ttl"] = ttl
        return server({"jsonrpc": "2.0", "id": id_, "result": {"task": body}})

    def listing(id_, *ids):
        return server({"jsonrpc": "2.0", "id": id_, "result": {"tasks": [task(i, "working") for i in ids]}})

    def timed(entries, times):
        return [dict(e, t=t) for e, t in zip(entries, times)]
    list_req = client({"jsonrpc": "2.0", "id": 3, "method": "tasks/list"})
    vector(R4, "tasks", "y_list-holds-retrieved", "A task retrieved by tasks/get (ttl null) is in the complete tasks/list answer.",
           [listed], hl + [task_call(1), created_ttl(1, "t1", None), ask(2, "tasks/get", "t1"), got(2, "t1", "working"),
                           list_req, listing(3, "t1")], [])
    vector(R4, "tasks", "n_list-omits-retrieved", "A task with an unlimited ttl retrieved by tasks/get, then missing from a tasks/list answer without nextCursor.",
           [listed], hl + [task_call(1), created_ttl(1, "t1", None), ask(2, "tasks/get", "t1"), got(2, "t1", "working"),
                           list_req, listing(3)], [(listed, 8)])
    vector(R4, "tasks", "y_list-omits-expired", "A task with a 60 s ttl retrieved, then missing from tasks/list 120 s after its request: it may have expired.",
           [listed], timed(hl + [task_call(1), created(1, "t1"), ask(2, "tasks/get", "t1"), got(2, "t1", "working"),
                                 list_req, listing(3)], [0, 0, 0, 1, 1, 2, 2, 121, 121])[:], [])
    vector(R4, "tasks", "n_list-omits-live", "A task with a 60 s ttl retrieved, then missing from tasks/list 2 s after its request: it cannot have expired.",
           [listed], timed(hl + [task_call(1), created(1, "t1"), ask(2, "tasks/get", "t1"), got(2, "t1", "working"),
                                 list_req, listing(3)], [0, 0, 0, 1, 1, 2, 2, 3, 3]), [(listed, 8)])
    vector(R4, "tasks", "y_list-first-page-only", "A first tasks/list page with nextCursor need not hold every task.",
           [listed], hl + [task_call(1), created_ttl(1, "t1", None), ask(2, "tasks/get", "t1"), got(2, "t1", "working"),
                           list_req, server({"jsonrpc": "2.0", "id": 3, "result": {"tasks": [], "nextCursor": "c2"}})], [])
    poll = "mcp.tasks.poll-interval"

    def got_poll(id_, status, ms):
        return server({"jsonrpc": "2.0", "id": id_, "result": dict(task("t1", status), pollInterval=ms)})
    polls = h + [task_call(1), created(1, "t1"), ask(2, "tasks/get", "t1"), got_poll(2, "working", 5000),
                 ask(3, "tasks/get", "t1"), got_poll(3, "completed", 5000)]
    vector(R4, "tasks", "y_poll-respects-interval", "The second tasks/get comes 6 s after an answer suggesting polls 5 s apart.",
           [poll], timed(polls, [0, 0, 0, 1, 1, 2, 2, 8, 8]), [])
    vector(R4, "tasks", "n_poll-too-soon", "The second tasks/get comes 1 s after an answer suggesting polls 5 s apart: requestors SHOULD respect pollInterval.",
           [poll], timed(polls, [0, 0, 0, 1, 1, 2, 2, 3, 3]), [(poll, 7)])
    by_tasks = "mcp.cancel.task-uses-tasks-cancel"
    vector(R4, "cancel", "y_task-cancelled-by-tasks-cancel", "A task-augmented call's task is cancelled with tasks/cancel.",
           [by_tasks], h + [task_call(1), created(1, "t1"), ask(2, "tasks/cancel", "t1"), got(2, "t1", "cancelled")], [])
    vector(R4, "cancel", "n_task-cancelled-by-notification", "notifications/cancelled for a task-augmented call answered with a CreateTaskResult: tasks/cancel MUST be used.",
           [by_tasks], h + [task_call(1), created(1, "t1"), client(note("notifications/cancelled", {"requestId": 1}))], [(by_tasks, 5)])
    id_required = "mcp.cancel.request-id-required"
    vector(R4, "cancel", "y_cancel-with-request-id", "notifications/cancelled names the request it cancels.",
           [id_required], h + [client({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
                               client(note("notifications/cancelled", {"requestId": 1, "reason": "late"}))], [])
    vector(R4, "cancel", "n_cancel-without-request-id", "notifications/cancelled without requestId: it MUST be provided for non-task requests, and tasks are not cancelled by it.",
           [id_required], h + [client({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
                               client(note("notifications/cancelled", {"reason": "late"}))], [(id_required, 4)])
    vector(R4, "cancel", "n_task-request-in-flight-cancelled", "notifications/cancelled for a task-augmented call still in flight: tasks/cancel MUST be used.",
           [by_tasks], h + [task_call(1), client(note("notifications/cancelled", {"requestId": 1}))], [(by_tasks, 4)])


def render(doc):
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def client_gap():
    """Issue 14, the client's side of a 2026-07-28 retry: input responses
    against the input requests they answer (client/sampling §Tool Choice
    Modes, client/roots §Root) and a `requestState` used by another request
    (basic/patterns/mrtr §Client Requirements (Basic Workflow) 4)."""
    sinfo = {"_meta": {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}}}
    none_rule, required_rule = "mcp.r5.sampling.tool-choice-none", "mcp.r5.sampling.tool-choice-required"
    roots_rule, only = "mcp.r5.roots.file-uri", "mcp.r5.mrtr.retry-only"
    caps = {"io.modelcontextprotocol/clientCapabilities": {"sampling": {"tools": {}}, "roots": {}}}
    tool = {"name": "lookup", "description": "Look a word up", "inputSchema": {"type": "object"}}

    def asking(id_, requests, state="s1"):
        return server({"jsonrpc": "2.0", "id": id_, "result": {
            "resultType": "input_required", "inputRequests": requests, "requestState": state, **sinfo}})

    def sample(mode, messages=None):
        return {"ask": {"method": "sampling/createMessage", "params": {
            "messages": messages or [{"role": "user", "content": {"type": "text", "text": "Define MCP"}}],
            "maxTokens": 100, "tools": [tool], "toolChoice": {"mode": mode}}}}

    text = {"role": "assistant", "content": {"type": "text", "text": "A protocol."}, "model": "m", "stopReason": "endTurn"}
    used = {"role": "assistant", "content": [{"type": "tool_use", "id": "u1", "name": "lookup", "input": {"q": "MCP"}}],
            "model": "m", "stopReason": "toolUse"}

    def retry(responses, id_=2, state="s1", params=None):
        p = {"inputResponses": responses, "requestState": state}
        p.update(params or {})
        return client(call(R5, id_, meta=caps, params=p))

    def opened(requests):
        return [client(call(R5, 1, meta=caps)), asking(1, requests)]

    vector(R5, "mrtr", "n_tool-choice-none-answered-with-tool-use",
           "The server asks for a sampling with toolChoice none; the client's input response uses a tool.",
           [none_rule], opened(sample("none")) + [retry({"ask": used})], [(none_rule, 2)])
    vector(R5, "mrtr", "y_tool-choice-none-answered-with-text",
           "The server asks for a sampling with toolChoice none; the client's input response is text.",
           [none_rule], opened(sample("none")) + [retry({"ask": text}), server(result(R5, 2))], [])
    vector(R5, "mrtr", "n_tool-choice-required-answered-with-text",
           "The server asks for a sampling with toolChoice required and no tool used before; the client's input response is text only.",
           [required_rule], opened(sample("required")) + [retry({"ask": text})], [(required_rule, 2)])
    history = [{"role": "user", "content": {"type": "text", "text": "Define MCP"}},
               {"role": "assistant", "content": [{"type": "tool_use", "id": "u1", "name": "lookup", "input": {"q": "MCP"}}]},
               {"role": "user", "content": [{"type": "tool_result", "toolUseId": "u1", "content": [{"type": "text", "text": "Model Context Protocol"}]}]}]
    vector(R5, "mrtr", "y_tool-choice-required-tool-used-before",
           "toolChoice required, and the history already holds the model's tool use: a text answer completes the loop.",
           [required_rule], opened(sample("required", history)) + [retry({"ask": text})], [])
    vector(R5, "mrtr", "y_tool-choice-required-answered-with-tool-use",
           "toolChoice required; the client's input response uses a tool.",
           [required_rule], opened(sample("required")) + [retry({"ask": used})], [])
    roots = {"where": {"method": "roots/list"}}
    vector(R5, "mrtr", "n_roots-input-response-https-uri",
           "The server asks for the client's roots; the input response lists an https:// root: a root MUST be a file:// URI.",
           [roots_rule], opened(roots) + [retry({"where": {"roots": [{"uri": "https://example.com/repo"}]}})], [(roots_rule, 2)])
    vector(R5, "mrtr", "y_roots-input-response-file-uri",
           "The server asks for the client's roots; the input response lists a file:// root.",
           [roots_rule], opened(roots) + [retry({"where": {"roots": [{"uri": "file:///home/user/project", "name": "project"}]}}),
                                          server(result(R5, 2))], [])
    other = {"jsonrpc": "2.0", "id": 3, "method": "prompts/get", "params": {
        "name": "p", "_meta": meta5(caps), "requestState": "s1"}}
    vector(R5, "mrtr", "n_request-state-used-by-another-request",
           "A prompts/get carries the requestState the server gave to a tools/call: it affects only that call's retry.",
           [only], opened(roots) + [client(other)], [(only, 2)])
    vector(R5, "mrtr", "y_request-state-echoed-by-its-retry",
           "The retry of the tools/call echoes its requestState.",
           [only], opened(roots) + [retry({"where": {"roots": []}}), server(result(R5, 2))], [])


def main():
    build()
    gap()
    server_gap()
    task_gap()
    client_gap()
    check = "--check" in sys.argv[1:]
    stale = []
    wanted = {HERE / p for p in VECTORS}
    for rel, doc in sorted(VECTORS.items()):
        path = HERE / rel
        text = render(doc)
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(str(rel))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    extra = [p for p in HERE.rglob("*.json") if p not in wanted]
    if check:
        stale += [str(p.relative_to(HERE)) + " (not generated)" for p in extra]
        if stale:
            print("session vectors out of date; run gen_sessions.py:\n  " + "\n  ".join(stale))
            return 1
        print(f"{len(VECTORS)} session vectors up to date")
        return 0
    for p in extra:
        p.unlink()
    print(f"wrote {len(VECTORS)} session vectors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
