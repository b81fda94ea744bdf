#!/usr/bin/env bash
# The official MCP conformance suite against the zoo's one SDK server it can reach, side
# by side with wirecheck's findings on the same server: the suite's server mode takes a
# URL only (`conformance server --url`), so of the zoo's SDK servers it applies to
# server-everything over Streamable HTTP alone (the TypeScript SDK); the stdio servers
# (TypeScript, Python and Rust SDKs) are out of its reach.
#
#   conformance/peers/zoo/official.sh            # prints one line per scenario and revision
#
# Starts server-everything (../node_modules, pinned by ../install.sh) on a free
# 127.0.0.1 port, runs `conformance server --suite all --spec-version R` for each
# revision the suite covers (2025-06-18, 2025-11-25), and prints each scenario's outcome
# with the suite's first non-passing message. The suite (pinned by ../official/install.sh)
# is the only judge here; exits 0 once both runs were made, 2 when they could not be.
# Compare with `wirecheck matrix zoo.toml --server server-everything-http` (this folder's
# README, "What no other tool reports").
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
official="$here/../official"
"$official/install.sh" >/dev/null
[[ -d $here/../node_modules/@modelcontextprotocol/server-everything ]] || "$here/../install.sh" >/dev/null
node="$official/node_modules/node/bin/node"
suite="$official/node_modules/@modelcontextprotocol/conformance/dist/index.js"

results="$(mktemp -d "${TMPDIR:-/tmp}/wirecheck-zoo-official.XXXXXX")"
server_pid=""
cleanup() {
  if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$results"
}
trap cleanup EXIT
trap 'exit 2' INT TERM HUP

# A free port: bound by the kernel, released, then handed to the server (it binds every
# interface and takes no host setting; only 127.0.0.1 is ever reached).
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
PORT="$port" "$node" "$here/../node_modules/@modelcontextprotocol/server-everything/dist/index.js" streamableHttp \
  >"$results/server.log" 2>&1 &
server_pid=$!
deadline=$((SECONDS + 20))
until python3 -c "import socket; socket.create_connection(('127.0.0.1',$port),1)" 2>/dev/null; do
  if ! kill -0 "$server_pid" 2>/dev/null || ((SECONDS >= deadline)); then
    echo "official.sh: server-everything did not listen on 127.0.0.1:$port:" >&2
    cat "$results/server.log" >&2
    exit 2
  fi
  sleep 0.2
done

for revision in 2025-06-18 2025-11-25; do
  # The suite exits non-zero when a scenario fails; that is its verdict, read below.
  "$node" "$suite" server --url "http://127.0.0.1:$port/mcp" --suite all \
    --spec-version "$revision" -o "$results/$revision" >"$results/$revision.txt" 2>&1 || true
  [[ -d $results/$revision ]] || { echo "official.sh: the suite made no results for $revision:" >&2; cat "$results/$revision.txt" >&2; exit 2; }
done

python3 - "$results" <<'EOF'
import json, pathlib, re, sys
root = pathlib.Path(sys.argv[1])
for revision in ("2025-06-18", "2025-11-25"):
    for checks in sorted((root / revision).glob("*/checks.json")):
        scenario = re.sub(r"^server-|-\d{4}-\d\d-\d\dT.*$", "", checks.parent.name)
        found = json.loads(checks.read_text())
        worst = next((c for c in found if c.get("status") == "FAILURE"), None) \
            or next((c for c in found if c.get("status") == "WARNING"), None)
        outcome = {"FAILURE": "fail", "WARNING": "warn"}.get(worst and worst["status"], "pass")
        message = (worst.get("errorMessage") or worst.get("description") or "") if worst else ""
        print(f"{revision}  {scenario:34} {outcome:5} {message[:140]}")
EOF
