#!/usr/bin/env bash
# Judges the official TypeScript and Python SDK clients' OAuth flows (pinned and installed
# by ../official/install.sh) with `wirecheck run-client --transport http --auth`: each
# driver here (ts-client.mjs, py-client.py) against the judged protected peer and
# wirecheck's authorization server on 127.0.0.1, under the default setup and each
# `--auth-scenario` (step-up-refused, no-pkce-metadata; wrong-iss for the Python SDK). Each run's outcomes (every record:
# the sessions', the scenarios' and the mcp.auth.client-* ones) are held to its committed
# baseline, <client>.<setup>.json here, whose authorization findings were checked by hand
# against the spec (conformance/book/authorization.md, the client side); any difference
# fails. About 10 s. Usage:
#   conformance/peers/auth/clients.sh [RESULTS_DIR]     (needs `cargo build --release -p wirecheck`)
#   BLESS=1 conformance/peers/auth/clients.sh           rewrites the baselines (check them by hand)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# wirecheck, node, python, results, each checked.
source "$here/../official/clients-env.sh" "$@"

# One run: NAME, the setup (default or an --auth-scenario), then the client's command.
judge() {
  local name="$1" setup="$2"; shift 2
  local rc=0 options=()
  if [[ $setup != default ]]; then options=(--auth-scenario "$setup"); fi
  timeout 90 "$wirecheck" run-client --transport http --auth "${options[@]}" --timeout 60s \
    --out "$results/$name.json" -q -- "$@" >"$results/$name.out" 2>"$results/$name.err" || rc=$?
  if [[ ! -s "$results/$name.json" ]]; then
    echo "FAIL $name: no report (exit $rc); see $results/$name.err" >&2; cat "$results/$name.err" >&2
    return 1
  fi
  python3 - "$results/$name.json" "$here/$name.json" "$rc" "${BLESS:-}" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
seen = sorted(
    [r.get("vector") or r.get("check", {}).get("rule") or r.get("file"), r.get("outcome", {}).get("outcome")]
    for r in doc["records"]
)
got = {"exit": int(sys.argv[3]), "outcomes": seen}
if sys.argv[4]:
    json.dump(got, open(sys.argv[2], "w"), indent=1)
    open(sys.argv[2], "a").write("\n")
want = json.load(open(sys.argv[2]))
if got != {"exit": want["exit"], "outcomes": sorted(want["outcomes"])}:
    print(f"FAIL {sys.argv[2]}: expected {json.dumps({'exit': want['exit'], 'outcomes': want['outcomes']})}\n     got {json.dumps(got)}")
    sys.exit(1)
auth = [f"{v.removeprefix('auth/')} {o}" for v, o in seen if v.startswith("auth/")]
print(f"ok   {sys.argv[2].rsplit('/', 1)[1]}: exit {got['exit']}; " + ", ".join(auth))
PY
}

failed=0
judge ts-client.default default "$node" "$here/ts-client.mjs" || failed=1
judge ts-client.step-up-refused step-up-refused "$node" "$here/ts-client.mjs" --step-up-refused || failed=1
judge ts-client.no-pkce-metadata no-pkce-metadata "$node" "$here/ts-client.mjs" || failed=1
judge py-client.default default "$python" "$here/py-client.py" || failed=1
judge py-client.step-up-refused step-up-refused "$python" "$here/py-client.py" --step-up-refused || failed=1
judge py-client.no-pkce-metadata no-pkce-metadata "$python" "$here/py-client.py" || failed=1
# `iss` is judged from 2026-07-28 (basic/authorization §Authorization Response Validation),
# which only the Python SDK speaks.
judge py-client.wrong-iss wrong-iss "$python" "$here/py-client.py" --wrong-iss || failed=1
exit "$failed"
