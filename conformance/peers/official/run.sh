#!/usr/bin/env bash
# The reference peer checked by someone else's code: the official MCP conformance suite's
# server scenarios against `wirecheck serve --http` for each revision the suite covers
# (2025-06-18, 2025-11-25; the peer serving exactly that revision, then negotiating), and the official
# TypeScript and Python SDK clients against `wirecheck serve` over stdio, Streamable
# HTTP and the 2024-11-05 HTTP+SSE transport. Prints one line per scenario and client run, and exits 1 when any outcome (or the
# suite's message for a failure) differs from expected.json, 2 when the run could not be
# made, 0 otherwise. Every server is on 127.0.0.1 and killed on exit, whatever happens.
#
#   conformance/peers/official/run.sh
#
# WIRECHECK names the binary; by default the release build of this checkout, built when
# missing. OFFICIAL_KEEP=DIR keeps the raw results (the suite's checks.json per scenario,
# each client's stdout and stderr) in DIR instead of a temporary folder.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"

"$here/install.sh" >/dev/null
node="$here/node_modules/node/bin/node"
conformance="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
python="$here/.venv/bin/python"

wirecheck="${WIRECHECK:-$root/target/release/wirecheck}"
if [[ -z ${WIRECHECK:-} && ! -x $wirecheck ]]; then
  (cd "$root" && cargo build --release -p wirecheck) >&2
fi

results="${OFFICIAL_KEEP:-}"
if [[ -z $results ]]; then
  results="$(mktemp -d "${TMPDIR:-/tmp}/wirecheck-official.XXXXXX")"
fi
mkdir -p "$results/clients"
server_pid=""
cleanup() {
  if [[ -n $server_pid ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [[ -z ${OFFICIAL_KEEP:-} ]]; then rm -rf "$results"; fi
}
trap cleanup EXIT
trap 'exit 2' INT TERM HUP

# Starts `wirecheck serve --http 127.0.0.1:0 ARGS…` and sets `url` from the
# `listening on http://IP:PORT` line it prints on stderr (waiting up to 10 s).
start_peer() {
  local log="$results/serve.$1.log"
  shift
  # Created before the peer starts, so the wait below never reads a missing file.
  : >"$log"
  "$wirecheck" serve --http 127.0.0.1:0 "$@" 2>"$log" &
  server_pid=$!
  local deadline=$((SECONDS + 10))
  until grep -q '^listening on ' "$log"; do
    if ! kill -0 "$server_pid" 2>/dev/null || ((SECONDS >= deadline)); then
      echo "run.sh: wirecheck serve --http $* did not start:" >&2
      cat "$log" >&2
      exit 2
    fi
    sleep 0.1
  done
  url="$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$log" | head -1)/mcp"
}

stop_peer() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

# Each run: a label, the --spec-version the suite filters its scenarios by, and the
# peer's options. The suite's client always offers 2025-11-25 (its SDK's latest) and
# accepts 2025-06-18, so a peer serving exactly R holds the exchange to R; `negotiated`
# is the peer as a user starts it. The suite prints its own per-check report; it is kept
# in the results folder, and its exit code (non-zero when any scenario fails) is not ours:
# compare.mjs judges.
runs=(
  "2025-06-18 2025-06-18 --revision 2025-06-18"
  "2025-11-25 2025-11-25 --revision 2025-11-25"
  "negotiated 2025-11-25"
)
for run in "${runs[@]}"; do
  read -r label spec peer_args <<<"$run"
  # shellcheck disable=SC2086 # peer_args is a word list on purpose
  start_peer "$label" $peer_args
  timeout 120 "$node" "$conformance" server --url "$url" --suite all \
    --spec-version "$spec" -o "$results/suite-$label" \
    >"$results/suite-$label.log" 2>&1 || true
  stop_peer
  if [[ ! -d $results/suite-$label ]]; then
    echo "run.sh: the suite wrote no results for $label:" >&2
    cat "$results/suite-$label.log" >&2
    exit 2
  fi
done

# One SDK client run: its exit code, stdout and stderr go to clients/NAME.*.
client() {
  local name="$1"
  shift
  set +e
  timeout 60 "$@" >"$results/clients/$name.out" 2>"$results/clients/$name.err"
  echo $? >"$results/clients/$name.rc"
  set -e
}

client ts-sdk-stdio "$node" "$here/client.mjs" stdio "$wirecheck"
client python-sdk-stdio-auto "$python" "$here/client.py" stdio "$wirecheck" --mode auto
client python-sdk-stdio-legacy "$python" "$here/client.py" stdio "$wirecheck" --mode legacy
start_peer clients
client ts-sdk-http "$node" "$here/client.mjs" http "$url"
client python-sdk-http-auto "$python" "$here/client.py" http "$url" --mode auto
client python-sdk-http-legacy "$python" "$here/client.py" http "$url" --mode legacy
sse="${url%/mcp}/sse"
client ts-sdk-sse "$node" "$here/client.mjs" sse "$sse"
client python-sdk-sse "$python" "$here/client.py" sse "$sse" --mode legacy
stop_peer

"$node" "$here/compare.mjs" "$results" "$here/expected.json"
