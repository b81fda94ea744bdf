#!/usr/bin/env bash
# Judges the official TypeScript and Python SDK clients (pinned and installed by
# ../official/install.sh) with `wirecheck run-client`: each driver script here against the
# judged reference peer over stdio and over Streamable HTTP (`run-client --transport http`: the
# peer in wirecheck's own process on 127.0.0.1, its URL the client's last argument), every
# scenario. Each run's outcomes (one per judge finding and per scenario) are held to its
# committed baseline, <client>.<transport>.json, checked by hand against the spec (README.md
# here); any difference fails. Usage:
#   conformance/peers/clients/run.sh [RESULTS_DIR]     (needs `cargo build --release -p wirecheck`)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# wirecheck, node, python, results, each checked.
source "$here/../official/clients-env.sh" "$@"

# One run: the report document, reduced to its outcomes, against the baseline.
judge() {
  local name="$1" transport="$2"; shift 2
  local rc=0
  timeout 90 "$wirecheck" run-client --transport "$transport" --timeout 60s --out "$results/$name.json" -q -- "$@" \
    >"$results/$name.out" 2>"$results/$name.err" || rc=$?
  if [[ ! -s "$results/$name.json" ]]; then
    echo "FAIL $name: no report (exit $rc); see $results/$name.err" >&2; cat "$results/$name.err" >&2
    return 1
  fi
  python3 - "$results/$name.json" "$here/$name.json" "$rc" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
seen = sorted(
    [r.get("vector") or r.get("check", {}).get("rule") or r.get("file"), r.get("outcome", {}).get("outcome")]
    for r in doc["records"]
)
want = json.load(open(sys.argv[2]))
got = {"exit": int(sys.argv[3]), "outcomes": seen}
if got != {"exit": want["exit"], "outcomes": sorted(want["outcomes"])}:
    print(f"FAIL {sys.argv[2]}: expected {json.dumps({'exit': want['exit'], 'outcomes': want['outcomes']})}\n     got {json.dumps(got)}")
    sys.exit(1)
print(f"ok   {sys.argv[2].rsplit('/', 1)[1]}: exit {got['exit']}, " + ", ".join(f"{k} {v}" for k, v in seen))
PY
}

failed=0
judge ts-sdk.stdio stdio "$node" "$here/ts-client.mjs" stdio || failed=1
judge python-sdk.stdio stdio "$python" "$here/py-client.py" stdio || failed=1
judge ts-sdk.http http "$node" "$here/ts-client.mjs" http || failed=1
judge python-sdk.http http "$python" "$here/py-client.py" http || failed=1
# 2026-07-28, session-free (no initialize): only the Python SDK adopts it (`--mode`).
judge python-sdk.http-2026-07-28 http "$python" "$here/py-client.py" --mode 2026-07-28 http || failed=1
exit "$failed"
