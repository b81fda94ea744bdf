#!/usr/bin/env python3
"""Writes the golden vectors under conformance/vectors/ (one JSON file per vector).

The vectors are data; this script only keeps them consistent (the same
`initialize`, the same `_meta`, one level and one reference per rule). It reads
the rule catalogue (id, level, reference per revision) from catalogue.json, which
the vector runner regenerates from the rule model (BLESS=1), so a vector names a
rule exactly as the model does; the runner checks that too.

    python3 conformance/vectors/generate.py          # rewrite the vectors
    python3 conformance/vectors/generate.py --check  # exit 1 if that would change a file

Verdicts (JSONTestSuite style, in the file name): `y_` must be accepted, `n_` must be
refused (a refusal or a mandatory violation), `i_` is left open by the spec, and
the vector records the ambiguity with both sides quoted. Ambiguity references
(A1, A2, ...) are the research catalogue's (section 4 of the rule notes, also
cited in harness/src/rules/catalogue.rs).
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CATALOGUE_FILE = os.path.join(HERE, "catalogue.json")
REVS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
R5 = "2026-07-28"


def idx(rev):
    return REVS.index(rev)


# ---------------------------------------------------------------- the catalogue


def load_catalogue():
    """id -> {level, cites: {profile: reference}} as the rule model writes it."""
    try:
        with open(CATALOGUE_FILE, encoding="utf-8") as f:
            return {r["id"]: r for r in json.load(f)["rules"]}
    except FileNotFoundError:
        sys.exit(f"{CATALOGUE_FILE} missing; run `BLESS=1 cargo test -p wirecheck --test vectors` first")


CATALOGUE = load_catalogue()


# ---------------------------------------------------------------- vector records

VECTORS = {}
NOTHING = "nothing"


def err(*codes, id=None, data=()):
    body = {"codes": list(codes)}
    if id is not None:
        body["id"] = id
    if data:
        body["data_required"] = list(data)
    return {"error": body}


def res(*required, id=None, example=None):
    body = {}
    if id is not None:
        body["id"] = id
    if required:
        body["required"] = list(required)
    if example is not None:
        body["example"] = example
    return {"result": body}


def batch(*answers):
    return {"batch": list(answers)}


def text(frame):
    if isinstance(frame, str):
        return frame
    return json.dumps(frame, separators=(",", ":"), ensure_ascii=False)


def vec(path, description, frame, *, rules=(), refused=None, violations=(), advisories=(),
        answer=None, basis=None, needs=None, reply=None, reply_violations=None, reply_advisories=(),
        ambiguity=None, sender="client", frame_hex=None):
    """One vector. `path` is `<folder>/<verdict>_<slug>`; `refused` is (rule, pointer).

    `basis` says what mandates `answer`: `must(rule)` (the rule and its level go
    into the file as `mandated_by`) or `conv(why)`. Left out, it is derived
    (see `derive_basis`); a vector whose answer fits no derivation stops the
    generator. `needs` (see `derive_needs`) is written as given or derived."""
    assert path not in VECTORS, path
    profile = "jsonrpc-2.0" if path.startswith("jsonrpc-2.0/") else path.split("/")[1]
    parsed = parse(frame)
    if answer is not None and profile == R5:
        answer = r5_answer(parsed, answer)
    if answer is not None and basis is None:
        basis = derive_basis(path, profile, parsed, answer, refused)
    if answer is not None and needs is None:
        needs = derive_needs(parsed, answer, basis, profile)
    ids = list(rules)
    if refused:
        # A refusal is one violation at its rule's level: mandatory for most, an
        # advisory where the text is a SHOULD or a MAY (duplicate names, depth).
        if CATALOGUE[refused[0]]["level"] in ("MUST", "MUST NOT"):
            violations = [refused[0]]
        else:
            violations, advisories = [], [refused[0]]
    mandating = [basis[1]] if basis and basis[0] == "rule" else []
    for rid in list(violations) + list(advisories) + list(reply_violations or []) + list(reply_advisories) + mandating:
        if rid not in ids:
            ids.append(rid)
    entries = []
    for rid in ids:
        if rid not in CATALOGUE:
            sys.exit(f"{path}: rule `{rid}` is not in the catalogue")
        rule = CATALOGUE[rid]
        if profile not in rule["cites"]:
            sys.exit(f"{path}: rule `{rid}` does not apply to {profile}")
        entries.append({"id": rid, "level": rule["level"], "spec": rule["cites"][profile]})
    v = {"description": description, "profile": profile, "from": sender}
    if frame_hex is not None:
        v["frame_hex"] = frame_hex
    else:
        v["frame"] = text(frame)
    v["rules"] = entries
    v["codec"] = {"refuses": {"rule": refused[0], "pointer": refused[1]}} if refused else "lifts"
    v["violations"] = list(violations)
    if advisories:
        v["advisories"] = list(advisories)
    if answer is not None:
        v["answer"] = answer
        if basis[0] == "rule":
            v["mandated_by"] = {"rule": basis[1], "level": CATALOGUE[basis[1]]["level"]}
        else:
            v["convention"] = basis[1]
    if needs:
        v["needs"] = needs
    if reply is not None or reply_violations is not None:
        v["exchange"] = {
            "reply": NOTHING if reply is None else {"frame": text(reply)},
            "violations": list(reply_violations or []),
        }
        if reply_advisories:
            v["exchange"]["advisories"] = list(reply_advisories)
    if ambiguity is not None:
        v["ambiguity"] = ambiguity
    VECTORS[path] = v


# ---------------------------------------------------------------- answer bases
#
# An expected answer is a verdict on a real server, so each names what mandates
# it. `must(rule)`: a rule of the model whose sentence binds the receiver to
# this answer (its level decides: MUST fails a live peer, SHOULD warns).
# `conv(why)`: nothing mandates it; a departure is a note (a warning under
# --strict). Outside parse errors and invalid request shapes (JSON-RPC 2.0
# §5, §5.1), a notification answered, `ping`, and in 2026-07-28 a missing
# per-request `_meta` field, an unsupported version and a missing resource,
# the spec binds the sender of a bad frame, not the receiver's error code.


def must(rule):
    return ("rule", rule)


def conv(why):
    return ("convention", why)


C_32601 = ("JSON-RPC 2.0 §5.1 defines -32601 \"Method not found\" for a method that \"does not exist / is not "
           "available\"; no sentence says a receiver MUST use it, and a peer may implement the method")
C_32602 = ("JSON-RPC 2.0 §5.1 defines -32602 \"Invalid params\"; the rule broken binds the sender of the params, "
           "not the receiver's error code")
C_32600 = ("JSON-RPC 2.0 §5.1 defines -32600 \"Invalid Request\"; the rule broken binds the sender, not the "
           "receiver's error code")
C_ERROR = ("the frame breaks a rule that binds its sender; a receiver answers with an error, and no sentence "
           "names the code")
C_RESULT = ("a peer offering the feature answers a well-formed request with its result; the spec mandates a "
            "response (JSON-RPC 2.0 §5) and, when it is a result, its members (mcp.schema.result, checked by the "
            "model), not a result over an error")
C_RESPONSES = "responses are never answered: JSON-RPC 2.0 §5 answers requests only"


def any_err(id=None):
    """Any error response (with this id, when given)."""
    return err(id=id)


def any_of(*answers):
    return {"any_of": list(answers)}


def any_resp(id=None, example=None):
    """Any response: a result or an error (with this id, when given)."""
    return any_of(res(id=id, example=example), any_err(id))


def parse(frame):
    if isinstance(frame, str):
        try:
            return json.loads(frame)
        except ValueError:
            return None
    return frame


def messages(parsed):
    if isinstance(parsed, list):
        return [m for m in parsed if isinstance(m, dict)]
    return [parsed] if isinstance(parsed, dict) else []


def codes_of(answer):
    return answer["error"]["codes"] if isinstance(answer, dict) and "error" in answer else None


def derive_basis(path, profile, parsed, answer, refused):
    """The basis of an answer no call site names, by what the frame and answer are."""
    if refused:
        # Parse errors and invalid request shapes: JSON-RPC 2.0 §5 and §5.1 bind the
        # receiver to the code and to `"id": null`; the refusal's rule is the one broken.
        return must(refused[0])
    ms = messages(parsed)
    if answer == NOTHING and ms and all("method" in m and "id" not in m for m in ms):
        return must("jsonrpc.notification.no-reply" if profile in ("jsonrpc-2.0", REVS[0])
                    else "mcp.base.notification-no-response")
    if answer == NOTHING and ms and all("method" not in m for m in ms):
        return conv(C_RESPONSES)
    codes = codes_of(answer)
    if codes == [-32601]:
        return conv(C_32601)
    if codes == [-32602]:
        # Missing or invalid params: the code JSON-RPC 2.0 §5.1 defines for them
        # ("Invalid method parameter(s)"); another code warns.
        return must("jsonrpc.error.code-meaning")
    if codes == [-32600]:
        return conv(C_32600)
    if codes is not None:
        return conv(C_ERROR)
    if isinstance(answer, dict) and ("result" in answer or "any_of" in answer) and profile != "jsonrpc-2.0":
        return conv(C_RESULT)
    sys.exit(f"{path}: the answer names no basis (pass basis=must(rule) or conv(why))")


CAPABILITY = {"tools/": "tools", "prompts/": "prompts", "resources/": "resources",
              "completion/": "completions", "subscriptions/": "resources", "tasks/": "tasks"}
FIXTURES = {"echo": "tool", "pay": "tool", "long_job": "tool"}


def foreign(method, profile):
    """Whether `method` belongs to no feature of `profile` that a server could declare:
    tasks before 2025-11-25 (the vector is about a method of another revision, answered
    -32601), and completion in 2024-11-05, whose ServerCapabilities has no `completions`
    (schema 2024-11-05; the capability arrived in 2025-03-26)."""
    if profile not in REVS:
        return False
    if method.startswith("tasks/"):
        return idx(profile) < idx("2025-11-25")
    if method.startswith("completion/"):
        return profile == "2024-11-05"
    return False


def foreign_subscribe(profile):
    """resources/subscribe is a method of another revision in 2026-07-28 (answered -32601)."""
    return profile == R5


def derive_needs(parsed, answer, basis, profile):
    """What a request presumes of the peer: its fixtures (named in the frame) and,
    when a result is expected, the capability of the feature (none for a method the
    profile has no capability for: see `foreign`)."""
    needs = {}
    for m in messages(parsed):
        method, params = m.get("method"), m.get("params")
        if "id" not in m or not isinstance(method, str) or not isinstance(params, dict):
            continue
        if method == "completion/complete":
            # 2024-11-05 has no `completions` capability (see `foreign`), but its
            # completion vectors name the reference peer's prompt all the same.
            ref = params.get("ref")
            if isinstance(ref, dict) and ref.get("name") == "code_review":
                needs["prompt"] = "code_review"
        if foreign(method, profile):
            continue
        if method == "tools/call" and params.get("name") in FIXTURES:
            needs["tool"] = params["name"]
        if method == "prompts/get" and params.get("name") == "code_review":
            needs["prompt"] = "code_review"
        if method == "resources/read" and params.get("uri") == "file:///project/README.md":
            needs["resource"] = params["uri"]
        # Subscribing is to a resource the server listed, never an invented URI.
        if method in ("resources/subscribe", "resources/unsubscribe") and isinstance(params.get("uri"), str) and not foreign_subscribe(profile):
            needs["resource"] = params["uri"]
        if isinstance(params.get("cursor"), str):
            needs["cursor"] = params["cursor"]
        if method.startswith("tasks/") and isinstance(params.get("taskId"), str):
            needs["task"] = params["taskId"]
        if basis == conv(C_RESULT) or needs:
            for prefix, cap in CAPABILITY.items():
                if method.startswith(prefix):
                    needs.setdefault("capability", cap)
    return needs


# 2026-07-28 result shapes: every result carries `resultType`
# (mcp.base.result-type-required); a complete result of these methods carries
# the caching hints (server/utilities/caching §Cacheable Results: "Servers MUST
# include caching hints on results with `resultType: "complete"`"); and these
# methods may answer an InputRequiredResult instead (basic/patterns/mrtr;
# schema: "At least one of `inputRequests` or `requestState` MUST be present").
CACHEABLE = {"server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list",
             "resources/read"}
MRTR = {"tools/call", "prompts/get", "resources/read"}


def r5_answer(parsed, answer):
    ms = messages(parsed)
    method = ms[0].get("method") if len(ms) == 1 and "id" in ms[0] else None
    if not (isinstance(answer, dict) and "result" in answer) or method is None:
        return answer
    body = dict(answer["result"])
    required = list(body.get("required", []))
    for name in ["resultType"] + (["ttlMs", "cacheScope"] if method in CACHEABLE else []):
        if name not in required:
            required.append(name)
    body["required"] = required
    complete = {"result": body}
    if method not in MRTR:
        return complete
    ident = body.get("id")
    return any_of(complete, res("resultType", "inputRequests", id=ident), res("resultType", "requestState", id=ident))


# An `initialize` naming a version the server does not support (ambiguity A7):
# basic/lifecycle §Version Negotiation asks for a result with another version
# (MUST), its §Error Handling example answers -32602 with `data.supported`.
# Every vector of such a frame carries this one answer.
UNSUPPORTED_VERSION_ANSWER = any_of(res("protocolVersion", "capabilities", "serverInfo", id="0"),
                                    err(-32602, id="0", data=["supported"]))


# reply_in_question: the ambiguity is also whether a reply is owed at all. Otherwise a
# request with an id is answered under every reading (JSON-RPC 2.0 §5) and the judge
# fails a silence as it does anywhere (conformance/src/judge: an `i_` vector softens
# every other failure to a warning).
def amb(reference, question, quotes, stance, reply_in_question=False):
    a = {"reference": reference, "question": question, "quotes": quotes, "stance": stance}
    if reply_in_question:
        a["reply_in_question"] = True
    return a


# ---------------------------------------------------------------- message builders


def rq(id, method, params=None, **extra):
    m = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        m["params"] = params
    m.update(extra)
    return m


def nt(method, params=None):
    m = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        m["params"] = params
    return m


def ok(id, result):
    return {"jsonrpc": "2.0", "id": id, "result": result}


def fail(id, code, message, data=None):
    e = {"code": code, "message": message}
    if data is not None:
        e["data"] = data
    return {"jsonrpc": "2.0", "id": id, "error": e}


def meta5(**more):
    m = {"io.modelcontextprotocol/protocolVersion": R5,
         "io.modelcontextprotocol/clientCapabilities": {}}
    m.update(more)
    return m


def mreq(rev, id, method, params=None):
    """A client request as `rev` wants it: 2026-07-28 carries the per-request `_meta`."""
    if rev == R5:
        params = dict(params or {})
        params["_meta"] = {**meta5(), **params.get("_meta", {})}
    return rq(id, method, params)


def mres(rev, id, result, cacheable=False):
    """A result as `rev` wants it: 2026-07-28 adds `resultType` (and caching hints)."""
    result = dict(result)
    if rev == R5:
        result["resultType"] = "complete"
        if cacheable:
            result.update({"ttlMs": 60000, "cacheScope": "public"})
    return ok(id, result)


CLIENT_INFO = {"name": "wirecheck", "version": "0.1.0"}
SUB_META = {"_meta": {"io.modelcontextprotocol/subscriptionId": 4}}
SERVER_INFO = {"name": "example-server", "version": "1.0.0"}
TOOL = {"name": "echo", "description": "Echoes its input", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}
TEXT = [{"type": "text", "text": "hello"}]


def init_params(rev, **over):
    p = {"protocolVersion": rev, "capabilities": {}, "clientInfo": CLIENT_INFO}
    p.update(over)
    return {k: v for k, v in p.items() if v is not None}


def init_result(rev, **over):
    r = {"protocolVersion": rev, "capabilities": {"tools": {}}, "serverInfo": SERVER_INFO}
    r.update(over)
    return {k: v for k, v in r.items() if v is not None}


# ================================================================ JSON-RPC 2.0

J = "jsonrpc-2.0"
SPEC7 = "JSON-RPC 2.0 §7 example"


def jsonrpc():
    # -- §7 examples, verbatim (whitespace included) -------------------------------
    e = f"{J}/examples"
    vec(f"{e}/y_positional-params", f"{SPEC7}: rpc call with positional parameters.",
        '{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}',
        rules=["jsonrpc.response.required"], answer=any_resp(id="1", example=19), basis=must("jsonrpc.response.id-echo"))
    vec(f"{e}/y_positional-params-2", f"{SPEC7}: rpc call with positional parameters, reversed.",
        '{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}',
        rules=["jsonrpc.response.required"], answer=any_resp(id="2", example=-19), basis=must("jsonrpc.response.id-echo"))
    vec(f"{e}/y_named-params", f"{SPEC7}: rpc call with named parameters.",
        '{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}',
        rules=["jsonrpc.params.by-name"], answer=any_resp(id="3", example=19), basis=must("jsonrpc.response.id-echo"))
    vec(f"{e}/y_named-params-2", f"{SPEC7}: rpc call with named parameters in another order.",
        '{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}',
        rules=["jsonrpc.params.by-name"], answer=any_resp(id="4", example=19), basis=must("jsonrpc.response.id-echo"))
    vec(f"{e}/y_notification", f"{SPEC7}: a notification; nothing is returned.",
        '{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}',
        rules=["jsonrpc.notification.no-reply"], answer=NOTHING)
    vec(f"{e}/y_notification-unknown-method", f"{SPEC7}: a notification of a method that does not exist still gets no reply (no -32601).",
        '{"jsonrpc": "2.0", "method": "foobar"}',
        rules=["jsonrpc.notification.no-reply"], answer=NOTHING)
    vec(f"{e}/y_method-not-found", f"{SPEC7}: rpc call of non-existent method; the string id \"1\" is echoed as a string.",
        '{"jsonrpc": "2.0", "method": "foobar", "id": "1"}',
        rules=["jsonrpc.response.id-echo"], answer=err(-32601, id='"1"'),
        basis=conv("JSON-RPC 2.0 §7's example answers foobar with -32601; a peer may implement foobar, and §5.1 names the code without a MUST"))
    vec(f"{e}/n_invalid-json", f"{SPEC7}: rpc call with invalid JSON; -32700 with id null.",
        '{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]',
        refused=("json.syntax", ""), answer=err(-32700, id="null"))
    vec(f"{e}/n_invalid-request-object", f"{SPEC7}: rpc call with invalid Request object (method 1, params \"bar\"); -32600 with id null.",
        '{"jsonrpc": "2.0", "method": 1, "params": "bar"}',
        refused=("jsonrpc.method-type", "/method"), answer=err(-32600, id="null"))
    vec(f"{e}/n_batch-invalid-json", f"{SPEC7}: rpc call Batch, invalid JSON; a single -32700 response.",
        '[\n  {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},\n  {"jsonrpc": "2.0", "method"\n]',
        refused=("json.syntax", ""), rules=["jsonrpc.batch.invalid-single-response"], answer=err(-32700, id="null"))
    vec(f"{e}/n_batch-empty", f"{SPEC7}: rpc call with an empty Array; a single -32600 response, not an array.",
        "[]", refused=("jsonrpc.batch-empty", ""), rules=["jsonrpc.batch.invalid-single-response"],
        answer=err(-32600, id="null"))
    vec(f"{e}/n_batch-invalid-not-empty", f"{SPEC7}: rpc call with an invalid Batch (but not empty); an array of one -32600.",
        "[1]", refused=("jsonrpc.frame-type", "/0"), answer=batch(err(-32600, id="null")))
    vec(f"{e}/n_batch-invalid", f"{SPEC7}: rpc call with invalid Batch; an array of three -32600.",
        "[1,2,3]", refused=("jsonrpc.frame-type", "/0"),
        answer=batch(err(-32600, id="null"), err(-32600, id="null"), err(-32600, id="null")))
    vec(f"{e}/n_batch-mixed", f"{SPEC7}: rpc call Batch with one invalid element ({{\"foo\": \"boo\"}}); the codec refuses the frame as a whole, a server answers each element: three results, -32600 (id null) for the invalid one, -32601 for foo.get, nothing for the notification.",
        '[\n        {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},\n        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},\n        {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},\n        {"foo": "boo"},\n        {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},\n        {"jsonrpc": "2.0", "method": "get_data", "id": "9"} \n    ]',
        refused=("jsonrpc.version-missing", "/3"),
        rules=["jsonrpc.batch.one-response-per-request", "jsonrpc.notification.no-reply"],
        answer=batch(any_resp(id='"1"', example=7), any_resp(id='"2"', example=19), err(-32600, id="null"),
                     any_resp(id='"5"'), any_resp(id='"9"', example=["hello", 5])))
    vec(f"{e}/y_batch-all-notifications", f"{SPEC7}: rpc call Batch (all notifications); nothing is returned, not even an empty array.",
        '[\n        {"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},\n        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}\n    ]',
        rules=["jsonrpc.notification.no-reply", "jsonrpc.batch.one-response-per-request"], answer=NOTHING)

    # -- §4 Request object ---------------------------------------------------------
    r = f"{J}/request"
    vec(f"{r}/y_id-string", "A request with a string id.", rq("abc", "echo"),
        rules=["jsonrpc.id-type"], answer=any_resp(id='"abc"'), basis=must("jsonrpc.response.id-echo"))
    vec(f"{r}/y_id-integer", "A request with an integer id.", rq(7, "echo"),
        rules=["jsonrpc.id-type"], answer=any_resp(id="7"), basis=must("jsonrpc.response.id-echo"))
    vec(f"{r}/y_id-null", "A request with \"id\": null is still a request (§4: id MUST contain a String, Number, or NULL); the value SHOULD normally not be Null.",
        rq(None, "echo"), advisories=["jsonrpc.request.id-not-null"], rules=["jsonrpc.id-type"],
        answer=any_resp(id="null"), basis=must("jsonrpc.response.id-echo"))
    vec(f"{r}/y_id-fractional", "A request with a fractional id: allowed, but Numbers SHOULD NOT contain fractional parts.",
        rq(1.5, "echo"), advisories=["jsonrpc.request.id-no-fraction"], answer=any_resp(id="1.5"), basis=must("jsonrpc.response.id-echo"))
    vec(f"{r}/y_id-past-2-53", "A request whose id is 2^53+1: a number of any size is an id, and the reply must carry the same value (not 9007199254740992).",
        '{"jsonrpc":"2.0","id":9007199254740993,"method":"echo"}',
        rules=["jsonrpc.id-type", "jsonrpc.response.id-echo"], answer=any_resp(id="9007199254740993"), basis=must("jsonrpc.response.id-echo"))
    for name, idv in [("bool", "true"), ("object", '{"n":1}'), ("array", "[1]")]:
        vec(f"{r}/n_id-{name}", f"A request whose id is a {name}: id MUST contain a String, Number, or NULL.",
            f'{{"jsonrpc":"2.0","id":{idv},"method":"echo"}}', refused=("jsonrpc.id-type", "/id"),
            answer=err(-32600, id="null"))
    vec(f"{r}/n_version-missing", "A request with no jsonrpc member.", '{"id":1,"method":"echo"}',
        refused=("jsonrpc.version-missing", ""), answer=err(-32600, id="null"))
    vec(f"{r}/n_version-1.0", "A request with \"jsonrpc\": \"1.0\": MUST be exactly \"2.0\".",
        '{"jsonrpc":"1.0","id":1,"method":"echo"}', refused=("jsonrpc.version-invalid", "/jsonrpc"),
        answer=err(-32600, id="null"))
    vec(f"{r}/n_version-number", "A request with \"jsonrpc\": 2.0 (a number): MUST be exactly the string \"2.0\".",
        '{"jsonrpc":2.0,"id":1,"method":"echo"}', refused=("jsonrpc.version-invalid", "/jsonrpc"),
        answer=err(-32600, id="null"))
    vec(f"{r}/n_method-null", "A request whose method is null.", '{"jsonrpc":"2.0","id":1,"method":null}',
        refused=("jsonrpc.method-type", "/method"), answer=err(-32600, id="null"))
    vec(f"{r}/y_params-array", "By-position params: an Array.", rq(1, "sum", [1, 2]),
        rules=["jsonrpc.params-type"], answer=any_resp(id="1"), basis=must("jsonrpc.response.id-echo"))
    vec(f"{r}/y_params-object", "By-name params: an Object.", rq(1, "sum", {"a": 1}),
        rules=["jsonrpc.params-type"], answer=any_resp(id="1"), basis=must("jsonrpc.response.id-echo"))
    vec(f"{r}/y_params-absent", "params MAY be omitted.", rq(1, "sum"),
        rules=["jsonrpc.params-type"], answer=any_resp(id="1"), basis=must("jsonrpc.response.id-echo"))
    for name, pv in [("string", '"bar"'), ("number", "3"), ("null", "null"), ("bool", "true")]:
        # §5.1 names -32600 "The JSON sent is not a valid Request object" and
        # -32602 "Invalid method parameter(s)", and no order: both fit.
        vec(f"{r}/n_params-{name}", f"params is a {name}: if present, params MUST be a Structured value: -32600 (not a valid Request object) or -32602 (invalid method parameters).",
            f'{{"jsonrpc":"2.0","id":1,"method":"sum","params":{pv}}}',
            refused=("jsonrpc.params-type", "/params"), answer=err(-32600, -32602, id="null"))
    vec(f"{r}/n_method-rpc-reserved", "A method named rpc.* used for an application purpose: names beginning with rpc. are reserved for rpc-internal methods and extensions and MUST NOT be used for anything else.",
        rq(1, "rpc.getUser", {"name": "x"}), violations=["jsonrpc.request.method-rpc-reserved"],
        answer=err(-32601, id="1"))
    vec(f"{r}/y_method-unknown", "A request of a method the server does not have: -32601, the code §5.1 defines for \"The method does not exist / is not available\" (another code warns).",
        rq(1, "wirecheck/no-such-method", {}), answer=err(-32601, id="1"), basis=must("jsonrpc.error.code-meaning"))
    vec(f"{r}/y_pretty-printed", "Whitespace between tokens is insignificant; the codec keeps every member and drops only envelope whitespace.",
        '{\n  "jsonrpc" : "2.0" ,\n  "id" : 1 ,\n  "method" : "echo" ,\n  "params" : { "a" : [ 1 , 2 ] }\n}\n',
        rules=["jsonrpc.params-type"], answer=any_resp(id="1"), basis=must("jsonrpc.response.id-echo"))
    vec(f"{r}/n_kind-missing", "An object with jsonrpc and id but no method, result or error.",
        '{"jsonrpc":"2.0","id":1}', refused=("jsonrpc.kind-missing", ""), answer=err(-32600, id="null"))
    vec(f"{r}/i_method-with-result", "An object with both method and result: the codec cannot tell a request from a response and refuses it; JSON-RPC 2.0 says nothing of extra members, so a peer may read it as the request its method names.",
        '{"jsonrpc":"2.0","id":1,"method":"echo","result":{}}', refused=("jsonrpc.method-with-response", "/result"),
        answer=any_of(err(-32600, id="null"), any_resp(id="1")),
        basis=conv("JSON-RPC 2.0 lists the members of a Request (§4) and of a Response (§5) and forbids no other: -32600 from a peer that refuses the object, any response with id 1 from one that reads it as a request (-32601 for an unknown method included)"),
        ambiguity=amb("extra members", "Is an object with `method` and `result` a valid Request object?",
                      ["JSON-RPC 2.0 §4: \"A rpc call is represented by sending a Request object to a Server. The Request object has the following members: jsonrpc … method … params … id\"",
                       "JSON-RPC 2.0 §5: \"result: This member is REQUIRED on success.\" (a Response member); no sentence forbids a Request from carrying other members, and §5.1's -32600 is for \"The JSON sent is not a valid Request object.\""],
                      "Refused by the codec as jsonrpc.method-with-response, reported at MAY (no keyword is broken); on a live peer -32600 and a response with id 1 are both accepted, and silence never fails: read as a Response with an extra member, it owes no reply (JSON-RPC 2.0 §1: \"One implementation of this specification could easily fill both of those roles\", the Client handling Response objects).",
                      reply_in_question=True))
    vec(f"{r}/n_frame-string", "A frame that is a JSON string, not an object.", '"hello"',
        refused=("jsonrpc.frame-type", ""), answer=err(-32600, id="null"))
    vec(f"{r}/n_frame-null", "A frame that is JSON null.", "null",
        refused=("jsonrpc.frame-type", ""), answer=err(-32600, id="null"))
    vec(f"{r}/n_trailing-comma", "Not JSON: a trailing comma.", '{"jsonrpc":"2.0","id":1,"method":"echo",}',
        refused=("json.syntax", ""), answer=err(-32700, id="null"))
    vec(f"{r}/n_not-utf8", "Not JSON: the method name holds the byte 0xFF, which is not UTF-8 (RFC 8259 §8.1).",
        None, frame_hex=text({"jsonrpc": "2.0", "id": 1, "method": "X"}).encode().hex().replace("58", "ff"),
        # RFC 8259 §8.1's MUST binds the sender; §9 lets a receiver's parser
        # "accept non-JSON forms": one that reads the byte as U+FFFD answers
        # the request with id 1, as conformant as a -32700.
        refused=("json.utf8", ""), answer=any_of(err(-32700, id="null"), any_resp(id="1")))
    deep = "[" * 600 + "]" * 600
    vec(f"{r}/i_depth-limit", "params nested 600 deep: past the codec's nesting limit (RFC 8259 §9 lets a parser set one); refused by the codec, never a stack overflow. Valid JSON all the same: a peer without a limit answers it as any request.",
        '{"jsonrpc":"2.0","id":1,"method":"echo","params":' + deep + "}",
        refused=("json.depth-limit", ""), answer=any_of(err(-32700, id="null"), any_resp(id="1")),
        basis=conv("a depth limit is the receiver's own choice (RFC 8259 §9): -32700 from a peer with one, any response with id 1 from a peer without"),
        ambiguity=amb("depth limit", "Is a frame nested past a receiver's depth limit a parse error?",
                      ["RFC 8259 §9: \"An implementation may set limits on the maximum depth of nesting.\"",
                       "JSON-RPC 2.0 §5.1: -32700 Parse error: \"Invalid JSON was received by the server.\" (600-deep arrays are valid JSON, so a peer without a limit reads a request: \"the Server MUST reply with a Response\", §5)"],
                      "The codec refuses it (json.depth-limit, its own limit); on a live peer either answer is accepted."))
    vec(f"{r}/i_duplicate-member", "A request with the member id twice: peers disagree on which one wins, so the codec refuses it.",
        '{"jsonrpc":"2.0","id":1,"id":2,"method":"echo"}', refused=("jsonrpc.duplicate-member", "/id"),
        answer=any_of(err(-32600, id="null"), any_resp(id="1"), any_resp(id="2")),
        basis=conv("RFC 8259 §4: the behaviour of a receiver of duplicate names \"is unpredictable\"; a refusal and either reading are each accepted"),
        ambiguity=amb("RFC 8259 §4", "Is an object with a duplicate member name a valid Request object?",
                      ["RFC 8259 §4: \"The names within an object SHOULD be unique.\"",
                       "RFC 8259 §4: \"When the names within an object are not unique, the behavior of software that receives such an object is unpredictable. Many implementations report the last name/value pair only. Other implementations report an error or fail to parse the object\"",
                       "JSON-RPC 2.0 is silent on duplicate members."],
                      "Refused as jsonrpc.duplicate-member (-32600): answering id 1 or id 2 would each be wrong for some peer."))
    vec(f"{r}/i_unknown-member", "A request with a member JSON-RPC 2.0 does not define; the codec keeps it, in place, through a round trip.",
        '{"jsonrpc":"2.0","id":1,"method":"echo","x-trace":"abc"}',
        answer=any_of(any_resp(id="1"), err(-32600, id="null")), basis=must("jsonrpc.response.id-echo"),
        ambiguity=amb("unknown members", "May a Request object carry members the specification does not define?",
                      ["JSON-RPC 2.0 §4: \"A rpc call is represented by sending a Request object to a Server. The Request object has the following members:\" (jsonrpc, method, params, id: a closed list)",
                       "JSON-RPC 2.0 says nothing forbids other members, and §3 leaves extensions to rpc.* methods; MCP's schema allows extra members on every message (no additionalProperties: false)."],
                      "Accepted and kept byte for byte (the lossless contract); no rule is reported. On a live peer an answer to id 1, or a refusal as an Invalid Request with id null (§5: null \"if there was an error in detecting the id in the Request object (e.g. Parse error/Invalid Request)\"), are both accepted."))

    # -- §4.1 Notification ---------------------------------------------------------
    n = f"{J}/notification"
    vec(f"{n}/y_no-params", "A notification with no params.", nt("ping"),
        rules=["jsonrpc.notification.no-reply"], answer=NOTHING)
    vec(f"{n}/y_invalid-params-still-silent", "A notification whose params the server would reject: notifications are not confirmable, so no -32602 either.",
        nt("subtract", {"wrong": True}), rules=["jsonrpc.notification.no-reply"], answer=NOTHING)
    vec(f"{n}/n_answered", "Exchange: a notification answered with -32601 (shipped by MCP servers answering notifications/initialized): the Server MUST NOT reply to a Notification.",
        nt("update", [1]), answer=NOTHING,
        reply=fail(None, -32601, "Method not found"), reply_violations=["jsonrpc.notification.no-reply"])
    vec(f"{n}/n_answered-with-result", "Exchange: a notification answered with an empty result (ruby-sdk's first version).",
        nt("update", [1]), answer=NOTHING,
        reply=ok(None, {}), reply_violations=["jsonrpc.notification.no-reply"])
    vec(f"{n}/y_unanswered", "Exchange: a notification, and nothing comes back.", nt("update", [1]),
        answer=NOTHING, reply=None, reply_violations=[], rules=["jsonrpc.notification.no-reply"])
    vec(f"{n}/y_id-null-is-not-a-notification", "\"id\": null makes a request, not a notification (§4.1: a Notification is a Request object without an \"id\" member); a server answers it.",
        rq(None, "update", [1]), advisories=["jsonrpc.request.id-not-null"], answer=any_resp(id="null"), basis=must("jsonrpc.response.id-echo"))
    vec(f"{n}/n_id-null-taken-for-notification", "Exchange: a request with \"id\": null answered with nothing, as if it were a notification (tuff#1938's isNotification = id === undefined || id === null).",
        rq(None, "update", [1]), advisories=["jsonrpc.request.id-not-null"], answer=any_resp(id="null"), basis=must("jsonrpc.response.id-echo"),
        reply=None, reply_violations=["jsonrpc.response.required"])

    # -- §5 Response object --------------------------------------------------------
    s = f"{J}/response"
    vec(f"{s}/y_result", "A success response.", ok(1, 19), sender="server", rules=["jsonrpc.result-and-error"])
    vec(f"{s}/y_result-null", "A success response whose result is null: JSON-RPC lets the method decide the value.",
        ok(1, None), sender="server", rules=["jsonrpc.result-and-error"])
    vec(f"{s}/y_error", "An error response.", fail(1, -32601, "Method not found"), sender="server",
        rules=["jsonrpc.error-code", "jsonrpc.error-message"])
    vec(f"{s}/y_error-message-two-sentences", "An error whose message is two sentences: it SHOULD be a concise single sentence (reported, not a failure).",
        fail(1, -32602, "Invalid params. Expected an object."), sender="server",
        advisories=["jsonrpc.error.message-single-sentence"])
    vec(f"{s}/y_error-message-one-sentence", "An error whose message is one sentence, with an abbreviation inside it.",
        fail(1, -32602, "Invalid params, e.g. a missing name."), sender="server",
        rules=["jsonrpc.error.message-single-sentence"])
    vec(f"{s}/y_error-id-null", "An error response with \"id\": null, for a request whose id could not be read (parse error).",
        fail(None, -32700, "Parse error"), sender="server", rules=["jsonrpc.response.id-required"])
    vec(f"{s}/y_error-data-nested", "An error with nested data: a relay or client MUST NOT drop it (typescript-sdk#774, vercel/ai#9249); the codec keeps it byte for byte.",
        fail("a", -32000, "Upstream failed", {"errors": [{"code": 1, "detail": "x"}], "retryAfter": 1.5}),
        sender="server", rules=["jsonrpc.error-code"])
    vec(f"{s}/y_error-unknown-member-kept", "An error object with a member the spec does not define: kept through a round trip, never stripped.",
        '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error","x-trace":"t1"}}',
        sender="server", rules=["jsonrpc.error-message"])
    vec(f"{s}/y_error-code-application", "An application-defined code outside the reserved range.",
        fail(1, 42, "The answer"), sender="server", rules=["jsonrpc.error-code"])
    vec(f"{s}/y_error-code-server-range", "A code in -32000..-32099, reserved for implementation-defined server errors.",
        fail(1, -32050, "Busy"), sender="server", rules=["jsonrpc.error-code"])
    vec(f"{s}/n_result-and-error", "Both result and error: both members MUST NOT be included.",
        '{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"x"}}', sender="server",
        refused=("jsonrpc.result-and-error", "/error"))
    vec(f"{s}/n_result-without-id", "A success response without id: REQUIRED.", '{"jsonrpc":"2.0","result":1}',
        sender="server", refused=("jsonrpc.response-id-missing", ""))
    vec(f"{s}/n_error-without-id", "An error response without id: REQUIRED, and null when the request's id could not be read.",
        '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}', sender="server",
        violations=["jsonrpc.response.id-required"])
    vec(f"{s}/n_error-not-object", "error is a string: MUST be an Object.", '{"jsonrpc":"2.0","id":1,"error":"boom"}',
        sender="server", refused=("jsonrpc.error-type", "/error"))
    vec(f"{s}/n_error-code-missing", "error without code.", '{"jsonrpc":"2.0","id":1,"error":{"message":"x"}}',
        sender="server", refused=("jsonrpc.error-code", "/error/code"))
    vec(f"{s}/n_error-code-fraction", "error.code -32600.5: MUST be an integer.",
        '{"jsonrpc":"2.0","id":1,"error":{"code":-32600.5,"message":"x"}}', sender="server",
        refused=("jsonrpc.error-code", "/error/code"))
    vec(f"{s}/n_error-code-string", "error.code \"-32600\": a string, not a Number.",
        '{"jsonrpc":"2.0","id":1,"error":{"code":"-32600","message":"x"}}', sender="server",
        refused=("jsonrpc.error-code", "/error/code"))
    vec(f"{s}/i_error-code-integral-float", "error.code written -32601.0: an integer value with a fractional spelling.",
        '{"jsonrpc":"2.0","id":1,"error":{"code":-32601.0,"message":"x"}}', sender="server",
        refused=("jsonrpc.error-code", "/error/code"),
        ambiguity=amb("A16", "Is -32601.0 an integer error code?",
                      ["JSON-RPC 2.0 §5.1: \"A Number that indicates the error type that occurred. This MUST be an integer.\"",
                       "JSON Schema (draft-07 and 2020-12), used by every MCP schema for `code`: \"integer\" matches \"any number with a zero fractional part\", so -32601.0 is schema-valid."],
                      "Refused as jsonrpc.error-code: an integer is read from its text; a peer matching codes by string or i64 parse would miss -32601.0."))
    vec(f"{s}/n_error-message-missing", "error without message.", '{"jsonrpc":"2.0","id":1,"error":{"code":-32603}}',
        sender="server", refused=("jsonrpc.error-message", "/error/message"))
    vec(f"{s}/n_error-message-number", "error.message is a number.", '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":5}}',
        sender="server", refused=("jsonrpc.error-message", "/error/message"))

    # -- exchanges: id echo (§4, §5) -----------------------------------------------
    x = f"{J}/exchange"
    vec(f"{x}/y_id-string-echoed", "Exchange: string id \"1\" answered with \"1\".", rq("1", "echo"),
        answer=any_resp(id='"1"'), basis=must("jsonrpc.response.id-echo"), reply=ok("1", "hi"), reply_violations=[], rules=["jsonrpc.response.id-echo"])
    vec(f"{x}/n_id-string-answered-as-number", "Exchange: string id \"1\" answered as number 1 (python-sdk#961): the reply MUST carry the same value.",
        rq("1", "echo"), answer=any_resp(id='"1"'), basis=must("jsonrpc.response.id-echo"), reply=ok(1, "hi"), reply_violations=["jsonrpc.response.id-echo"])
    vec(f"{x}/n_id-number-answered-as-string", "Exchange: integer id 1 answered as \"1.0\" (AutoCorrode#43).",
        rq(1, "echo"), answer=any_resp(id="1"), basis=must("jsonrpc.response.id-echo"), reply=ok("1.0", "hi"), reply_violations=["jsonrpc.response.id-echo"])
    vec(f"{x}/n_id-rounded-past-2-53", "Exchange: id 9007199254740993 answered as 9007199254740992 (rounded through a double).",
        '{"jsonrpc":"2.0","id":9007199254740993,"method":"echo"}', answer=any_resp(id="9007199254740993"), basis=must("jsonrpc.response.id-echo"),
        reply='{"jsonrpc":"2.0","id":9007199254740992,"result":"hi"}', reply_violations=["jsonrpc.response.id-echo"])
    vec(f"{x}/y_id-past-2-53-echoed", "Exchange: id 9007199254740993 echoed exactly.",
        '{"jsonrpc":"2.0","id":9007199254740993,"method":"echo"}', answer=any_resp(id="9007199254740993"), basis=must("jsonrpc.response.id-echo"),
        reply='{"jsonrpc":"2.0","id":9007199254740993,"result":"hi"}', reply_violations=[], rules=["jsonrpc.response.id-echo"])
    vec(f"{x}/n_id-truncated-32-bit", "Exchange: id 1774232524389 (a Date.now()) answered as 411031141, truncated to 32 bits (vibe-kanban#3232).",
        rq(1774232524389, "echo"), answer=any_resp(id="1774232524389"), basis=must("jsonrpc.response.id-echo"), reply=ok(411031141, "hi"),
        reply_violations=["jsonrpc.response.id-echo"])
    vec(f"{x}/n_id-answered-as-null", "Exchange: a readable string id answered with id null (radare2-mcp#68).",
        rq("abc", "echo"), answer=any_resp(id='"abc"'), basis=must("jsonrpc.response.id-echo"), reply=fail(None, -32603, "Internal error"),
        reply_violations=["jsonrpc.response.id-echo"])
    vec(f"{x}/n_request-unanswered", "Exchange: a request gets no reply: the Server MUST reply with a Response, except for Notifications.",
        rq(5, "echo"), answer=any_resp(id="5"), basis=must("jsonrpc.response.id-echo"), reply=None, reply_violations=["jsonrpc.response.required"])
    vec(f"{x}/y_error-data-relayed", "Exchange: the error's data (nested) comes back whole; the codec keeps every byte of it for the reader.",
        rq(2, "pay"), answer=any_resp(id="2"), basis=must("jsonrpc.response.id-echo"),
        reply=fail(2, -32000, "Payment required", {"x402": {"accepts": [{"scheme": "exact", "amount": "1000"}]}}),
        reply_violations=[], rules=["jsonrpc.response.id-echo"])

    # -- §6 batches ----------------------------------------------------------------
    b = f"{J}/batch"
    vec(f"{b}/y_requests", "A batch of two requests: an Array of two responses, in any order.",
        [rq(1, "a"), rq(2, "b")], rules=["jsonrpc.batch.respond-array"],
        answer=batch(any_resp(id="1"), any_resp(id="2")), basis=must("jsonrpc.batch.respond-array"))
    vec(f"{b}/y_request-and-notification", "A batch of a request and a notification: one response in the Array, none for the notification.",
        [rq(1, "a"), nt("b")], rules=["jsonrpc.batch.one-response-per-request"], answer=batch(any_resp(id="1")), basis=must("jsonrpc.batch.respond-array"))
    vec(f"{b}/y_responses", "A batch of responses (a client answering a server's batch).",
        [ok(1, 1), fail(2, -32601, "Method not found")], sender="server", rules=["jsonrpc.batch.respond-array"])
    vec(f"{b}/n_element-not-object", "A batch whose second element is a number.", "[" + text(rq(1, "a")) + ",2]",
        refused=("jsonrpc.frame-type", "/1"), answer=batch(any_resp(id="1"), err(-32600, id="null")))
    vec(f"{b}/n_nested-batch", "A batch holding a batch: elements MUST be Request objects.", "[[" + text(rq(1, "a")) + "]]",
        refused=("jsonrpc.frame-type", "/0"), answer=batch(err(-32600, id="null")))
    vec(f"{b}/y_answered-in-any-order", "Exchange: a batch answered in reverse order: Response objects MAY be returned in any order.",
        [rq(1, "a"), rq(2, "b")], answer=batch(any_resp(id="1"), any_resp(id="2")), basis=must("jsonrpc.batch.respond-array"),
        reply=[ok(2, "b"), ok(1, "a")], reply_violations=[], rules=["jsonrpc.batch.respond-array"])
    vec(f"{b}/n_notification-in-batch-answered", "Exchange: the notification inside a batch is answered too: MUST NOT reply to a Notification, including those within a batch request.",
        [rq(1, "a"), nt("b")], answer=batch(any_resp(id="1")), basis=must("jsonrpc.batch.respond-array"),
        reply=[ok(1, "a"), fail(None, -32601, "Method not found")], rules=["jsonrpc.notification.no-reply"],
        # The extra response answers no request id: the model reports it against the
        # id rule, since an id-null response cannot be tied to the notification.
        reply_violations=["jsonrpc.response.id-echo"])
    vec(f"{b}/n_all-notifications-answered-empty-array", "Exchange: a batch of notifications answered with []: the server MUST NOT return an empty Array.",
        [nt("a"), nt("b")], answer=NOTHING, reply="[]",
        reply_violations=["jsonrpc.batch-empty"])
    vec(f"{b}/i_request-in-batch-unanswered", "Exchange: one request of a batch gets no response.",
        [rq(1, "a"), rq(2, "b")], answer=batch(any_resp(id="1"), any_resp(id="2")), basis=must("jsonrpc.batch.respond-array"),
        reply=[ok(1, "a")], reply_violations=[],
        rules=["jsonrpc.batch.one-response-per-request", "jsonrpc.response.required"],
        ambiguity=amb("A17", "Is a missing response inside a batch reply a MUST or a SHOULD violation?",
                      ["JSON-RPC 2.0 §5: \"When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications.\"",
                       "JSON-RPC 2.0 §6: \"A Response object SHOULD exist for each Request object, except that there SHOULD NOT be any Response objects for notifications.\""],
                      "§6 is the specific text for batches: reported at SHOULD (jsonrpc.batch.one-response-per-request), not as a MUST failure.",
                      reply_in_question=True))


# ================================================================ MCP


def mcp(rev):
    base = f"mcp/{rev}"
    i = idx(rev)
    pre5 = rev != R5

    # -- base protocol ---------------------------------------------------------------
    d = f"{base}/base"
    first = "tools/list"
    vec(f"{d}/y_request-id-string", "A request with a string id.", mreq(rev, "req-1", first),
        rules=["mcp.base.id-type"], answer=res("tools", id='"req-1"'))
    vec(f"{d}/y_request-id-integer", "A request with an integer id.", mreq(rev, 1, first),
        rules=["mcp.base.id-type"], answer=res("tools", id="1"))
    vec(f"{d}/n_request-id-null", "A request with \"id\": null: unlike base JSON-RPC, the ID MUST NOT be null. Not a notification either: a server answers -32600.",
        mreq(rev, None, first), violations=["mcp.base.id-not-null"], answer=err(-32600))
    vec(f"{d}/n_request-id-fractional", "A request with id 1.5: Requests MUST include a string or integer ID.",
        mreq(rev, 1.5, first), violations=["mcp.base.id-type"], rules=["jsonrpc.request.id-no-fraction"],
        answer=err(-32600))
    vec(f"{d}/i_request-id-integral-float", "A request with id 1.0.", text(mreq(rev, 1, first)).replace('"id":1,', '"id":1.0,'),
        advisories=["jsonrpc.request.id-no-fraction"], rules=["mcp.base.id-type"], answer=res("tools", id="1.0"),
        ambiguity=amb("A1", "Is 1.0 an integer id?",
                      ["MCP basic: \"Requests **MUST** include a string or integer ID.\"; JSON Schema `\"type\": \"integer\"` (every MCP schema's `RequestId`) accepts 1.0, \"any number with a zero fractional part\".",
                       "JSON-RPC 2.0 §4: \"Numbers SHOULD NOT contain fractional parts\"; a peer reading ids as i64 text refuses `1.0`, one reading doubles answers `1`."],
                      "Not an MCP violation (the schema's integer); reported at SHOULD NOT as jsonrpc.request.id-no-fraction. The reply must echo the same value; 1 and 1.0 are the same number to wirecheck's id matching."))
    vec(f"{d}/n_params-array", "By-position params: MCP params are always an object.",
        rq(1, first, []), violations=["mcp.base.params-object"] + (["mcp.r5.meta.required-fields"] if not pre5 else []),
        # 2026-07-28 basic/index: "A request missing any required field is malformed; the server
        # MUST reject it with JSON-RPC error code -32602" (no params, so no _meta).
        answer=err(-32602, -32600) if pre5 else err(-32602, id="1"), basis=None if pre5 else must("mcp.r5.meta.missing-required"))
    vec(f"{d}/n_notification-with-id", f"notifications/cancelled sent with an id (ruby_llm-mcp#74 did so for notifications/initialized): Notifications MUST NOT include an ID.",
        rq(3, "notifications/cancelled", {"requestId": 1}),
        violations=["mcp.base.notification-no-id"] + ([] if pre5 else ["mcp.r5.meta.required-fields"]),
        # Up to 2025-11-25 the rule binds the sender; the receiver answers a request (it has an
        # id) with some error. 2026-07-28: no _meta, so -32602 at MUST (basic/index).
        answer=any_err(id="3") if pre5 else err(-32602, id="3"),
        basis=conv(C_ERROR) if pre5 else must("mcp.r5.meta.missing-required"))
    vec(f"{d}/y_unknown-members-kept", "Unknown members at the top level, in params and in params._meta: kept in place by the codec (agentgateway#445 stripped _meta).",
        text(mreq(rev, 1, first, {"_meta": {"com.example/trace": "t"}})).replace('{"jsonrpc":"2.0",', '{"jsonrpc":"2.0","x-vendor":{"k":[1,2]},', 1),
        rules=["mcp.base.id-type"], answer=res("tools", id="1"))
    vec(f"{d}/y_error-response", "An error response.", fail(1, -32601, "Method not found"), sender="server",
        rules=["jsonrpc.error-code"])
    vec(f"{d}/y_error-data-kept", "An error with structured data: kept byte for byte.",
        fail(1, -32603, "Internal error", {"trace": ["a", "b"], "n": 12345678901234567890}),
        sender="server", rules=["jsonrpc.error-code"])
    vec(f"{d}/n_result-not-object", "\"result\": 5: MCP results are objects (schema `Result`).",
        ok(1, 5), sender="server", violations=["mcp.base.result-object"])
    vec(f"{d}/n_result-null", "\"result\": null: MCP results are objects.", ok(1, None), sender="server",
        violations=["mcp.base.result-object"])
    if i in (1, 2):
        vec(f"{d}/i_error-response-without-id", "An error response with no id, for a request whose id could not be read.",
            '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}', sender="server",
            advisories=["mcp.base.error-id-absent"],
            ambiguity=amb("A2", f"May a {rev} error response leave out id?",
                          [f"MCP {rev} schema: `JSONRPCError.required` = [\"error\", \"id\", \"jsonrpc\"]; JSON-RPC 2.0 §5: id \"is REQUIRED\" and \"MUST be Null\" when it could not be read.",
                           f"MCP {rev} basic/transports (Streamable HTTP): \"The HTTP response body **MAY** comprise a JSON-RPC _error response_ that has no `id`.\""],
                          "Accepted; reported at SHOULD NOT (mcp.base.error-id-absent). 2025-11-25 settles it: the id may be left out when it could not be read."))
    elif i == 0:
        vec(f"{d}/n_error-response-without-id", "An error response with no id: REQUIRED up to 2025-06-18 (schema `JSONRPCError.required` has id).",
            '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}', sender="server",
            violations=["jsonrpc.response.id-required"])
    else:
        vec(f"{d}/y_error-response-without-id", "An error response with no id: allowed from 2025-11-25 \"in error cases where the ID could not be read due a malformed request\".",
            '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}', sender="server",
            rules=["mcp.base.error-response-id"])
    vec(f"{d}/i_error-response-id-null", "An error response with \"id\": null, as JSON-RPC 2.0 requires for a parse error.",
        fail(None, -32700, "Parse error"), sender="server", advisories=["mcp.base.error-id-null"],
        ambiguity=amb("A2", "Which id does an error for an unreadable request carry under MCP?",
                      ["JSON-RPC 2.0 §5: \"If there was an error in detecting the id in the Request object (e.g. Parse error/Invalid Request), it MUST be Null.\"",
                       f"MCP {rev} schema: `RequestId` is [\"string\", \"integer\"], no null" + (" and `JSONRPCError.required` includes id, so the response is unrepresentable." if i <= 2 else "; 2025-11-25 makes id optional: \"except in error cases where the ID could not be read due a malformed request\".")],
                      "Accepted (JSON-RPC is MCP's base and requires it); reported at SHOULD NOT as mcp.base.error-id-null, since MCP SDK schemas reject it (ModelContextProtocol.jl#16, fast-mcp#66)."))
    vec(f"{d}/n_method-rpc-reserved", "A method named rpc.* for an application purpose: reserved by JSON-RPC 2.0 §4, which MCP messages MUST follow.",
        mreq(rev, 1, "rpc.tools"), violations=["jsonrpc.request.method-rpc-reserved"],
        answer=err(-32601, id="1"))
    vec(f"{d}/y_method-unknown", "A well-formed request of a method no revision defines: -32601, the code JSON-RPC 2.0 §5.1 defines for \"The method does not exist / is not available\" (another code warns).",
        mreq(rev, 1, "wirecheck/no-such-method", {}), answer=err(-32601, id="1"), basis=must("jsonrpc.error.code-meaning"))
    x = f"{base}/exchange"
    idrule = "mcp.base.response-id-match" if i <= 2 else "mcp.base.result-response-id"
    errrule = "mcp.base.response-id-match" if i <= 2 else "mcp.base.error-response-id"
    tl = mres(rev, "1", {"tools": []}, cacheable=True)
    vec(f"{x}/n_id-string-answered-as-number", "Exchange: string id \"1\" answered as number 1 (python-sdk#961, broke Copilot Studio).",
        mreq(rev, "1", first), answer=res("tools", id='"1"'), reply=mres(rev, 1, {"tools": []}, cacheable=True),
        reply_violations=[idrule])
    vec(f"{x}/y_id-string-echoed", "Exchange: string id \"1\" echoed as \"1\".", mreq(rev, "1", first),
        answer=res("tools", id='"1"'), reply=tl, reply_violations=[], rules=[idrule])
    big = text(mreq(rev, 1, first)).replace('"id":1,', '"id":9007199254740993,')
    vec(f"{x}/n_id-rounded-past-2-53", "Exchange: id 9007199254740993 answered as 9007199254740992 (rounded through a double; erpc#1092).",
        big, answer=res("tools", id="9007199254740993"),
        reply=text(mres(rev, 1, {"tools": []}, cacheable=True)).replace('"id":1,', '"id":9007199254740992,'),
        reply_violations=[idrule])
    vec(f"{x}/n_error-id-mismatch", "Exchange: an error response carrying another request's id.",
        mreq(rev, 8, first), answer=res("tools", id="8"), reply=fail(9, -32603, "Internal error"),
        reply_violations=[errrule])
    vec(f"{x}/n_id-null-taken-for-notification", "Exchange: a request with \"id\": null met with silence, as if a notification (tuff#1938): it is an invalid request and gets -32600.",
        mreq(rev, None, first), violations=["mcp.base.id-not-null"], answer=err(-32600), reply=None,
        reply_violations=["jsonrpc.response.required"])
    notif_rule = "jsonrpc.notification.no-reply" if i == 0 else "mcp.base.notification-no-response"
    if pre5:
        vec(f"{x}/n_initialized-answered", "Exchange: notifications/initialized answered with -32601 (rust-analyzer-mcp#21, openchrome#144): the receiver MUST NOT send a response.",
            nt("notifications/initialized"), answer=NOTHING, reply=fail(None, -32601, "Method not found"),
            reply_violations=[notif_rule])
    vec(f"{x}/n_cancelled-answered", "Exchange: notifications/cancelled answered with an empty result.",
        nt("notifications/cancelled", {"requestId": 1}), answer=NOTHING, reply=ok(None, {}),
        reply_violations=[notif_rule] + ([] if pre5 else ["mcp.base.result-type-required"]))
    vec(f"{x}/y_notification-unanswered", "Exchange: a notification, and nothing comes back.",
        nt("notifications/cancelled", {"requestId": 1}), answer=NOTHING, reply=None, reply_violations=[],
        rules=[notif_rule])
    vec(f"{x}/n_request-unanswered", "Exchange: a request that gets no reply.", mreq(rev, 4, first),
        answer=res("tools", id="4"), reply=None, reply_violations=["jsonrpc.response.required"])
    vec(f"{x}/y_error-data-relayed", "Exchange: the error's nested data arrives whole (error data dropped by typescript-sdk#774, langchain4j#6277).",
        mreq(rev, 2, "tools/call", {"name": "pay"}), answer=any_resp(id="2"), basis=must("jsonrpc.response.required"),
        reply=fail(2, -32603, "Internal error", {"upstream": {"status": 502, "body": "bad gateway"}}),
        reply_violations=[], rules=[errrule])
    vec(f"{x}/y_unknown-result-members-relayed", "Exchange: a result with members the schema does not know and a result _meta: kept for the reader (OpenHands#4776 dropped them).",
        mreq(rev, 3, first), answer=res("tools", id="3"),
        reply=mres(rev, 3, {"tools": [TOOL], "x-vendor": {"k": 1}, "_meta": {"com.example/cost": 3}}, cacheable=True),
        reply_violations=[], rules=[idrule])

    # -- lifecycle and version negotiation ------------------------------------------
    L = f"{base}/lifecycle"
    if pre5:
        vec(f"{L}/y_initialize", "The initialize request: protocol version, capabilities, client info.",
            rq(0, "initialize", init_params(rev)), rules=["mcp.lifecycle.client-sends-initialize"],
            answer=res("protocolVersion", "capabilities", "serverInfo", id="0"), basis=must("mcp.lifecycle.server-responds"))
        vec(f"{L}/n_initialize-without-params", "initialize with no params.", rq(0, "initialize"),
            violations=["mcp.lifecycle.client-sends-initialize"], rules=["mcp.schema.request-params"], answer=err(-32602))
        vec(f"{L}/n_initialize-without-client-info", "initialize without clientInfo (REQUIRED by the schema).",
            rq(0, "initialize", init_params(rev, clientInfo=None)), violations=["mcp.lifecycle.client-sends-initialize"], rules=["mcp.schema.request-params"],
            answer=err(-32602))
        vec(f"{L}/n_initialize-version-not-string", "initialize with protocolVersion 20241105 (a number).",
            rq(0, "initialize", init_params(rev, protocolVersion=20241105)), violations=["mcp.lifecycle.client-sends-initialize"], rules=["mcp.schema.request-params"],
            answer=err(-32602))
        vec(f"{L}/y_initialized", "The initialized notification, after the initialize response.",
            nt("notifications/initialized"), rules=["mcp.lifecycle.initialized-notification"], answer=NOTHING)
        vec(f"{L}/n_initialized-with-id", "notifications/initialized sent with an id (ruby_llm-mcp#74 \"for compatibility\").",
            rq(1, "notifications/initialized"), violations=["mcp.base.notification-no-id"], answer=any_err(id="1"), basis=conv(C_ERROR))
        vec(f"{L}/y_initialize-result", "Exchange: initialize answered with the same version, capabilities and server info.",
            rq(0, "initialize", init_params(rev)), answer=res("protocolVersion", "capabilities", "serverInfo", id="0"), basis=must("mcp.lifecycle.server-responds"),
            reply=ok(0, init_result(rev)), reply_violations=[], rules=["mcp.lifecycle.server-responds"])
        vec(f"{L}/n_initialize-result-without-server-info", "Exchange: initialize answered without serverInfo.",
            rq(0, "initialize", init_params(rev)), answer=res("protocolVersion", "capabilities", "serverInfo", id="0"), basis=must("mcp.lifecycle.server-responds"),
            reply=ok(0, init_result(rev, serverInfo=None)), reply_violations=["mcp.lifecycle.server-responds"],
            rules=["mcp.schema.result"])
        # The same answer as i_version-unsupported-error's (A7): a result naming another
        # version (the MUST text) or the lifecycle page's own -32602 example; any other
        # answer fits neither and breaks the MUST.
        vec(f"{L}/y_version-negotiated-down", "Exchange: the client asks for a version the server does not support; the server MUST respond with another version it supports (or, as the lifecycle page's own example shows, -32602: A7).",
            rq(0, "initialize", init_params(rev, protocolVersion="2099-01-01")),
            answer=UNSUPPORTED_VERSION_ANSWER, basis=must("mcp.lifecycle.version-server"),
            reply=ok(0, init_result(rev)), reply_violations=[], rules=["mcp.lifecycle.version-server"])
        vec(f"{L}/i_version-unsupported-error", "Exchange: an unsupported protocolVersion answered with -32602 and data.supported instead of a result.",
            rq(0, "initialize", init_params(rev, protocolVersion="1.0.0")),
            answer=UNSUPPORTED_VERSION_ANSWER,
            basis=conv("A7: the MUST text asks for a result with another version, the lifecycle example shows -32602 with data.supported; both are accepted"),
            reply=fail(0, -32602, "Unsupported protocol version", {"supported": [rev], "requested": "1.0.0"}),
            reply_violations=[], rules=["mcp.lifecycle.version-server"],
            ambiguity=amb("A7", "Is an unsupported version answered with a result or an error?",
                          ["basic/lifecycle §Version Negotiation: \"If the server supports the requested protocol version, it **MUST** respond with the same version. Otherwise, the server **MUST** respond with another protocol version it supports.\"",
                           "basic/lifecycle §Error Handling example: {\"code\": -32602, \"message\": \"Unsupported protocol version\", \"data\": {\"supported\": [\"2024-11-05\"], \"requested\": \"1.0.0\"}}"],
                          "Both are accepted (no violation); the expected answer records the MUST text's preference, a result with another version."))
        vec(f"{L}/y_ping-before-initialized", "A ping before initialization completes: the one request allowed early.",
            rq("p0", "ping"), rules=["mcp.lifecycle.client-pre-init-requests"], answer=res(id='"p0"', example={}),
            basis=must("mcp.ping.respond"))
    else:
        vec(f"{L}/y_discover", "server/discover: the R5 replacement for initialize; carries only _meta.",
            mreq(rev, 1, "server/discover"), rules=["mcp.r5.discover.required"],
            answer=res("supportedVersions", "capabilities", "resultType", "ttlMs", "cacheScope", id="1"), basis=must("mcp.r5.discover.required"))
        vec(f"{L}/y_discover-result", "Exchange: server/discover answered with the supported versions.",
            mreq(rev, 1, "server/discover"),
            answer=res("supportedVersions", "capabilities", "resultType", "ttlMs", "cacheScope", id="1"), basis=must("mcp.r5.discover.required"),
            reply=mres(rev, 1, {"supportedVersions": [R5, "2025-11-25"], "capabilities": {"tools": {}},
                                "_meta": {"io.modelcontextprotocol/serverInfo": SERVER_INFO}}, cacheable=True),
            reply_violations=[], rules=["mcp.r5.discover.required", "mcp.r5.meta.server-info"])
        vec(f"{L}/n_discover-unanswered-method", "Exchange: server/discover answered -32601: servers MUST implement it.",
            mreq(rev, 1, "server/discover"), answer=res("supportedVersions", "capabilities", id="1"), basis=must("mcp.r5.discover.required"),
            reply=fail(1, -32601, "Method not found"), reply_violations=["mcp.r5.discover.required"])
        vec(f"{L}/n_initialize-gone", "A legacy initialize sent to a 2026-07-28 server: the method no longer exists; a modern server SHOULD name its versions in the error.",
            rq(0, "initialize", init_params("2025-11-25")), violations=["mcp.r5.meta.required-fields"],
            advisories=["mcp.method.other-revision"], rules=["mcp.r5.legacy-initialize-error"],
            answer=any_resp(id="0"),
            basis=conv("2026-07-28 basic/versioning §Backward Compatibility: to a legacy client a modern server rejects initialize and \"the exact code is implementation-defined\", while a dual-era server \"answers initialize\"; either response is accepted"))
        vec(f"{L}/n_missing-protocol-version", "A request without _meta io.modelcontextprotocol/protocolVersion: malformed; -32602.",
            rq(1, "tools/list", {"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}}),
            violations=["mcp.r5.meta.required-fields"], rules=["mcp.r5.meta.missing-required"], answer=err(-32602, id="1"), basis=must("mcp.r5.meta.missing-required"))
        vec(f"{L}/n_missing-client-capabilities", "A request without _meta io.modelcontextprotocol/clientCapabilities: malformed; -32602.",
            rq(1, "tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": R5}}),
            violations=["mcp.r5.meta.required-fields"], rules=["mcp.r5.meta.missing-required"], answer=err(-32602, id="1"), basis=must("mcp.r5.meta.missing-required"))
        vec(f"{L}/n_missing-params", "A request with no params at all: _meta is required on every request.",
            rq(1, "tools/list"), violations=["mcp.r5.meta.required-fields"], answer=err(-32602, id="1"), basis=must("mcp.r5.meta.missing-required"))
        vec(f"{L}/n_missing-meta-answered-with-result", "Exchange: a request without the per-request _meta answered with a result: the server MUST reject it with -32602.",
            rq(1, "tools/list", {}), violations=["mcp.r5.meta.required-fields"], answer=err(-32602, id="1"), basis=must("mcp.r5.meta.missing-required"),
            reply=mres(rev, 1, {"tools": []}, cacheable=True), reply_violations=["mcp.r5.meta.missing-required"])
        vec(f"{L}/y_missing-meta-answered-32602", "Exchange: a request without the per-request _meta answered with -32602.",
            rq(1, "tools/list", {}), violations=["mcp.r5.meta.required-fields"], answer=err(-32602, id="1"), basis=must("mcp.r5.meta.missing-required"),
            reply=fail(1, -32602, "Missing io.modelcontextprotocol/protocolVersion"), reply_violations=[],
            rules=["mcp.r5.meta.missing-required"])
        old = mreq(rev, 1, "tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": "1900-01-01"}})
        vec(f"{L}/y_unsupported-version-answered-32022", "Exchange: an unsupported version answered with -32022 and data.supported (basic/versioning example).",
            old, answer=err(-32022, id="1", data=["supported", "requested"]), basis=must("mcp.r5.version.unsupported"),
            reply=fail(1, -32022, "Unsupported protocol version", {"supported": [R5, "2025-11-25"], "requested": "1900-01-01"}),
            reply_violations=[], rules=["mcp.r5.version.unsupported", "mcp.error.code.unsupported-version"])
        vec(f"{L}/n_unsupported-version-answered-32602", "Exchange: an unsupported version answered with -32602 (the pre-2026 habit): MUST be UnsupportedProtocolVersionError.",
            old, answer=err(-32022, id="1", data=["supported", "requested"]), basis=must("mcp.r5.version.unsupported"),
            reply=fail(1, -32602, "Unsupported protocol version", {"supported": [R5]}),
            reply_violations=["mcp.r5.version.unsupported"])
        vec(f"{L}/n_unsupported-version-answered-with-result", "Exchange: an unsupported version answered with a result, as if it were supported.",
            old, answer=err(-32022, id="1", data=["supported", "requested"]), basis=must("mcp.r5.version.unsupported"),
            reply=mres(rev, 1, {"tools": []}, cacheable=True), reply_violations=["mcp.r5.version.unsupported"])
        vec(f"{L}/y_client-info", "A request identifying its client in _meta (SHOULD).",
            mreq(rev, 1, "tools/list", {"_meta": {"io.modelcontextprotocol/clientInfo": CLIENT_INFO}}),
            rules=["mcp.r5.meta.client-info", "mcp.r5.meta.required-fields"], answer=res("tools", id="1"))

    # -- batching --------------------------------------------------------------------
    B = f"{base}/batch"
    two = [mreq(rev, 1, "tools/list"), mreq(rev, 2, "prompts/list")]
    if i == 0:
        vec(f"{B}/i_batch", "A batch under 2024-11-05, which never mentions batches.", two,
            advisories=["mcp.batch.none-r1"], answer=any_of(batch(any_resp(id="1"), any_resp(id="2")), any_err()),
            basis=conv("A5: 2024-11-05 neither allows nor forbids batches; answering per element and refusing the batch are both accepted"),
            ambiguity=amb("A5 (2024-11-05)", "May a 2024-11-05 peer send a JSON-RPC batch?",
                          ["basic/messages: \"All messages in MCP **MUST** follow the JSON-RPC 2.0 specification.\" and JSON-RPC 2.0 §6: \"the Client MAY send an Array filled with Request objects.\"",
                           "The 2024-11-05 schema's `JSONRPCMessage` has no array member, and 2025-03-26 basic/lifecycle calls earlier versions ones \"that do not explicitly support JSON-RPC batches\"."],
                          "Not a MUST violation; reported at SHOULD NOT as mcp.batch.none-r1. A receiver may answer per element or refuse.",
                          reply_in_question=True))
    elif i == 1:
        vec(f"{B}/y_batch-requests", "A batch of requests: implementations MUST support receiving JSON-RPC batches.",
            two, rules=["mcp.batch.must-receive"], answer=batch(any_resp(id="1"), any_resp(id="2")), basis=must("jsonrpc.batch.respond-array"))
        vec(f"{B}/y_batch-notifications", "A batch of notifications: nothing comes back.",
            [nt("notifications/initialized"), nt("notifications/roots/list_changed")],
            rules=["mcp.batch.must-receive"], answer=NOTHING)
        vec(f"{B}/y_batch-responses", "A batch of responses (a client answering a server's batched requests).",
            [ok(1, {}), ok(2, {"roots": []})], rules=["mcp.batch.http-post-body-r2"], answer=NOTHING)
        vec(f"{B}/n_batch-with-initialize", "initialize inside a batch: The initialize request MUST NOT be part of a JSON-RPC batch.",
            [rq(0, "initialize", init_params(rev)), rq(1, "tools/list")],
            violations=["mcp.batch.initialize-not-in-batch"],
            answer=any_of(batch(any_err(id="0"), any_resp(id="1")), any_err()), basis=conv(C_ERROR))
        vec(f"{B}/n_batch-mixed-requests-and-responses", "An array mixing a request and a response: 2025-03-26 allows an array of requests/notifications or an array of responses, not both.",
            [rq(1, "tools/list"), ok(7, {})], violations=["mcp.batch.http-post-body-r2"],
            answer=any_of(batch(any_resp(id="1")), any_err()), basis=conv(C_ERROR))
        vec(f"{B}/y_batch-answered", "Exchange: a batch answered with an array of responses.",
            two, answer=batch(any_resp(id="1"), any_resp(id="2")), basis=must("jsonrpc.batch.respond-array"),
            reply=[ok(1, {"tools": []}), ok(2, {"prompts": []})], reply_violations=[], rules=["mcp.batch.must-receive"])
        vec(f"{B}/y_batch-answered-partially", "Exchange: a batch of two requests answered with one response (SHOULD: one Response object per Request object).",
            two, answer=batch(any_resp(id="1"), any_resp(id="2")), basis=must("jsonrpc.batch.respond-array"),
            reply=[ok(1, {"tools": []})], reply_violations=[], reply_advisories=["jsonrpc.batch.one-response-per-request"])
        vec(f"{B}/y_batch-answered-not-array", "Exchange: a batch of one request answered with a single response, not an Array (the Server should respond with an Array).",
            [mreq(rev, 1, "tools/list")], answer=batch(any_resp(id="1")), basis=must("jsonrpc.batch.respond-array"),
            reply=ok(1, {"tools": []}), reply_violations=[], reply_advisories=["jsonrpc.batch.respond-array"])
        vec(f"{B}/n_batch-rejected", "Exchange: a batch rejected as a whole with -32600 (python-sdk#934): 2025-03-26 implementations MUST support receiving batches.",
            two, answer=batch(any_resp(id="1"), any_resp(id="2")), basis=must("jsonrpc.batch.respond-array"),
            reply=fail(None, -32600, "Batches are not supported"), reply_violations=["mcp.batch.must-receive"])
    else:
        vec(f"{B}/n_batch", f"A batch under {rev}: JSON-RPC batching was removed in 2025-06-18.",
            two, violations=["mcp.batch.removed"], answer=any_err(), basis=must("mcp.batch.refused-after-removal"),
            rules=["mcp.batch.accepted-after-removal"])
        vec(f"{B}/n_batch-of-notifications", f"A batch of notifications under {rev}.",
            [nt("notifications/cancelled", {"requestId": 1}), nt("notifications/cancelled", {"requestId": 2})],
            violations=["mcp.batch.removed"], answer=any_of(NOTHING, any_err()), basis=must("mcp.batch.refused-after-removal"))
        vec(f"{B}/y_batch-refused", "Exchange: a batch refused with one -32600 error and no id (go-sdk#451 for 2025-06-18 on).",
            two, violations=["mcp.batch.removed"], answer=any_err(), basis=must("mcp.batch.refused-after-removal"),
            reply='{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Batches are not supported"}}' if i == 2 else
                  '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Batches are not supported"}}',
            reply_violations=[], rules=["mcp.batch.accepted-after-removal"])
        vec(f"{B}/n_batch-accepted", "Exchange: a batch accepted and answered element by element after batching was removed (quarkus-mcp-server#723).",
            two, violations=["mcp.batch.removed"], answer=any_err(), basis=must("mcp.batch.refused-after-removal"),
            reply=[mres(rev, 1, {"tools": []}, cacheable=True), mres(rev, 2, {"prompts": []}, cacheable=True)],
            reply_violations=["mcp.batch.removed"], advisories=[], rules=["mcp.batch.accepted-after-removal"])

    # -- ping (gone in 2026-07-28) ---------------------------------------------------
    P = f"{base}/ping"
    if pre5:
        vec(f"{P}/y_ping", "A ping: the receiver MUST respond promptly with an empty response.", rq("123", "ping"),
            rules=["mcp.ping.respond"], answer=res(id='"123"', example={}), basis=must("mcp.ping.respond"))
        vec(f"{P}/y_ping-from-server", "A ping from the server: either side may ping.", rq(7, "ping"),
            sender="server", rules=["mcp.ping.respond"])
        vec(f"{P}/y_ping-answered", "Exchange: ping answered with {}.", rq("123", "ping"),
            answer=res(id='"123"', example={}), basis=must("mcp.ping.respond"), reply=ok("123", {}), reply_violations=[], rules=["mcp.ping.respond"])
        vec(f"{P}/y_ping-answered-with-meta", "Exchange: ping answered with a result holding only _meta (A14: EmptyResult allows _meta).",
            rq("123", "ping"), answer=res(id='"123"', example={}), basis=must("mcp.ping.respond"), reply=ok("123", {"_meta": {"com.example/t": 1}}),
            reply_violations=[], rules=["mcp.ping.respond"])
        vec(f"{P}/n_ping-answered-with-error", "Exchange: ping answered with -32601: the receiver MUST respond with an empty response.",
            rq("123", "ping"), answer=res(id='"123"', example={}), basis=must("mcp.ping.respond"), reply=fail("123", -32601, "Method not found"),
            reply_violations=["mcp.ping.respond"])
        vec(f"{P}/n_ping-answered-with-null", "Exchange: ping answered with \"result\": null.",
            rq("123", "ping"), answer=res(id='"123"', example={}), basis=must("mcp.ping.respond"), reply=ok("123", None),
            rules=["mcp.ping.respond"], reply_violations=["mcp.base.result-object"])
    else:
        vec(f"{P}/y_ping-gone", "ping sent to a 2026-07-28 server: removed (changelog major #5); the request is well formed, the server answers -32601.",
            mreq(rev, 1, "ping"), advisories=["mcp.method.other-revision"], answer=err(-32601, id="1"))
        vec(f"{P}/y_set-level-gone", "logging/setLevel sent to a 2026-07-28 server: removed in favour of _meta io.modelcontextprotocol/logLevel.",
            mreq(rev, 1, "logging/setLevel", {"level": "info"}), advisories=["mcp.method.other-revision"],
            answer=err(-32601, id="1"))

    # -- cancellation ------------------------------------------------------------------
    C = f"{base}/cancellation"
    vec(f"{C}/y_cancelled", "notifications/cancelled with requestId and reason; nothing comes back.",
        nt("notifications/cancelled", {"requestId": "req-1", "reason": "User requested cancellation"}),
        rules=["mcp.schema.request-params"], answer=NOTHING)
    if i == 3:
        vec(f"{C}/y_cancelled-without-request-id", "notifications/cancelled without requestId: optional in 2025-11-25 (tasks are cancelled with tasks/cancel).",
            nt("notifications/cancelled", {"reason": "x"}), rules=["mcp.schema.request-params"], answer=NOTHING)
    else:
        vec(f"{C}/n_cancelled-without-request-id", "notifications/cancelled without requestId (REQUIRED by the schema); still no reply, invalid cancellations SHOULD be ignored.",
            nt("notifications/cancelled", {"reason": "x"}), violations=["mcp.schema.request-params"], answer=NOTHING)
    vec(f"{C}/n_cancelled-request-id-bool", "notifications/cancelled whose requestId is true.",
        nt("notifications/cancelled", {"requestId": True}), violations=["mcp.schema.request-params"], answer=NOTHING)
    if pre5:
        vec(f"{C}/y_cancelled-from-server", "notifications/cancelled from the server, for a request it sent.",
            nt("notifications/cancelled", {"requestId": 3}), sender="server", rules=["mcp.cancel.same-direction"])
    else:
        vec(f"{C}/y_cancelled-from-server-subscription", "notifications/cancelled from the server, ending a subscriptions/listen stream (the only use allowed).",
            nt("notifications/cancelled", {"requestId": 3}), sender="server", rules=["mcp.cancel.client-only"])

    # -- progress ----------------------------------------------------------------------
    G = f"{base}/progress"
    psender = "server"
    vec(f"{G}/y_progress", "notifications/progress with a token, progress and total.",
        nt("notifications/progress", {"progressToken": "abc123", "progress": 50, "total": 100}), sender=psender,
        rules=["mcp.progress.token-type", "mcp.progress.increase"])
    vec(f"{G}/y_progress-float", "progress and total MAY be floating point.",
        nt("notifications/progress", {"progressToken": 7, "progress": 0.5, "total": 1.0}), sender=psender,
        rules=["mcp.progress.token-type"])
    vec(f"{G}/n_progress-token-bool", "progressToken true: Progress tokens MUST be a string or integer value.",
        nt("notifications/progress", {"progressToken": True, "progress": 1}), sender=psender,
        rules=["mcp.progress.token-type"], violations=["mcp.schema.request-params"])
    vec(f"{G}/n_progress-token-fractional", "progressToken 1.5: not an integer.",
        nt("notifications/progress", {"progressToken": 1.5, "progress": 1}), sender=psender,
        rules=["mcp.progress.token-type"], violations=["mcp.schema.request-params"])
    vec(f"{G}/n_progress-without-progress", "notifications/progress without progress (REQUIRED).",
        nt("notifications/progress", {"progressToken": "abc"}), sender=psender,
        violations=["mcp.schema.request-params"])
    vec(f"{G}/y_request-with-progress-token", "A request asking for progress: progressToken in params._meta.",
        mreq(rev, 1, "tools/call", {"name": "echo", "arguments": {"text": "hi"}, "_meta": {"progressToken": "tok-1"}}),
        rules=["mcp.progress.token-type", "mcp.progress.token-unique"], answer=res("content", id="1"))
    vec(f"{G}/n_request-progress-token-object", "A request whose params._meta.progressToken is an object.",
        mreq(rev, 1, "tools/call", {"name": "echo", "_meta": {"progressToken": {"t": 1}}}),
        violations=["mcp.progress.token-type"], answer=err(-32602, id="1"))
    if pre5:
        vec(f"{G}/y_progress-from-client", "notifications/progress from the client, for a server request that asked for it.",
            nt("notifications/progress", {"progressToken": 1, "progress": 1}), rules=["mcp.progress.token-type"],
            answer=NOTHING)

    # -- errors --------------------------------------------------------------------------
    E = f"{base}/errors"
    vec(f"{E}/y_method-not-found", "-32601 for an unknown method.", fail(1, -32601, "Method not found"),
        sender="server", rules=["jsonrpc.error-code"])
    vec(f"{E}/y_invalid-params", "-32602 for invalid params, e.g. an unknown tool.", fail(1, -32602, "Unknown tool: invalid_tool_name"),
        sender="server", rules=["jsonrpc.error-code"])
    rnf = fail(5, -32002, "Resource not found", {"uri": "file:///nonexistent.txt"})
    if pre5:
        vec(f"{E}/y_resource-not-found-32002", "-32002 Resource not found, with data.uri (server/resources example).",
            rnf, sender="server", rules=["mcp.error.code.resource-not-found-32002"])
        vec(f"{E}/y_server-range-code", "-32050, an implementation-defined server error (-32000..-32099).",
            fail(1, -32050, "Busy"), sender="server", rules=["jsonrpc.error-code"])
    else:
        vec(f"{E}/n_resource-not-found-32002", "-32002 from a 2026-07-28 server: a retired code; implementations MUST NOT emit it (-32602 now).",
            rnf, sender="server", violations=["mcp.error.retired-codes"])
        vec(f"{E}/n_reserved-range-undefined", "-32050: -32020..-32099 is reserved for codes the MCP specification defines; MUST NOT emit others.",
            fail(1, -32050, "Busy"), sender="server", violations=["mcp.error.reserved-range"])
        vec(f"{E}/y_legacy-range", "-32010: the legacy range; new implementations SHOULD NOT use it.",
            fail(1, -32010, "Busy"), sender="server", advisories=["mcp.error.legacy-range"])
        vec(f"{E}/n_url-elicitation-required-32042", "-32042 from a 2026-07-28 server: retired (2025-11-25 only).",
            fail(1, -32042, "URL elicitation required", {"elicitations": []}), sender="server",
            violations=["mcp.error.retired-codes"], rules=["mcp.error.reserved-range"])
        vec(f"{E}/y_unsupported-version", "-32022 with data.supported and data.requested.",
            fail(1, -32022, "Unsupported protocol version", {"supported": [R5], "requested": "1900-01-01"}),
            sender="server", rules=["mcp.error.code.unsupported-version"])
        vec(f"{E}/n_unsupported-version-without-supported", "-32022 without data.supported.",
            fail(1, -32022, "Unsupported protocol version", {"requested": "1900-01-01"}), sender="server",
            violations=["mcp.error.code.unsupported-version"])
        vec(f"{E}/y_missing-client-capability", "-32021 with data.requiredCapabilities.",
            fail(1, -32021, "Missing required client capability", {"requiredCapabilities": {"sampling": {}}}),
            sender="server", rules=["mcp.error.code.missing-client-capability"])
        vec(f"{E}/n_missing-client-capability-without-data", "-32021 without data.requiredCapabilities.",
            fail(1, -32021, "Missing required client capability"), sender="server",
            violations=["mcp.error.code.missing-client-capability"])
        nf = mreq(rev, 5, "resources/read", {"uri": "file:///nonexistent.txt"})
        vec(f"{E}/y_resource-not-found-answered-32602", "Exchange: a missing resource answered with -32602 (MUST from 2026-07-28).",
            nf, answer=err(-32602, id="5"), basis=must("mcp.error.code.resource-not-found-32602"), reply=fail(5, -32602, "Resource not found", {"uri": "file:///nonexistent.txt"}),
            reply_violations=[], rules=["mcp.error.code.resource-not-found-32602"])
        vec(f"{E}/n_resource-not-found-answered-32002", "Exchange: a missing resource answered with the retired -32002: from 2026-07-28 servers MUST return -32602.",
            nf, answer=err(-32602, id="5"), basis=must("mcp.error.code.resource-not-found-32602"), reply=rnf,
            reply_violations=["mcp.error.retired-codes", "mcp.error.code.resource-not-found-32602"])
    if i == 3:
        vec(f"{E}/y_url-elicitation-required", "-32042 with data.elicitations, each URL mode with an elicitationId.",
            fail(1, -32042, "This request requires more information.",
                 {"elicitations": [{"mode": "url", "elicitationId": "e1", "url": "https://example.com/auth", "message": "Authorize"}]}),
            sender="server", rules=["mcp.error.code.url-elicitation-required"])
        vec(f"{E}/n_url-elicitation-required-without-elicitations", "-32042 without data.elicitations: the error MUST include the list.",
            fail(1, -32042, "URL elicitation required"), sender="server",
            violations=["mcp.error.code.url-elicitation-required"])

    # -- tools -----------------------------------------------------------------------------
    T = f"{base}/tools"
    vec(f"{T}/y_list", "tools/list.", mreq(rev, 1, "tools/list"), rules=["mcp.schema.request-params"],
        answer=res("tools", id="1"))
    vec(f"{T}/y_list-with-cursor", "tools/list with a pagination cursor the server issued: `page-2` stands for a nextCursor the peer returned (needs.cursor); the runner binds it or reports the vector not applicable.",
        mreq(rev, 1, "tools/list", {"cursor": "page-2"}),
        rules=["mcp.schema.request-params"], answer=res("tools", id="1"))
    # Every revision's server/utilities/pagination §Error Handling: "Invalid cursors SHOULD
    # result in an error with code -32602 (Invalid params)."
    vec(f"{T}/y_list-with-invalid-cursor", "tools/list with a cursor the server never issued: Invalid cursors SHOULD result in an error with code -32602 (a result warns, never fails).",
        mreq(rev, 1, "tools/list", {"cursor": "wirecheck-never-issued"}), rules=["mcp.schema.request-params"],
        answer=err(-32602, id="1"), needs={"capability": "tools"},
        basis=must("mcp.error.invalid-cursor"))
    vec(f"{T}/y_call", "tools/call with a name and arguments.",
        mreq(rev, 2, "tools/call", {"name": "echo", "arguments": {"text": "hi"}}), rules=["mcp.schema.request-params"],
        answer=res("content", id="2"))
    vec(f"{T}/n_call-without-name", "tools/call without name (REQUIRED).",
        mreq(rev, 2, "tools/call", {"arguments": {}}), violations=["mcp.schema.request-params"], answer=err(-32602, id="2"))
    vec(f"{T}/n_call-name-not-string", "tools/call with name 42.",
        mreq(rev, 2, "tools/call", {"name": 42}), violations=["mcp.schema.request-params"], answer=err(-32602, id="2"))
    listed = mres(rev, 1, {"tools": [TOOL]}, cacheable=True)
    vec(f"{T}/y_list-result", "Exchange: tools/list answered with one tool.", mreq(rev, 1, "tools/list"),
        answer=res("tools", id="1"), reply=listed, reply_violations=[], rules=["mcp.schema.result"])
    vec(f"{T}/n_list-result-without-tools", "Exchange: tools/list answered without tools.", mreq(rev, 1, "tools/list"),
        answer=res("tools", id="1"), reply=mres(rev, 1, {"nextCursor": "x"}, cacheable=True),
        reply_violations=["mcp.schema.result"])
    vec(f"{T}/n_list-result-tool-without-input-schema", "Exchange: a tool without inputSchema (REQUIRED).",
        mreq(rev, 1, "tools/list"), answer=res("tools", id="1"),
        reply=mres(rev, 1, {"tools": [{"name": "echo"}]}, cacheable=True),
        reply_violations=["mcp.tools.input-schema-not-null"] if i >= 3 else ["mcp.schema.result"])
    call = mreq(rev, 2, "tools/call", {"name": "echo", "arguments": {"text": "hi"}})
    if i == 3:
        tcall = mreq(rev, 4, "tools/call", {"name": "long_job", "arguments": {}, "task": {"ttl": 60000}})
        def created(status):
            return ok(4, {"task": {"taskId": "task-1", "status": status, "createdAt": "2025-11-25T10:00:00Z",
                                   "lastUpdatedAt": "2025-11-25T10:00:00Z", "ttl": 60000}})
        vec(f"{T}/y_call-as-task", "Exchange: a task-augmented tools/call answered with a CreateTaskResult whose task is working.",
            tcall, answer=res("task", id="4"), reply=created("working"), reply_violations=[],
            rules=["mcp.tasks.initial-working"])
        vec(f"{T}/n_call-as-task-created-completed", "Exchange: a created task whose first status is completed: Tasks MUST begin in the working status when created.",
            tcall, answer=res("task", id="4"), reply=created("completed"), reply_violations=["mcp.tasks.initial-working"])
    if i >= 3:
        vec(f"{T}/y_list-result-tool-name-format", "Exchange: a tool named \"my tool!\": names SHOULD use only A-Z, a-z, 0-9, _, - and . (reported, not a failure).",
            mreq(rev, 1, "tools/list"), answer=res("tools", id="1"),
            reply=mres(rev, 1, {"tools": [dict(TOOL, name="my tool!")]}, cacheable=True), reply_violations=[],
            reply_advisories=["mcp.tools.name-format"])
        vec(f"{T}/y_list-result-tool-name-duplicate", "Exchange: two tools named echo: tool names SHOULD be unique within a server.",
            mreq(rev, 1, "tools/list"), answer=res("tools", id="1"),
            reply=mres(rev, 1, {"tools": [TOOL, TOOL]}, cacheable=True), reply_violations=[],
            reply_advisories=["mcp.tools.name-unique"])
    if not pre5:
        # server/tools §x-mcp-header (basic/transports/streamable-http §Schema Extension).
        def with_headers(properties):
            tool = {"name": "route", "inputSchema": {"type": "object", "properties": properties}}
            return mres(rev, 1, {"tools": [tool]}, cacheable=True)
        region = {"type": "string", "x-mcp-header": "Region"}
        vec(f"{T}/y_list-result-x-mcp-header", "Exchange: a tool whose string parameter, reached through properties alone, is mirrored as Mcp-Param-Region.",
            mreq(rev, 1, "tools/list"), answer=res("tools", id="1"),
            reply=with_headers({"region": region, "opts": {"type": "object", "properties": {"zone": {"type": "integer", "x-mcp-header": "Zone"}}}}),
            reply_violations=[], rules=["mcp.r5.tools.x-mcp-header"])
        for slug, properties, why in [
            ("empty", {"region": dict(region, **{"x-mcp-header": ""})}, "an empty x-mcp-header value"),
            ("not-a-token", {"region": dict(region, **{"x-mcp-header": "Re gion"})}, "a value with a space: not an RFC 9110 token"),
            ("control-character", {"region": dict(region, **{"x-mcp-header": "Region\r\nX-Injected"})}, "a value with CR LF"),
            ("duplicate", {"region": region, "zone": {"type": "string", "x-mcp-header": "REGION"}}, "two values equal without regard to case"),
            ("number-type", {"ratio": {"type": "number", "x-mcp-header": "Ratio"}}, "a parameter of type number (not permitted)"),
            ("in-items", {"regions": {"type": "array", "items": {"type": "string", "x-mcp-header": "Region"}}}, "a parameter reached through `items`: not statically reachable"),
            ("in-one-of", {"target": {"oneOf": [{"type": "string", "x-mcp-header": "Target"}]}}, "a parameter reached through `oneOf`: not statically reachable"),
        ]:
            vec(f"{T}/n_list-result-x-mcp-header-{slug}", f"Exchange: a tool with {why}: the x-mcp-header constraints are MUSTs.",
                mreq(rev, 1, "tools/list"), answer=res("tools", id="1"), reply=with_headers(properties),
                reply_violations=["mcp.r5.tools.x-mcp-header"])
    vec(f"{T}/y_call-result", "Exchange: tools/call answered with text content.", call, answer=res("content", id="2"),
        reply=mres(rev, 2, {"content": TEXT}), reply_violations=[], rules=["mcp.schema.result"])
    vec(f"{T}/y_call-result-is-error", "Exchange: a tool execution error reported in the result with isError: true, not as a protocol error.",
        call, answer=res("content", id="2"),
        reply=mres(rev, 2, {"content": [{"type": "text", "text": "API rate limit exceeded"}], "isError": True}),
        reply_violations=[], rules=["mcp.schema.result"])
    vec(f"{T}/n_call-result-without-content", "Exchange: tools/call answered without content (REQUIRED).",
        call, answer=res("content", id="2"), reply=mres(rev, 2, {"isError": False}), reply_violations=["mcp.schema.result"])
    vec(f"{T}/n_call-result-is-error-string", "Exchange: isError \"true\" (a string).",
        call, answer=res("content", id="2"), reply=mres(rev, 2, {"content": TEXT, "isError": "true"}),
        reply_violations=["mcp.schema.result"])
    unknown_tool = mreq(rev, 3, "tools/call", {"name": "invalid_tool_name"})
    vec(f"{T}/y_call-unknown-tool", "Exchange: an unknown tool answered with a -32602 protocol error.",
        unknown_tool, answer=err(-32602, id="3"), basis=must("mcp.tools.unknown-tool-error"), needs={"capability": "tools"},
        reply=fail(3, -32602, "Unknown tool: invalid_tool_name"), reply_violations=[], rules=[errrule])
    if i >= 2:
        sc = {"temperature": 22.5}
        vec(f"{T}/y_call-result-structured", "Exchange: structuredContent with the serialized JSON also in a TextContent block (SHOULD, for backwards compatibility).",
            call, answer=res("content", id="2"),
            reply=mres(rev, 2, {"content": [{"type": "text", "text": json.dumps(sc)}], "structuredContent": sc}),
            reply_violations=[], rules=["mcp.tools.structured-content-text", "mcp.tools.output-schema-conform"])
        vec(f"{T}/y_call-result-structured-without-text", "Exchange: structuredContent with no TextContent block: allowed, reported at SHOULD.",
            call, answer=res("content", id="2"), reply=mres(rev, 2, {"content": [], "structuredContent": sc}),
            reply_violations=[], advisories=[], rules=["mcp.tools.structured-content-text"])
        arr = mres(rev, 2, {"content": [{"type": "text", "text": "[1,2]"}], "structuredContent": [1, 2]})
        if pre5:
            vec(f"{T}/n_call-result-structured-array", "Exchange: structuredContent [1,2]: a JSON object up to 2025-11-25.",
                call, answer=res("content", id="2"), reply=arr, reply_violations=["mcp.schema.result"])
        else:
            vec(f"{T}/y_call-result-structured-array", "Exchange: structuredContent [1,2]: any JSON value from 2026-07-28.",
                call, answer=res("content", id="2"), reply=arr, reply_violations=[], rules=["mcp.schema.result"])
    if not pre5:
        vec(f"{T}/n_call-result-without-result-type", "Exchange: a 2026-07-28 result without resultType.",
            call, answer=res("content", "resultType", id="2"), reply=ok(2, {"content": TEXT}),
            reply_violations=["mcp.base.result-type-required"])
        vec(f"{T}/n_call-result-type-unknown", "Exchange: resultType \"partial\": any value unrecognized MUST be considered invalid.",
            call, answer=res("content", "resultType", id="2"), reply=ok(2, {"content": TEXT, "resultType": "partial"}),
            reply_violations=["mcp.base.result-type-values"])
        vec(f"{T}/y_call-input-required", "Exchange: tools/call answered with an InputRequiredResult carrying requestState (MRTR).",
            call, answer=res("content", id="2"),
            reply=ok(2, {"resultType": "input_required", "requestState": "opaque-1"}),
            reply_violations=[], rules=["mcp.r5.mrtr.input-required-content", "mcp.r5.mrtr.input-required-methods"])
        vec(f"{T}/n_call-input-required-empty", "Exchange: an InputRequiredResult with neither inputRequests nor requestState.",
            call, answer=res("content", id="2"), reply=ok(2, {"resultType": "input_required"}),
            reply_violations=["mcp.r5.mrtr.input-required-content"])
        vec(f"{T}/n_list-input-required", "Exchange: tools/list answered with an InputRequiredResult: only prompts/get, resources/read and tools/call may.",
            mreq(rev, 1, "tools/list"), answer=res("tools", id="1"),
            reply=ok(1, {"resultType": "input_required", "requestState": "s"}),
            reply_violations=["mcp.r5.mrtr.input-required-methods"])
        vec(f"{T}/n_list-result-without-cache-hints", "Exchange: a 2026-07-28 tools/list result without ttlMs and cacheScope.",
            mreq(rev, 1, "tools/list"), answer=res("tools", id="1"), reply=mres(rev, 1, {"tools": []}),
            reply_violations=["mcp.schema.result"])
    vec(f"{T}/y_list-changed", "notifications/tools/list_changed from the server" + ("." if pre5 else ", on a subscriptions/listen stream: it carries the subscription id in _meta."),
        nt("notifications/tools/list_changed", None if pre5 else dict(SUB_META)),
        sender="server", rules=["mcp.method.direction"])
    vec(f"{T}/y_list-changed-from-client", "notifications/tools/list_changed sent by a client: a server-to-client notification in the wrong direction (reported at SHOULD NOT); no reply.",
        nt("notifications/tools/list_changed"), advisories=["mcp.method.direction"], answer=NOTHING)

    # -- resources -------------------------------------------------------------------------
    S = f"{base}/resources"
    vec(f"{S}/y_list", "resources/list.", mreq(rev, 1, "resources/list"), rules=["mcp.schema.request-params"],
        answer=res("resources", id="1"))
    vec(f"{S}/y_list-with-invalid-cursor", "resources/list with a cursor the server never issued: Invalid cursors SHOULD result in an error with code -32602 (a result warns, never fails).",
        mreq(rev, 1, "resources/list", {"cursor": "wirecheck-never-issued"}), rules=["mcp.schema.request-params"],
        answer=err(-32602, id="1"), needs={"capability": "resources"},
        basis=must("mcp.error.invalid-cursor"))
    vec(f"{S}/y_templates-list", "resources/templates/list.", mreq(rev, 1, "resources/templates/list"),
        rules=["mcp.schema.request-params"], answer=res("resourceTemplates", id="1"))
    read = mreq(rev, 2, "resources/read", {"uri": "file:///project/README.md"})
    vec(f"{S}/y_read", "resources/read with a uri.", read, rules=["mcp.schema.request-params"],
        answer=res("contents", id="2"))
    vec(f"{S}/n_read-without-uri", "resources/read without uri (REQUIRED).", mreq(rev, 2, "resources/read", {}),
        violations=["mcp.schema.request-params"], answer=err(-32602, id="2"))
    vec(f"{S}/y_read-result", "Exchange: resources/read answered with text contents.", read, answer=res("contents", id="2"),
        reply=mres(rev, 2, {"contents": [{"uri": "file:///project/README.md", "mimeType": "text/markdown", "text": "# Hi"}]}, cacheable=True),
        reply_violations=[], rules=["mcp.schema.result"])
    vec(f"{S}/n_read-result-without-contents", "Exchange: resources/read answered without contents.", read,
        answer=res("contents", id="2"), reply=mres(rev, 2, {"text": "# Hi"}, cacheable=True),
        reply_violations=["mcp.schema.result"])
    # server/resources §Security Considerations: "Binary data MUST be properly encoded".
    vec(f"{S}/y_read-result-blob", "Exchange: resources/read answered with a base64 blob.", read, answer=res("contents", id="2"),
        reply=mres(rev, 2, {"contents": [{"uri": "file:///project/README.md", "mimeType": "application/octet-stream", "blob": "AAEC"}]}, cacheable=True),
        reply_violations=[], rules=["mcp.content.base64"])
    vec(f"{S}/n_read-result-blob-not-base64", "Exchange: resources/read answered with a blob that is raw bytes as text, not base64.", read, answer=res("contents", id="2"),
        reply=mres(rev, 2, {"contents": [{"uri": "file:///project/README.md", "mimeType": "application/octet-stream", "blob": "\u0000\u0001"}]}, cacheable=True),
        reply_violations=["mcp.content.base64"])
    if i >= 2:
        # server/resources §Custom URI Schemes: RFC 3986 (a scheme before a colon).
        vec(f"{S}/y_list-result-custom-scheme", "Exchange: resources/list with a custom-scheme URI that RFC 3986 allows.", mreq(rev, 1, "resources/list"),
            answer=res("resources", id="1"),
            reply=mres(rev, 1, {"resources": [{"uri": "x-notes+v1:inbox/1", "name": "inbox"}]}, cacheable=True),
            reply_violations=[], rules=["mcp.resources.uri-scheme"])
        vec(f"{S}/n_list-result-uri-without-scheme", "Exchange: resources/list with a URI that is a bare path: no RFC 3986 scheme.", mreq(rev, 1, "resources/list"),
            answer=res("resources", id="1"),
            reply=mres(rev, 1, {"resources": [{"uri": "/project/README.md", "name": "README.md"}]}, cacheable=True),
            reply_violations=["mcp.resources.uri-scheme"])
    vec(f"{S}/y_list-result", "Exchange: resources/list answered with one resource.", mreq(rev, 1, "resources/list"),
        answer=res("resources", id="1"),
        reply=mres(rev, 1, {"resources": [{"uri": "file:///a.txt", "name": "a.txt"}]}, cacheable=True),
        reply_violations=[], rules=["mcp.schema.result"])
    vec(f"{S}/n_list-result-resource-without-uri", "Exchange: a resource without uri (REQUIRED).",
        mreq(rev, 1, "resources/list"), answer=res("resources", id="1"),
        reply=mres(rev, 1, {"resources": [{"name": "a.txt"}]}, cacheable=True), reply_violations=["mcp.schema.result"])
    vec(f"{S}/y_updated", "notifications/resources/updated from the server.",
        nt("notifications/resources/updated", {"uri": "file:///a.txt", **({} if pre5 else SUB_META)}), sender="server",
        rules=["mcp.schema.request-params"])
    vec(f"{S}/n_updated-without-uri", "notifications/resources/updated without uri.",
        nt("notifications/resources/updated", {} if pre5 else dict(SUB_META)), sender="server", violations=["mcp.schema.request-params"])
    if pre5:
        vec(f"{S}/y_subscribe", "resources/subscribe with a uri.", mreq(rev, 3, "resources/subscribe", {"uri": "file:///a.txt"}),
            rules=["mcp.schema.request-params"], answer=res(id="3", example={}))
    else:
        vec(f"{S}/y_subscribe-gone", "resources/subscribe sent to a 2026-07-28 server: replaced by subscriptions/listen; answered -32601.",
            mreq(rev, 3, "resources/subscribe", {"uri": "file:///a.txt"}), advisories=["mcp.method.other-revision"],
            answer=err(-32601, id="3"))
        # basic/patterns/subscriptions §Acknowledgment: the server "MUST send
        # notifications/subscriptions/acknowledged as the first message carrying the
        # subscription's ID in _meta"; the result comes only when the stream is torn down.
        vec(f"{S}/y_subscriptions-listen", "subscriptions/listen for resource list changes: the server first sends notifications/subscriptions/acknowledged with the subscription id in _meta and keeps the request open (no result until teardown).",
            mreq(rev, 4, "subscriptions/listen", {"notifications": {"resourcesListChanged": True}}),
            rules=["mcp.schema.request-params"],
            answer={"stream": {"notification": "notifications/subscriptions/acknowledged",
                               "meta_required": ["io.modelcontextprotocol/subscriptionId"]}},
            basis=must("mcp.r5.subscription-id-meta"), needs={"capability": "resources"})
        # A server may refuse the schema-invalid request (-32602, the convention) or take
        # the missing filter as an empty one ("All fields are optional. Omitting a field is
        # equivalent to not subscribing to that notification type") and keep the stream
        # open: then no response is due before teardown (§Graceful Closure), so both pass.
        vec(f"{S}/n_subscriptions-listen-without-notifications", "subscriptions/listen without notifications (REQUIRED): refused with -32602, or taken as an empty filter and kept open (acknowledged first, no result until teardown).",
            mreq(rev, 4, "subscriptions/listen", {}), violations=["mcp.schema.request-params"],
            answer=any_of(err(-32602, id="4"),
                          {"stream": {"notification": "notifications/subscriptions/acknowledged",
                                      "meta_required": ["io.modelcontextprotocol/subscriptionId"]}}),
            basis=conv(C_32602))
        vec(f"{S}/y_acknowledged", "notifications/subscriptions/acknowledged carrying the subscription id in _meta.",
            nt("notifications/subscriptions/acknowledged", {"notifications": {"resourcesListChanged": True}, "_meta": {"io.modelcontextprotocol/subscriptionId": 4}}),
            sender="server", rules=["mcp.r5.subscription-id-meta"])
    if pre5:
        vec(f"{S}/y_subscriptions-listen-unknown", f"subscriptions/listen under {rev}: a 2026-07-28 method, answered -32601.",
            mreq(rev, 4, "subscriptions/listen", {"notifications": {}}), advisories=["mcp.method.other-revision"],
            answer=err(-32601, id="4"))

    # -- prompts ---------------------------------------------------------------------------
    Q = f"{base}/prompts"
    vec(f"{Q}/y_list", "prompts/list.", mreq(rev, 1, "prompts/list"), rules=["mcp.schema.request-params"],
        answer=res("prompts", id="1"))
    vec(f"{Q}/y_list-with-invalid-cursor", "prompts/list with a cursor the server never issued: Invalid cursors SHOULD result in an error with code -32602 (a result warns, never fails).",
        mreq(rev, 1, "prompts/list", {"cursor": "wirecheck-never-issued"}), rules=["mcp.schema.request-params"],
        answer=err(-32602, id="1"), needs={"capability": "prompts"},
        basis=must("mcp.error.invalid-cursor"))
    get = mreq(rev, 2, "prompts/get", {"name": "code_review", "arguments": {"code": "def f(): pass"}})
    vec(f"{Q}/y_get", "prompts/get with a name and arguments.", get, rules=["mcp.schema.request-params"],
        answer=res("messages", id="2"))
    vec(f"{Q}/n_get-without-name", "prompts/get without name (REQUIRED): -32602.", mreq(rev, 2, "prompts/get", {"arguments": {}}),
        violations=["mcp.schema.request-params"], answer=err(-32602, id="2"))
    vec(f"{Q}/n_get-arguments-not-strings", "prompts/get whose argument value is a number (arguments are strings).",
        mreq(rev, 2, "prompts/get", {"name": "code_review", "arguments": {"n": 1}}),
        violations=["mcp.schema.request-params"], answer=err(-32602, id="2"))
    vec(f"{Q}/y_get-result", "Exchange: prompts/get answered with one user message.", get, answer=res("messages", id="2"),
        reply=mres(rev, 2, {"description": "Code review", "messages": [{"role": "user", "content": {"type": "text", "text": "Review this"}}]}),
        reply_violations=[], rules=["mcp.schema.result"])
    vec(f"{Q}/n_get-result-without-messages", "Exchange: prompts/get answered without messages.", get,
        answer=res("messages", id="2"), reply=mres(rev, 2, {"description": "Code review"}), reply_violations=["mcp.schema.result"])
    # server/prompts §Image Content, §Audio Content, §Embedded Resources: binary
    # data is base64 with a MIME type; an embedded resource has a URI, a MIME
    # type and text or blob (mcp.content.base64, mcp.content.embedded-resource).
    def prompt(*blocks):
        return mres(rev, 2, {"messages": [{"role": "user", "content": b} for b in blocks]})
    png = {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
    vec(f"{Q}/y_get-result-image", "Exchange: prompts/get answered with base64 image data and its MIME type.", get,
        answer=res("messages", id="2"), reply=prompt(png), reply_violations=[], rules=["mcp.content.base64"])
    vec(f"{Q}/n_get-result-image-not-base64", "Exchange: prompts/get answered with image data that is not base64: the image data MUST be base64-encoded.", get,
        answer=res("messages", id="2"), reply=prompt(dict(png, data="not base64!")), reply_violations=["mcp.content.base64"])
    vec(f"{Q}/n_get-result-image-mime-type-invalid", "Exchange: prompts/get answered with image content whose mimeType is `png`: it MUST include a valid MIME type.", get,
        answer=res("messages", id="2"), reply=prompt(dict(png, mimeType="png")), reply_violations=["mcp.content.base64"])
    if i >= 1:
        wav = {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"}
        vec(f"{Q}/y_get-result-audio", "Exchange: prompts/get answered with base64 audio data and its MIME type.", get,
            answer=res("messages", id="2"), reply=prompt(wav), reply_violations=[], rules=["mcp.content.base64"])
        vec(f"{Q}/n_get-result-audio-not-base64", "Exchange: prompts/get answered with audio data with a line break inside: not base64 (RFC 4648 §3.1).", get,
            answer=res("messages", id="2"), reply=prompt(dict(wav, data="UklG\nRg==")), reply_violations=["mcp.content.base64"])
    embedded = {"type": "resource", "resource": {"uri": "resource://example", "mimeType": "text/plain", "text": "Resource content"}}
    vec(f"{Q}/y_get-result-embedded-resource", "Exchange: prompts/get answered with an embedded resource with URI, MIME type and text.", get,
        answer=res("messages", id="2"), reply=prompt(embedded), reply_violations=[], rules=["mcp.content.embedded-resource"])
    vec(f"{Q}/n_get-result-embedded-resource-without-mime-type", "Exchange: an embedded resource without mimeType: it MUST include the appropriate MIME type (the schema leaves it optional).", get,
        answer=res("messages", id="2"), reply=prompt({"type": "resource", "resource": {"uri": "resource://example", "text": "Resource content"}}),
        reply_violations=["mcp.content.embedded-resource"])
    vec(f"{Q}/n_get-result-embedded-resource-blob-not-base64", "Exchange: an embedded resource whose blob is not base64.", get,
        answer=res("messages", id="2"),
        reply=prompt({"type": "resource", "resource": {"uri": "resource://example", "mimeType": "application/octet-stream", "blob": "%%%"}}),
        reply_violations=["mcp.content.base64"])
    vec(f"{Q}/y_list-result", "Exchange: prompts/list answered with one prompt.", mreq(rev, 1, "prompts/list"),
        answer=res("prompts", id="1"),
        reply=mres(rev, 1, {"prompts": [{"name": "code_review", "arguments": [{"name": "code", "required": True}]}]}, cacheable=True),
        reply_violations=[], rules=["mcp.schema.result"])

    # -- completion --------------------------------------------------------------------------
    K = f"{base}/completion"
    comp = mreq(rev, 1, "completion/complete", {"ref": {"type": "ref/prompt", "name": "code_review"}, "argument": {"name": "language", "value": "py"}})
    vec(f"{K}/y_complete", "completion/complete for a prompt argument.", comp, rules=["mcp.schema.request-params"],
        answer=res("completion", id="1"))
    # 2024-11-05 has no `completions` capability to say whether the method is
    # there: a server without it answers -32601 ("The method does not exist /
    # is not available.", JSON-RPC 2.0 §5.1) before reading the params. From
    # 2025-03-26 the runner sends it only to a server declaring `completions`.
    no_ref_codes = (-32602, -32601) if rev == "2024-11-05" else (-32602,)
    vec(f"{K}/n_complete-without-ref", "completion/complete without ref (REQUIRED)." + (
        " Under 2024-11-05, which has no completions capability, -32601 (no such method) is an answer too." if rev == "2024-11-05" else ""),
        mreq(rev, 1, "completion/complete", {"argument": {"name": "language", "value": "py"}}),
        violations=["mcp.schema.request-params"], answer=err(*no_ref_codes, id="1"))
    # Only 2026-07-28's schema bounds `values` (`maxItems: 100`); before it the page
    # says "Maximum 100 items per response" with no keyword (mcp.completion.max-100-r1, MAY).
    max100 = "mcp.completion.max-100" if rev == R5 else "mcp.completion.max-100-r1"
    vec(f"{K}/y_complete-result", "Exchange: completion answered with values.", comp, answer=res("completion", id="1"),
        reply=mres(rev, 1, {"completion": {"values": ["python", "pytorch"], "total": 2, "hasMore": False}}),
        reply_violations=[], rules=["mcp.schema.result", max100])
    over = mres(rev, 1, {"completion": {"values": [f"v{n}" for n in range(101)]}})
    if rev == R5:
        vec(f"{K}/n_complete-result-over-100", "Exchange: 101 completion values: the schema's `maxItems: 100`.",
            comp, answer=res("completion", id="1"), reply=over, reply_violations=[max100])
    else:
        vec(f"{K}/y_complete-result-over-100", f"Exchange: 101 completion values: {rev} says \"Maximum 100 items per response\" with no keyword (reported at MAY, a note).",
            comp, answer=res("completion", id="1"), reply=over, reply_violations=[], reply_advisories=[max100])

    # -- _meta keys (named rules from 2025-06-18) -------------------------------------------
    if i >= 2:
        M = f"{base}/meta"
        vec(f"{M}/y_prefixed-key", "A _meta key with a reverse-DNS prefix.",
            mreq(rev, 1, "tools/list", {"_meta": {"com.example/trace-id": "t1"}}),
            rules=["mcp.meta.prefix-format", "mcp.meta.name-format"], answer=res("tools", id="1"))
        vec(f"{M}/n_prefix-label-starts-with-digit", "A _meta key whose prefix label starts with a digit: labels MUST start with a letter.",
            mreq(rev, 1, "tools/list", {"_meta": {"1example.com/trace": "t"}}), violations=["mcp.meta.prefix-format"],
            answer=res("tools", id="1"))
        vec(f"{M}/n_name-ends-with-hyphen", "A _meta key whose name ends with a hyphen: MUST begin and end with an alphanumeric character.",
            mreq(rev, 1, "tools/list", {"_meta": {"com.example/trace-": "t"}}), violations=["mcp.meta.name-format"],
            answer=res("tools", id="1"))
        reserved_rule = "mcp.meta.reserved-prefix-r3" if i == 2 else "mcp.meta.reserved-prefix-r4"
        reserved = "api.modelcontextprotocol.org" if i == 2 else "io.modelcontextprotocol"
        vec(f"{M}/y_reserved-prefix-used", f"A non-MCP key under the reserved prefix {reserved}/ (reported at SHOULD NOT).",
            mreq(rev, 1, "tools/list", {"_meta": {f"{reserved}/my-thing": 1}}), advisories=[reserved_rule],
            answer=res("tools", id="1"))
        if i == 2:
            vec(f"{M}/y_reserved-prefix-r3-dev-mcp", "mcp.dev/x: reserved under the 2025-06-18 rule (a label, then mcp, then a label).",
                mreq(rev, 1, "tools/list", {"_meta": {"mcp.dev/x": 1}}), advisories=[reserved_rule], answer=res("tools", id="1"))
        else:
            vec(f"{M}/y_reserved-prefix-r4-dev-mcp", "dev.mcp/x: reserved from 2025-11-25 (second label mcp).",
                mreq(rev, 1, "tools/list", {"_meta": {"dev.mcp/x": 1}}), advisories=[reserved_rule], answer=res("tools", id="1"))
            vec(f"{M}/y_not-reserved-com-example-mcp", "com.example.mcp/x: NOT reserved from 2025-11-25, the second label is example.",
                mreq(rev, 1, "tools/list", {"_meta": {"com.example.mcp/x": 1}}), rules=[reserved_rule],
                answer=res("tools", id="1"))
        vec(f"{M}/i_single-label-mcp-prefix", "mcp/x: a one-label prefix.",
            mreq(rev, 1, "tools/list", {"_meta": {"mcp/x": 1}}), rules=[reserved_rule], answer=res("tools", id="1"),
            ambiguity=amb("A12", "Is a one-label prefix such as mcp/ reserved?",
                          ["2025-06-18: \"Any prefix beginning with zero or more valid labels, followed by `modelcontextprotocol` or `mcp`, followed by any valid label, is **reserved**\" (mcp/ has no label after mcp).",
                           "2025-11-25: \"Any prefix where the second label is `modelcontextprotocol` or `mcp` is **reserved**\" (mcp/ has no second label), yet the intent to reserve MCP's names is plain."],
                          "Not reported: by the letter of every revision, mcp/ is not reserved."))
        if not pre5:
            vec(f"{M}/y_traceparent", "traceparent in _meta: the OpenTelemetry exception to the prefix rule, in W3C Trace Context form.",
                mreq(rev, 1, "tools/list", {"_meta": {"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}),
                rules=["mcp.meta.otel-exception"], answer=res("tools", id="1"))
            vec(f"{M}/n_traceparent-malformed", "traceparent that is not W3C Trace Context.",
                mreq(rev, 1, "tools/list", {"_meta": {"traceparent": "not-a-trace"}}), violations=["mcp.meta.otel-exception"],
                answer=res("tools", id="1"))

    # -- methods of another revision ------------------------------------------------------
    O = f"{base}/methods"
    if i < 3:
        vec(f"{O}/y_tasks-get-unknown", f"tasks/get under {rev}: a 2025-11-25 method (reported at SHOULD NOT); answered -32601.",
            mreq(rev, 1, "tasks/get", {"taskId": "t1"}), advisories=["mcp.method.other-revision"], answer=err(-32601, id="1"))
    if i == 3:
        vec(f"{O}/y_tasks-get", "tasks/get with a taskId the receiver created: `t1` stands for a task the peer issued (needs.task); task ids \"MUST be generated by the receiver\".",
            mreq(rev, 1, "tasks/get", {"taskId": "t1"}),
            rules=["mcp.schema.request-params"], answer=res("taskId", "status", "createdAt", "lastUpdatedAt", "ttl", id="1"))
        vec(f"{O}/y_tasks-get-nonexistent", "tasks/get for a taskId the receiver never created: Receivers MUST return -32602 for an invalid or nonexistent taskId.",
            mreq(rev, 1, "tasks/get", {"taskId": "wirecheck-never-issued"}), rules=["mcp.schema.request-params"],
            answer=err(-32602, id="1"), needs={"capability": "tasks"},
            basis=must("mcp.tasks.unknown-id"))
        vec(f"{O}/n_tasks-get-without-task-id", "tasks/get without taskId.", mreq(rev, 1, "tasks/get", {}),
            violations=["mcp.schema.request-params"], answer=err(-32602, id="1"))
        # basic/utilities/tasks §Related Task Metadata: `tasks/result` names its task
        # only in `_meta`; tasks/get, tasks/list, tasks/cancel and the status
        # notification name it in their structure, so the key is redundant there.
        related = {"_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t1"}}}
        result_req = mreq(rev, 5, "tasks/result", {"taskId": "t1"})
        result_answer = dict(answer=any_resp(id="5"),
                             basis=conv("tasks/result returns exactly what the underlying request would have "
                                        "returned (§Result Retrieval): a result or a JSON-RPC error"))
        got_task = res("taskId", "status", "createdAt", "lastUpdatedAt", "ttl", id="6")
        vec(f"{O}/y_tasks-result-related-task", "Exchange: tasks/result answered with the tool's result and `_meta` related-task naming the requested task.",
            result_req, **result_answer, reply=ok(5, {"content": TEXT, **related}), reply_violations=[],
            rules=["mcp.tasks.result-related-task"])
        vec(f"{O}/n_tasks-result-without-related-task", "Exchange: tasks/result answered without `_meta` related-task: the tasks/result operation MUST include it in its response.",
            result_req, **result_answer, reply=ok(5, {"content": TEXT}), reply_violations=["mcp.tasks.result-related-task"])
        vec(f"{O}/n_tasks-result-other-related-task", "Exchange: tasks/result for t1 answered with related-task naming t2: the key's taskId must match the task.",
            result_req, **result_answer, reply=ok(5, {"content": TEXT, "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t2"}}}),
            reply_violations=["mcp.tasks.result-related-task"])
        vec(f"{O}/y_tasks-result-error", "Exchange: tasks/result answered with the underlying request's JSON-RPC error: an error has no result `_meta`, so the related-task rule does not apply.",
            result_req, **result_answer, reply=fail(5, -32603, "The tool failed"), reply_violations=[],
            rules=["mcp.tasks.result-related-task"])
        vec(f"{O}/y_tasks-get-related-task", "tasks/get carrying `_meta` related-task: requestors SHOULD NOT include it, the taskId is in the params (reported, not a failure).",
            mreq(rev, 6, "tasks/get", {"taskId": "t1", **related}), advisories=["mcp.tasks.related-task-redundant"],
            answer=got_task)
        vec(f"{O}/y_tasks-status-related-task", "notifications/tasks/status carrying `_meta` related-task: it SHOULD NOT, the taskId is in the params (reported, not a failure).",
            nt("notifications/tasks/status", {"taskId": "t1", "status": "working", "createdAt": "2025-11-25T10:00:00Z",
                                              "lastUpdatedAt": "2025-11-25T10:00:00Z", "ttl": 60000, **related}),
            sender="server", advisories=["mcp.tasks.related-task-redundant"])
        vec(f"{O}/y_tasks-get-result-related-task", "Exchange: a tasks/get result carrying `_meta` related-task: receivers SHOULD NOT include it in tasks/get, tasks/list or tasks/cancel results (reported, not a failure).",
            mreq(rev, 6, "tasks/get", {"taskId": "t1"}), answer=got_task,
            reply=ok(6, {"taskId": "t1", "status": "working", "createdAt": "2025-11-25T10:00:00Z",
                         "lastUpdatedAt": "2025-11-25T10:00:00Z", "ttl": 60000, **related}),
            reply_violations=[], reply_advisories=["mcp.tasks.related-task-result-redundant"])
        # The `Task` a tasks/get or tasks/cancel result is: the one the request named
        # (§Associating Task-Related Messages), cancelled after tasks/cancel (§Task
        # Cancellation), and saying why when it failed (§Task Execution Errors).
        def task(task_id, status, **more):
            return {"taskId": task_id, "status": status, "createdAt": "2025-11-25T10:00:00Z",
                    "lastUpdatedAt": "2025-11-25T10:05:00Z", "ttl": 60000, **more}
        get_t1 = mreq(rev, 6, "tasks/get", {"taskId": "t1"})
        vec(f"{O}/y_tasks-get-result", "Exchange: tasks/get for t1 answered with task t1.",
            get_t1, answer=got_task, reply=ok(6, task("t1", "working")), reply_violations=[],
            rules=["mcp.tasks.task-id-source-of-truth"])
        vec(f"{O}/n_tasks-get-result-other-task", "Exchange: tasks/get for t1 answered with task t2: the request's taskId is the source of truth.",
            get_t1, answer=got_task, reply=ok(6, task("t2", "working")), reply_violations=["mcp.tasks.task-id-source-of-truth"])
        vec(f"{O}/n_tasks-get-related-task-followed", "Exchange: tasks/get for t1 carrying related-task t2, answered with task t2: receivers MUST ignore the metadata in favour of the taskId parameter.",
            mreq(rev, 6, "tasks/get", {"taskId": "t1", "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t2"}}}),
            answer=got_task, reply=ok(6, task("t2", "working")), advisories=["mcp.tasks.related-task-redundant"],
            reply_violations=["mcp.tasks.task-id-source-of-truth"])
        vec(f"{O}/y_tasks-get-result-failed", "Exchange: a failed task's tasks/get result with a statusMessage.",
            get_t1, answer=got_task, reply=ok(6, task("t1", "failed", statusMessage="Tool execution failed: API rate limit exceeded")),
            reply_violations=[], rules=["mcp.tasks.failed-status-message"])
        vec(f"{O}/y_tasks-get-result-failed-without-message", "Exchange: a failed task's tasks/get result without statusMessage: it SHOULD say why (reported, not a failure).",
            get_t1, answer=got_task, reply=ok(6, task("t1", "failed")), reply_violations=[],
            reply_advisories=["mcp.tasks.failed-status-message"])
        cancel_t1 = mreq(rev, 7, "tasks/cancel", {"taskId": "t1"})
        cancel_answer = dict(answer=any_resp(id="7"),
                             basis=conv("a task still running is cancelled (a Task result); one already terminal "
                                        "MUST be refused with -32602 (§Task Cancellation)"))
        vec(f"{O}/y_tasks-cancel-result", "Exchange: tasks/cancel answered with the task in status cancelled.",
            cancel_t1, **cancel_answer, reply=ok(7, task("t1", "cancelled")), reply_violations=[],
            rules=["mcp.tasks.cancel-result-cancelled", "mcp.tasks.task-id-source-of-truth"])
        vec(f"{O}/n_tasks-cancel-result-working", "Exchange: tasks/cancel answered with the task still working: receivers MUST transition the task to cancelled before sending the response.",
            cancel_t1, **cancel_answer, reply=ok(7, task("t1", "working")), reply_violations=["mcp.tasks.cancel-result-cancelled"])
        vec(f"{O}/y_tasks-cancel-refused", "Exchange: tasks/cancel refused with -32602 (a task already terminal): no result, so no status to judge.",
            cancel_t1, **cancel_answer, reply=fail(7, -32602, "Task t1 is already completed"), reply_violations=[],
            rules=["mcp.tasks.cancel-result-cancelled"])
    if i >= 3:
        # client/elicitation and client/sampling: what a server asks of the client,
        # as a request (2025-11-25) or an InputRequiredResult's input request
        # (2026-07-28), judged the same way (rules::server_requests).
        E = f"{base}/elicitation"
        Sa = f"{base}/sampling"

        def asks(method, params):
            if pre5:
                return rq(9, method, params)
            return ok(2, {"resultType": "input_required", "inputRequests": {"a": {"method": method, "params": params}}})
        how = "an elicitation/create request" if pre5 else "an InputRequiredResult asking"
        form = {"message": "Your name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}
        url_mode = {"mode": "url", "message": "Sign in", "url": "https://example.com/connect", "elicitationId": "e-1"}
        for verdict, slug, params, what in [
            ("y", "form-mode", form, "in form mode, with requestedSchema"),
            ("y", "url-mode", url_mode, "in URL mode, with message, url and elicitationId"),
            ("n", "form-mode-without-requested-schema", {"message": "Your name?"}, "in form mode without requestedSchema"),
            ("n", "url-mode-without-elicitation-id", {k: v for k, v in url_mode.items() if k != "elicitationId"}, "in URL mode without elicitationId"),
            ("n", "url-mode-invalid-url", dict(url_mode, url="example.com/connect"), "in URL mode whose url has no scheme: not a valid URL"),
            ("n", "mode-unknown", dict(form, mode="dialog"), "whose mode is neither form nor url"),
        ]:
            kw = {"violations": ["mcp.elicitation.mode-params"]} if verdict == "n" else {"rules": ["mcp.elicitation.mode-params"]}
            vec(f"{E}/{verdict}_request-{slug}", f"{how} {what}.", asks("elicitation/create", params), sender="server", **kw)
        def said(t):
            return {"type": "text", "text": t}
        use = {"type": "tool_use", "id": "u1", "name": "search", "input": {"q": "mcp"}}
        result = {"type": "tool_result", "toolUseId": "u1", "content": [said("found")]}
        tools = [{"name": "search", "inputSchema": {"type": "object"}}]

        def sampling(*messages):
            return {"messages": list(messages), "maxTokens": 100, "tools": tools}
        turn = [{"role": "user", "content": said("Search for mcp")}, {"role": "assistant", "content": [use]}]
        for verdict, slug, params, rule, what in [
            ("y", "tool-loop", sampling(*turn, {"role": "user", "content": [result]}), None, "a tool use answered by its tool result"),
            ("n", "tool-result-mixed", sampling(*turn, {"role": "user", "content": [result, said("and more")]}), "mcp.sampling.tool-results-only",
             "a user message mixing a tool result with text"),
            ("n", "tool-use-unanswered", sampling(*turn, {"role": "user", "content": said("never mind")}), "mcp.sampling.tool-use-balance",
             "a tool use followed by a user message without its result"),
            ("n", "tool-result-unknown-id", sampling(*turn, {"role": "user", "content": [dict(result, toolUseId="u2")]}), "mcp.sampling.tool-use-balance",
             "a tool result whose toolUseId matches no previous tool use"),
            # §Security Considerations 6 restates both constraints for the server's
            # reply to stopReason "toolUse"; these two rules are its single check.
            ("n", "tool-use-followed-by-assistant", sampling(*turn, {"role": "assistant", "content": said("Let me check.")}),
             "mcp.sampling.tool-use-balance", "a tool use followed by another assistant message, not by its result"),
        ]:
            kw = {"violations": [rule]} if rule else {"rules": ["mcp.sampling.tool-results-only", "mcp.sampling.tool-use-balance"]}
            sampling_how = "a sampling/createMessage request" if pre5 else "an InputRequiredResult asking for sampling"
            vec(f"{Sa}/{verdict}_request-{slug}", f"{sampling_how} with {what}.", asks("sampling/createMessage", params), sender="server", **kw)
        if pre5:
            # client/sampling §Tool Choice Modes (2025-11-25): "`{mode: "required"}`: Model MUST
            # use at least one tool before completing; `{mode: "none"}`: Model MUST NOT use any
            # tools". Judged on the client's answer (rules::tool_choice).
            text_answer = {"role": "assistant", "content": said("MCP is a protocol."), "model": "m", "stopReason": "endTurn"}
            tool_answer = {"role": "assistant", "content": [said("Searching."), use], "model": "m", "stopReason": "toolUse"}
            first = [{"role": "user", "content": said("Search for mcp")}]

            def choosing(mode, messages=first):
                return rq(9, "sampling/createMessage", dict(sampling(*messages), toolChoice={"mode": mode}))
            none_rule, required_rule = "mcp.sampling.tool-choice-none", "mcp.sampling.tool-choice-required"
            for verdict, slug, mode, messages, answer, rule, what in [
                ("n", "tool-choice-none-answered-with-tool-use", "none", first, tool_answer, none_rule,
                 "toolChoice none, answered with a tool use: the model MUST NOT use any tools"),
                ("y", "tool-choice-none-answered-with-text", "none", first, text_answer, none_rule, "toolChoice none, answered with text"),
                ("n", "tool-choice-required-answered-with-text", "required", first, text_answer, required_rule,
                 "toolChoice required and no tool used before, answered with text only: the model MUST use at least one tool before completing"),
                ("y", "tool-choice-required-answered-with-tool-use", "required", first, tool_answer, required_rule,
                 "toolChoice required, answered with a tool use"),
                ("y", "tool-choice-required-tool-used-before", "required", turn + [{"role": "user", "content": [result]}], text_answer,
                 required_rule, "toolChoice required, the history holding the model's tool use and its result, answered with text: a tool was used before completing"),
            ]:
                kw = {"reply_violations": [rule]} if verdict == "n" else {"reply_violations": [], "rules": [rule]}
                vec(f"{Sa}/{verdict}_{slug}", f"Exchange: a sampling/createMessage with {what}.", choosing(mode, messages),
                    sender="server", reply=ok(9, answer), **kw)
        if not pre5:
            vec(f"{Sa}/n_request-message-role-system", "an InputRequiredResult asking for sampling with a message of role system: roles are user or assistant.",
                asks("sampling/createMessage", {"messages": [{"role": "system", "content": said("hi")}], "maxTokens": 10}),
                sender="server", violations=["mcp.r5.sampling.message-shape"])
            vec(f"{Sa}/y_request-message-shape", "an InputRequiredResult asking for sampling with a user message.",
                asks("sampling/createMessage", {"messages": [{"role": "user", "content": said("hi")}], "maxTokens": 10}),
                sender="server", rules=["mcp.r5.sampling.message-shape", "mcp.r5.mrtr.input-request-type"])
            # basic/versioning §Extension Negotiation: identifiers are prefixed _meta key names.
            Ex = f"{base}/extensions"
            vec(f"{Ex}/y_client-extension-prefixed", "tools/list whose client capabilities advertise the extension io.modelcontextprotocol/ui.",
                mreq(rev, 1, "tools/list", {"_meta": {"io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/ui": {}}}}}),
                rules=["mcp.r5.extensions.identifier"], answer=res("tools", id="1"))
            vec(f"{Ex}/n_client-extension-without-prefix", "tools/list whose client capabilities advertise an extension named `ui`, without a prefix: identifiers MUST have one.",
                mreq(rev, 1, "tools/list", {"_meta": {"io.modelcontextprotocol/clientCapabilities": {"extensions": {"ui": {}}}}}),
                violations=["mcp.r5.extensions.identifier"], answer=res("tools", id="1"))
            vec(f"{Ex}/n_server-extension-bad-label", "a server/discover result whose capabilities advertise `-tasks.example/x`: a label starts with a letter.",
                ok(1, {"resultType": "complete", "supportedVersions": [rev], "capabilities": {"extensions": {"-tasks.example/x": {}}},
                       "serverInfo": SERVER_INFO, "ttlMs": 0, "cacheScope": "public"}),
                sender="server", violations=["mcp.r5.extensions.identifier"])
            vec(f"{base}/mrtr/n_input-request-tools-call", "an InputRequiredResult whose input request is a tools/call: only elicitation, sampling and roots requests may be asked.",
                ok(2, {"resultType": "input_required", "inputRequests": {"t": {"method": "tools/call", "params": {"name": "echo"}}}}),
                sender="server", violations=["mcp.r5.mrtr.input-request-type"])
    if i >= 2 and pre5:
        vec(f"{O}/y_elicitation-create", "elicitation/create from the server (form mode).",
            rq(9, "elicitation/create", {"message": "Your name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}),
            sender="server", rules=["mcp.schema.request-params"])
    if pre5:
        vec(f"{O}/y_roots-list", "roots/list from the server.", rq(10, "roots/list"), sender="server",
            rules=["mcp.schema.request-params"])
        vec(f"{O}/y_sampling-create-message", "sampling/createMessage from the server.",
            rq(11, "sampling/createMessage", {"messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}], "maxTokens": 100}),
            sender="server", rules=["mcp.schema.request-params"])
        vec(f"{O}/n_sampling-without-max-tokens", "sampling/createMessage without maxTokens (REQUIRED).",
            rq(11, "sampling/createMessage", {"messages": []}), sender="server", violations=["mcp.schema.request-params"])
        vec(f"{O}/y_roots-list-answered", "Exchange: the client answers roots/list with its roots.",
            rq(10, "roots/list"), sender="server", reply=ok(10, {"roots": [{"uri": "file:///home/user/project", "name": "project"}]}),
            reply_violations=[], rules=["mcp.schema.result"])
        vec(f"{O}/n_roots-list-answered-without-roots", "Exchange: the client answers roots/list without roots.",
            rq(10, "roots/list"), sender="server", reply=ok(10, {}), reply_violations=["mcp.schema.result"])
        vec(f"{O}/y_roots-list-answered-file-uri", "Exchange: the client answers roots/list with a file:// root.",
            rq(10, "roots/list"), sender="server", reply=ok(10, {"roots": [{"uri": "file:///home/user/project"}]}),
            reply_violations=[], rules=["mcp.roots.file-uri"])
        vec(f"{O}/n_roots-list-answered-https-uri", "Exchange: the client answers roots/list with an https:// root: a root MUST be a file:// URI.",
            rq(10, "roots/list"), sender="server", reply=ok(10, {"roots": [{"uri": "https://example.com/repo"}]}),
            reply_violations=["mcp.roots.file-uri"])
    if not pre5:
        vec(f"{O}/n_server-request-on-stdio", "A server-to-client request (roots/list) in 2026-07-28: the server MUST NOT write JSON-RPC requests; it uses MRTR.",
            rq(9, "roots/list"), sender="server", violations=["mcp.r5.stdio.no-server-requests"])
    vec(f"{O}/y_logging-message", "notifications/message from the server.", nt("notifications/message", {"level": "info", "data": "started"}),
        sender="server", rules=["mcp.schema.request-params"])
    vec(f"{O}/n_logging-message-without-level", "notifications/message without level.", nt("notifications/message", {"data": "x"}),
        sender="server", violations=["mcp.schema.request-params"])

    # -- closing the gap: sentences of conformance/spec/mapping.json ------------
    # server/utilities/logging §Error Handling: an unrecognized log level SHOULD get -32602.
    Lg = f"{base}/logging"
    if pre5:
        bad_level = mreq(rev, 1, "logging/setLevel", {"level": "verbose"})
    else:
        bad_level = mreq(rev, 1, "tools/list", {"_meta": {"io.modelcontextprotocol/logLevel": "verbose"}})
    where = "logging/setLevel with level \"verbose\"" if pre5 else "tools/list whose _meta io.modelcontextprotocol/logLevel is \"verbose\""
    vec(f"{Lg}/y_invalid-level-refused", f"Exchange: {where}, no log level; refused with -32602 (Invalid params).",
        bad_level, answer=err(-32602, id="1"), basis=must("mcp.logging.invalid-level"),
        reply=fail(1, -32602, "Invalid params"), reply_violations=[], rules=["mcp.logging.invalid-level"])
    vec(f"{Lg}/y_invalid-level-accepted", f"Exchange: {where} answered with a result: servers SHOULD reject it with -32602 (reported, not a failure).",
        bad_level, answer=err(-32602, id="1"), basis=must("mcp.logging.invalid-level"),
        reply=mres(rev, 1, {} if pre5 else {"tools": []}, cacheable=True), reply_violations=[],
        reply_advisories=["mcp.logging.invalid-level"])
    if not pre5:
        vec(f"{Lg}/n_message-on-subscription", "notifications/message carrying io.modelcontextprotocol/subscriptionId: log messages are request-scoped and MUST NOT travel on a subscriptions/listen stream.",
            nt("notifications/message", {"level": "info", "data": "x", **SUB_META}), sender="server",
            violations=["mcp.r5.logging.not-on-subscription"])
        vec(f"{Lg}/y_message-for-request", "notifications/message without a subscription id: on the stream of the request that set the log level.",
            nt("notifications/message", {"level": "info", "data": "x"}), sender="server",
            rules=["mcp.r5.logging.not-on-subscription", "mcp.schema.request-params"])
        # basic/index §_meta: a notification delivered on a subscription stream carries its id.
        Sb = f"{base}/subscriptions"
        for method, params in [("notifications/tools/list_changed", {}), ("notifications/prompts/list_changed", {}),
                               ("notifications/resources/list_changed", {}),
                               ("notifications/resources/updated", {"uri": "file:///a.txt"})]:
            slug = method.split("/", 1)[1].replace("/", "-").replace("_", "-")
            vec(f"{Sb}/n_{slug}-without-subscription-id", f"{method} without io.modelcontextprotocol/subscriptionId in _meta: in 2026-07-28 it travels only on a subscriptions/listen stream, so it MUST carry the id.",
                nt(method, params or None), sender="server", violations=["mcp.r5.subscription-id-notifications"])
            vec(f"{Sb}/y_{slug}-with-subscription-id", f"{method} carrying the subscription id in _meta.",
                nt(method, {**params, **SUB_META}), sender="server",
                rules=["mcp.r5.subscription-id-notifications"])
        # server/utilities/caching §Time-to-live: ttlMs >= 0.
        Ca = f"{base}/caching"
        vec(f"{Ca}/n_ttl-negative", "Exchange: tools/list answered with ttlMs -1: servers MUST provide a ttlMs value that is >= 0.",
            mreq(rev, 1, "tools/list"), answer=res("tools", id="1"),
            reply=ok(1, {"tools": [], "resultType": "complete", "ttlMs": -1, "cacheScope": "public"}),
            reply_violations=["mcp.r5.cache.ttl-non-negative"])
        vec(f"{Ca}/y_ttl-zero", "Exchange: tools/list answered with ttlMs 0: immediately stale, and allowed.",
            mreq(rev, 1, "tools/list"), answer=res("tools", id="1"),
            reply=ok(1, {"tools": [], "resultType": "complete", "ttlMs": 0, "cacheScope": "private"}),
            reply_violations=[], rules=["mcp.r5.cache.ttl-non-negative"])
        # basic/patterns/mrtr §Server Requirements: input requests only for declared capabilities.
        Mr = f"{base}/mrtr"
        ask = {"method": "elicitation/create", "params": {"message": "Which repository?", "requestedSchema": {"type": "object", "properties": {"repo": {"type": "string"}}}}}
        ask_url = {"method": "elicitation/create", "params": {"mode": "url", "message": "Sign in", "url": "https://example.com/login", "elicitationId": "e-1"}}
        sample = {"method": "sampling/createMessage", "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 10}}
        sample_tools = {"method": "sampling/createMessage", "params": {**sample["params"], "tools": [{"name": "search", "inputSchema": {"type": "object"}}]}}
        roots = {"method": "roots/list"}

        def call_with(caps):
            return mreq(rev, 2, "tools/call", {"name": "echo", "arguments": {"text": "hi"},
                                               "_meta": {"io.modelcontextprotocol/clientCapabilities": caps}})

        def asking(**requests):
            return ok(2, {"resultType": "input_required", "inputRequests": requests})

        cases = [
            ("n", "elicitation-undeclared", {}, {"ask": ask}, "an elicitation/create input request, but the request declares no elicitation capability"),
            ("y", "elicitation-form-declared-empty", {"elicitation": {}}, {"ask": ask}, "a form-mode elicitation; the request declares elicitation: {} (form mode)"),
            ("n", "elicitation-url-undeclared", {"elicitation": {"form": {}}}, {"login": ask_url}, "a URL-mode elicitation; the request declares form mode only"),
            ("y", "elicitation-url-declared", {"elicitation": {"url": {}}}, {"login": ask_url}, "a URL-mode elicitation; the request declares elicitation.url"),
            ("n", "sampling-undeclared", {"roots": {}}, {"s": sample}, "a sampling/createMessage input request, but the request declares no sampling capability"),
            ("n", "sampling-tools-undeclared", {"sampling": {}}, {"s": sample_tools}, "a tool-enabled sampling request, but the request does not declare sampling.tools"),
            ("y", "sampling-tools-declared", {"sampling": {"tools": {}}}, {"s": sample_tools}, "a tool-enabled sampling request; the request declares sampling.tools"),
            ("n", "roots-undeclared", {"sampling": {}}, {"r": roots}, "a roots/list input request, but the request declares no roots capability"),
            ("y", "roots-declared", {"roots": {}}, {"r": roots}, "a roots/list input request; the request declares roots"),
        ]
        for verdict, slug, caps, requests, what in cases:
            kw = ({"reply_violations": ["mcp.r5.mrtr.input-requests-declared"]} if verdict == "n"
                  else {"reply_violations": [], "rules": ["mcp.r5.mrtr.input-requests-declared"]})
            vec(f"{Mr}/{verdict}_input-requests-{slug}", f"Exchange: tools/call answered with an InputRequiredResult holding {what}.",
                call_with(caps), answer=res("content", id="2"), reply=asking(**requests), **kw)
        sample_ctx = {"method": "sampling/createMessage", "params": {**sample["params"], "includeContext": "thisServer"}}
        vec(f"{Mr}/y_input-requests-include-context-undeclared", "Exchange: an InputRequiredResult asking for sampling with includeContext \"thisServer\"; the request declares sampling but not sampling.context (SHOULD NOT: reported, not a failure).",
            call_with({"sampling": {}}), answer=res("content", id="2"), reply=asking(s=sample_ctx), reply_violations=[],
            reply_advisories=["mcp.r5.mrtr.include-context-declared"])
        vec(f"{Mr}/y_input-requests-include-context-declared", "Exchange: an InputRequiredResult asking for sampling with includeContext \"thisServer\"; the request declares sampling.context.",
            call_with({"sampling": {"context": {}}}), answer=res("content", id="2"), reply=asking(s=sample_ctx), reply_violations=[],
            rules=["mcp.r5.mrtr.include-context-declared"])


def json_schema(rev):
    """basic/index §JSON Schema Usage (2025-11-25 on): every schema a server sends
    is valid in its declared or default dialect (mcp.json-schema.valid per frame,
    mcp.json-schema.tools-valid on a tools/list exchange), and schema
    `ToolResultContent.structuredContent` SHOULD conform to its tool's outputSchema
    (mcp.sampling.tool-result-conform). Judged with the jsonschema crate."""
    d = f"mcp/{rev}/json-schema"
    pre5 = rev != R5
    valid, tools_valid, conform = "mcp.json-schema.valid", "mcp.json-schema.tools-valid", "mcp.sampling.tool-result-conform"
    misspelt = {"type": "object", "properties": {"city": {"type": "strnig"}}}
    by_ref = {"type": "object", "$defs": {"c": {"type": "number", "minimum": -273.15}},
              "properties": {"temperature": {"$ref": "#/$defs/c"}}, "required": ["temperature"]}
    tuple07 = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
               "properties": {"pair": {"type": "array", "items": [{"type": "string"}, {"type": "number"}]}}}

    def listing(*tools):
        return mres(rev, 1, {"tools": list(tools)}, cacheable=True)
    lst = dict(frame=mreq(rev, 1, "tools/list"), answer=res("tools", id="1"))
    for verdict, slug, tool, what in [
        ("y", "schemas-valid", {"name": "weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}, "outputSchema": by_ref},
         "an inputSchema and an outputSchema (a local $ref, a minimum) valid in 2020-12, the default dialect"),
        ("y", "schema-declared-draft-07", {"name": "pair", "inputSchema": tuple07},
         "an inputSchema declaring draft-07, whose array-form items is valid there (2020-12 would refuse it)"),
        ("y", "schema-dialect-unknown", {"name": "odd", "inputSchema": {"$schema": "https://example.com/my-dialect", "type": "object", "properties": {"city": {"type": "strnig"}}}},
         "an inputSchema declaring a dialect wirecheck does not know: not judged, neither valid nor invalid"),
        ("n", "input-schema-invalid", {"name": "weather", "inputSchema": misspelt},
         "an inputSchema whose property type is \"strnig\": no valid 2020-12 schema"),
        ("n", "output-schema-invalid", {"name": "weather", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "required": "temperature"}},
         "an outputSchema whose required is a string, not an array"),
        ("n", "schema-draft-07-read-as-2020-12", {"name": "pair", "inputSchema": {k: v for k, v in tuple07.items() if k != "$schema"}},
         "an inputSchema without $schema using draft-07's array-form items: read as 2020-12 (the default), it is invalid"),
    ]:
        kw = {"reply_violations": [tools_valid]} if verdict == "n" else {"reply_violations": [], "rules": [tools_valid]}
        vec(f"{d}/{verdict}_tools-list-{slug}", f"Exchange: tools/list answered with {what}.", lst["frame"],
            answer=lst["answer"], reply=listing(tool), **kw)

    def asks(method, params):
        if pre5:
            return rq(9, method, params)
        return ok(2, {"resultType": "input_required", "inputRequests": {"a": {"method": method, "params": params}}})
    how = "an elicitation/create request" if pre5 else "an InputRequiredResult asking for elicitation"
    vec(f"{d}/y_elicitation-requested-schema-valid", f"{how} whose requestedSchema is valid 2020-12.",
        asks("elicitation/create", {"message": "Your city?", "requestedSchema": {"type": "object", "properties": {"city": {"type": "string", "minLength": 1}}}}),
        sender="server", rules=[valid])
    vec(f"{d}/n_elicitation-requested-schema-invalid", f"{how} whose requestedSchema gives a property the type \"strnig\".",
        asks("elicitation/create", {"message": "Your city?", "requestedSchema": misspelt}), sender="server", violations=[valid])

    def said(t):
        return {"type": "text", "text": t}
    use = {"type": "tool_use", "id": "u1", "name": "weather", "input": {"city": "Paris"}}
    weather = {"name": "weather", "inputSchema": {"type": "object"}, "outputSchema": by_ref}

    def sampling(tool, structured, **extra):
        result = {"type": "tool_result", "toolUseId": "u1", "content": [said("done")], **extra}
        if structured is not None:
            result["structuredContent"] = structured
        return {"messages": [{"role": "user", "content": said("Weather in Paris?")}, {"role": "assistant", "content": [use]},
                             {"role": "user", "content": [result]}], "maxTokens": 100, "tools": [tool]}
    sh = "a sampling/createMessage request" if pre5 else "an InputRequiredResult asking for sampling"
    vec(f"{d}/n_sampling-tool-schema-invalid", f"{sh} whose tool's inputSchema gives a property the type \"strnig\".",
        asks("sampling/createMessage", sampling({"name": "weather", "inputSchema": misspelt}, None)), sender="server", violations=[valid])
    vec(f"{d}/y_sampling-tool-result-conforms", f"{sh} whose tool result's structuredContent conforms to the tool's outputSchema (a local $ref).",
        asks("sampling/createMessage", sampling(weather, {"temperature": 21.5})), sender="server", rules=[valid, conform])
    vec(f"{d}/y_sampling-tool-result-breaks-output-schema", f"{sh} whose tool result's structuredContent says temperature -300, below the outputSchema's minimum (SHOULD: reported, not a failure).",
        asks("sampling/createMessage", sampling(weather, {"temperature": -300})), sender="server", rules=[valid], advisories=[conform])
    vec(f"{d}/y_sampling-tool-result-error-not-judged", f"{sh} whose tool result is isError: true: a failed use is not the tool's output, so its structuredContent is not judged.",
        asks("sampling/createMessage", sampling(weather, {"error": "no such city"}, isError=True)), sender="server", rules=[conform])


def probes27(rev):
    """The probes of every MCP revision: malformed input (MCP is JSON-RPC, so
    its parse-error and invalid-Request answers hold for every revision's server),
    invalid requests built on frames that would otherwise succeed, a prompt and a
    resource URI the server did not list, a request before `initialize`."""
    base = f"mcp/{rev}"
    i = idx(rev)
    pre5 = rev != R5
    # An error for a frame whose id could not be read carries `"id": null` (JSON-RPC 2.0
    # §5); from 2025-03-26 MCP lets an error leave the id out (A2: mcp.base.error-id-absent,
    # and 2025-11-25 basic/index), and which ids an error may carry is decided in one
    # place, by the rule model: here the id is pinned only for 2024-11-05, whose schema
    # and JSON-RPC agree an error carries one. An invalid request whose id is readable may
    # be answered with that id or with null (JSON-RPC 2.0 §5: null "if there was an error
    # in detecting the id").
    # 2026-07-28 over Streamable HTTP: a body whose method cannot be read has no
    # `Mcp-Method` header to match, and "required headers are missing" is answered
    # -32020 HeaderMismatch (basic/transports/streamable-http §Server Validation), so
    # that code is accepted beside JSON-RPC's.
    extra = (-32020,) if rev == R5 else ()

    def unreadable(code):
        return err(code, id="null") if i == 0 else err(code, *extra)

    def readable(code, ident, more=()):
        codes = (code, *more)
        return any_of(err(*codes, id="null"), err(*codes, id=str(ident))) if i == 0 else err(*codes, *extra)

    M = f"{base}/malformed"
    # A frame that would succeed: a method every server of the revision has, with params
    # (ping up to 2025-11-25; 2026-07-28 has no ping, and every request carries `_meta`,
    # so tools/list, which the runner plays only where `tools` is declared).
    method = "ping" if pre5 else "tools/list"

    def good(ident):
        return mreq(rev, ident, method, {})

    vec(f"{M}/n_invalid-json", "A tools/list request cut short: not JSON. JSON-RPC 2.0 §5.1: -32700 Parse error, with id null (§5).",
        '{"jsonrpc":"2.0","id":2701,"method":"tools/list","params":{"cursor"',
        refused=("json.syntax", ""), answer=unreadable(-32700))
    # From 2025-06-18 batches are gone: what a receiver owes an array is the
    # stance every batch vector of these revisions takes (A5,
    # mcp.batch.refused-after-removal, SHOULD: an error), so `[]` and `[1]`
    # are held to no more than an array of requests is; -32600 is still the
    # code JSON-RPC 2.0 §5.1 names, another warns under its own rule.
    after_removal = {} if i <= 1 else {"basis": must("mcp.batch.refused-after-removal")}
    vec(f"{M}/n_batch-empty", "An empty array: JSON-RPC 2.0 §6 and §7, a single -32600 Invalid Request, not an array"
        + ("." if i <= 1 else f"; batches are gone from {rev}, so an array is answered as every batch after their removal is (an error, SHOULD: A5)."),
        "[]", refused=("jsonrpc.batch-empty", ""), answer=unreadable(-32600), **after_removal)
    one_bad = batch(unreadable(-32600)) if i <= 1 else any_of(batch(unreadable(-32600)), unreadable(-32600))
    vec(f"{M}/n_batch-of-a-number", "[1]: an array whose element is no request; JSON-RPC 2.0 §7 answers an array of one -32600"
        + ("." if i <= 1 else f"; batches are gone from {rev}, so an array is answered as every batch after their removal is (an error, SHOULD: A5), alone or in an array."),
        "[1]", refused=("jsonrpc.frame-type", "/0"), answer=one_bad, **after_removal)
    vec(f"{M}/n_frame-number", "42: JSON, but no request object (JSON-RPC 2.0 §4): -32600 Invalid Request.",
        "42", refused=("jsonrpc.frame-type", ""), answer=unreadable(-32600))
    vec(f"{M}/n_frame-empty-object", "{}: an object with none of a request's members: -32600 Invalid Request (JSON-RPC 2.0 §7 answers {\"foo\": \"boo\"} so).",
        "{}", refused=("jsonrpc.version-missing", ""), answer=unreadable(-32600))
    vec(f"{M}/n_id-bool", f"A {method} request whose id is true: an id MUST be a String, Number, or Null (JSON-RPC 2.0 §4); unreadable, so -32600 with id null.",
        text(good(1)).replace('"id":1,', '"id":true,'), refused=("jsonrpc.id-type", "/id"), answer=unreadable(-32600))
    # Built on a request that would succeed, so a lenient server's fallback is reached:
    # some execute a request without "jsonrpc" as JSON-RPC 1.0 and answer without "jsonrpc".
    vec(f"{M}/n_version-missing", f"A {method} request without \"jsonrpc\" (REQUIRED, JSON-RPC 2.0 §4): -32600, not the method's result, and never an answer without \"jsonrpc\" (a JSON-RPC 1.0 fallback).",
        text(good(2702)).replace('"jsonrpc":"2.0",', ""), refused=("jsonrpc.version-missing", ""), answer=readable(-32600, 2702))
    vec(f"{M}/n_version-1.0", f"A {method} request with \"jsonrpc\": \"1.0\": MUST be exactly \"2.0\" (JSON-RPC 2.0 §4): -32600, not the method's result.",
        text(good(2703)).replace('"jsonrpc":"2.0"', '"jsonrpc":"1.0"'), refused=("jsonrpc.version-invalid", "/jsonrpc"), answer=readable(-32600, 2703))
    vec(f"{M}/n_method-not-string", "A request whose method is the number 1, with an id and params: -32600 Invalid Request (JSON-RPC 2.0 §7's example).",
        text(good(2704)).replace(f'"method":"{method}"', '"method":1'), refused=("jsonrpc.method-type", "/method"), answer=readable(-32600, 2704))
    for slug, value, ident in [("string", '"bar"', 2705), ("number", "3", 2706)]:
        vec(f"{M}/n_params-{slug}", f"A {method} request whose params is {value}: params MUST be a Structured value (JSON-RPC 2.0 §4.2): -32600, or -32602 (§5.1 names both meanings).",
            text(good(ident)).replace('"params":{', f'"params":{value},"x":{{'), refused=("jsonrpc.params-type", "/params"),
            answer=readable(-32600, ident, more=(-32602,)))

    # -- a prompt and a resource the server did not list (the runner makes sure it did not)
    vec(f"{base}/prompts/y_get-unlisted", "prompts/get naming a prompt the server did not list: server/prompts §Error Handling, \"Invalid prompt name: -32602 (Invalid params)\" (SHOULD; another code or a result warns).",
        mreq(rev, 2707, "prompts/get", {"name": "wirecheck-unlisted-prompt"}), answer=err(-32602, id="2707"),
        basis=must("mcp.prompts.get-invalid-params"), needs={"capability": "prompts"})
    if pre5:
        vec(f"{base}/resources/y_read-unlisted", "resources/read of a URI the server did not list, in a scheme no server serves: server/resources §Error Handling, \"Resource not found: -32002\" (SHOULD; another code or a result warns).",
            mreq(rev, 2708, "resources/read", {"uri": "wirecheck-unlisted:///nothing"}), answer=err(-32002, id="2708"),
            basis=must("mcp.error.code.resource-not-found-32002"), needs={"capability": "resources"})
    else:
        vec(f"{base}/resources/y_read-unlisted", "resources/read of a URI the server did not list, in a scheme no server serves: 2026-07-28 server/resources §Error Handling, \"If the requested resource does not exist, servers MUST return a JSON-RPC error with code -32602 (Invalid Params).\" (MUST: another code or a result fails; the retired -32002 too).",
            mreq(rev, 2708, "resources/read", {"uri": "wirecheck-unlisted:///nothing"}), answer=err(-32602, id="2708"),
            basis=must("mcp.error.code.resource-not-found-32602"), needs={"capability": "resources"})

    # -- a request before initialize (2026-07-28 has no initialize)
    if pre5:
        vec(f"{base}/lifecycle/i_request-before-initialize", "tools/list as the first frame of a session, before initialize. The client SHOULD NOT send it; the lifecycle page says nothing of what the server does, and JSON-RPC 2.0 §5 asks a reply to every call: any response passes, silence warns.",
            mreq(rev, 2709, "tools/list"), rules=["mcp.lifecycle.client-pre-init-requests"], answer=any_resp(id="2709"),
            basis=must("jsonrpc.response.required"), needs={"opening": True},
            ambiguity=amb("pre-init", "What does a server owe a request sent before initialize?",
                          [f"MCP {rev} basic/lifecycle §Initialization: \"The initialization phase **MUST** be the first interaction between client and server.\" and \"The client **SHOULD NOT** send requests other than pings before the server has responded to the `initialize` request.\" (nothing on the server's side)",
                           "JSON-RPC 2.0 §5: \"When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications.\""],
                          "A result or any error passes (no sentence picks one); silence is reported as a warning, never a failure: the client broke the lifecycle first, and the MCP text gives the server no MUST here.",
                          reply_in_question=True))


def main():
    jsonrpc()
    for rev in REVS:
        mcp(rev)
        probes27(rev)
        if idx(rev) >= 3:
            json_schema(rev)
    check = "--check" in sys.argv[1:]
    wanted = {}
    for path, v in VECTORS.items():
        wanted[os.path.join(HERE, path + ".json")] = json.dumps(v, indent=2, ensure_ascii=False) + "\n"
    existing = set()
    for top in ("jsonrpc-2.0", "mcp"):
        for dirpath, _, files in os.walk(os.path.join(HERE, top)):
            existing.update(os.path.join(dirpath, f) for f in files)
    stale = sorted(existing - set(wanted))
    changed = [p for p, body in sorted(wanted.items())
               if not os.path.exists(p) or open(p, encoding="utf-8").read() != body]
    if check:
        for p in stale + changed:
            print(f"stale: {os.path.relpath(p, HERE)}")
        if stale or changed:
            print("regenerate with: python3 conformance/vectors/generate.py")
            sys.exit(1)
        print(f"{len(wanted)} vectors up to date")
        return
    for p in stale:
        os.remove(p)
    for p in changed:
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8") as f:
            f.write(wanted[p])
    for top in ("jsonrpc-2.0", "mcp"):
        for dirpath, dirs, files in os.walk(os.path.join(HERE, top), topdown=False):
            if not os.listdir(dirpath):
                os.rmdir(dirpath)
    print(f"{len(wanted)} vectors: {len(changed)} written, {len(stale)} removed")


if __name__ == "__main__":
    main()
