#!/usr/bin/env bash
# Real SDK servers with their authorization switched on, judged as OAuth resource servers:
# starts `wirecheck auth-server` on a free loopback port, then each server configured to
# trust it (ts-server.mjs: the TypeScript SDK's requireBearerAuth and
# mcpAuthMetadataRouter; py-server.py: the Python SDK's MCPServer with token_verifier= and
# AuthSettings), each on its own free loopback port, and runs
#
#   wirecheck run --http http://127.0.0.1:PORT/mcp --auth --auth-issuer http://127.0.0.1:AS_PORT \
#     --revision R --expected-failures conformance/peers/auth/<server>.json
#
# against each, for R 2025-03-26 (the server as its own authorization server) and
# 2025-11-25 and, for the Python SDK, 2026-07-28 as well, held to its committed
# baseline's entries of R (each entry quoting the sentence it breaks).
# Exits with wirecheck's code: 0 when every server's failures are exactly its baseline's,
# 1 when any differs, 2 when a run could not be made. Everything listens on 127.0.0.1 and
# is killed on exit, whatever happens.
#
#   conformance/peers/auth/run.sh [ts|py ...] [-- wirecheck run options…]
#
# With no server named, both. The SDKs, jose, PyJWT and cryptography are those
# conformance/peers/official/install.sh installs, pinned (run first; offline once
# installed). WIRECHECK names the binary; by default the release build of this checkout,
# built when missing. AUTH_KEEP=DIR keeps the logs and each run's report in DIR.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
official="$root/conformance/peers/official"

servers=()
while [[ $# -gt 0 && $1 != -- ]]; do
  case $1 in
    ts | py) servers+=("$1") ;;
    *)
      echo "run.sh: \`$1\`: name ts or py (or none for both), then -- and wirecheck run options" >&2
      exit 2
      ;;
  esac
  shift
done
if [[ $# -gt 0 ]]; then shift; fi
if [[ ${#servers[@]} -eq 0 ]]; then servers=(ts py); fi

"$official/install.sh" >/dev/null
node="$official/node_modules/node/bin/node"
python="$official/.venv/bin/python"

wirecheck="${WIRECHECK:-$root/target/release/wirecheck}"
if [[ -z ${WIRECHECK:-} && ! -x $wirecheck ]]; then
  (cd "$root" && cargo build --release -p wirecheck) >&2
fi

logs="${AUTH_KEEP:-}"
if [[ -z $logs ]]; then
  logs="$(mktemp -d "${TMPDIR:-/tmp}/wirecheck-auth.XXXXXX")"
fi
mkdir -p "$logs"
as_pid=""
server_pid=""
stop() {
  if [[ -n ${!1} ]]; then
    kill "${!1}" 2>/dev/null || true
    wait "${!1}" 2>/dev/null || true
    printf -v "$1" '%s' ""
  fi
}
cleanup() {
  stop server_pid
  stop as_pid
  if [[ -z ${AUTH_KEEP:-} ]]; then rm -rf "$logs"; fi
}
trap cleanup EXIT
trap 'exit 2' INT TERM HUP

# Waits up to 20 s until 127.0.0.1:$2 accepts a connection while pid $1 lives; on failure
# prints the log $3 and exits 2.
await_port() {
  local pid=$1 port=$2 log=$3 deadline=$((SECONDS + 20))
  until "$python" -c '
import socket, sys
socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close()
' "$port" 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null || ((SECONDS >= deadline)); then
      echo "run.sh: nothing accepting on 127.0.0.1:$port:" >&2
      cat "$log" >&2
      exit 2
    fi
    sleep 0.1
  done
}

# wirecheck's authorization server, on a port it picks: it prints its issuer on stdout.
: >"$logs/auth-server.out"
"$wirecheck" auth-server --port 0 >"$logs/auth-server.out" 2>"$logs/auth-server.log" &
as_pid=$!
deadline=$((SECONDS + 10))
until grep -q '^http://127.0.0.1:[0-9]*$' "$logs/auth-server.out"; do
  if ! kill -0 "$as_pid" 2>/dev/null || ((SECONDS >= deadline)); then
    echo "run.sh: wirecheck auth-server did not start:" >&2
    cat "$logs/auth-server.log" >&2
    exit 2
  fi
  sleep 0.1
done
issuer="$(head -1 "$logs/auth-server.out")"

# A free loopback port: bound to 0 and released (another process could take it in
# between; the server then fails to start and the wait above says so).
free_port() {
  "$python" -c '
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()
'
}

# The revisions each server is judged under: 2025-03-26 (whose authorization page has
# the MCP server serve its own authorization server's metadata or default endpoints),
# the newest handshake revision both SDKs speak, and for the Python SDK 2026-07-28 as well (it speaks that one too; the TS SDK
# 1.32.2 does not). One run per revision, each held to its revision's entries of the
# server's baseline (`wirecheck run` counts an entry that matches no check as stale).
revisions_of() {
  case $1 in
    ts) echo 2025-03-26 2025-11-25 ;;
    py) echo 2025-03-26 2025-11-25 2026-07-28 ;;
  esac
}

code=0
for name in "${servers[@]}"; do
  port="$(free_port)"
  log="$logs/$name-server.log"
  case $name in
    ts) "$node" "$here/ts-server.mjs" --port "$port" --issuer "$issuer" >"$log" 2>&1 & ;;
    py) "$python" "$here/py-server.py" --port "$port" --issuer "$issuer" >"$log" 2>&1 & ;;
  esac
  server_pid=$!
  await_port "$server_pid" "$port" "$log"
  for revision in $(revisions_of "$name"); do
    echo "== $name-server at http://127.0.0.1:$port/mcp, trusting $issuer, under $revision"
    baseline="$logs/$name-server.$revision.json"
    "$python" -c '
import json, sys
source, to, revision = sys.argv[1:]
kept = [e for e in json.load(open(source)) if e["id"].split("/")[1] in ("*", revision)]
json.dump(kept, open(to, "w"), indent=2)
' "$here/$name-server.json" "$baseline" "$revision"
    set +e
    "$wirecheck" run --http "http://127.0.0.1:$port/mcp" --auth --auth-issuer "$issuer" \
      --revision "$revision" --expected-failures "$baseline" \
      --out "$logs/$name-server.$revision.report.json" "$@"
    one=$?
    set -e
    if ((one > code)); then code=$one; fi
  done
  stop server_pid
done
exit "$code"
