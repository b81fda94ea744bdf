#!/usr/bin/env bash
# Runs the wirecheck suite against @modelcontextprotocol/server-everything (the version
# package-lock.json pins) over one transport, every revision it accepts, against the
# committed baseline of its known divergences on that transport
# (server-everything.<transport>.json, each entry quoting the spec sentence it breaks). Exits with wirecheck's code: 0 the divergences are exactly the
# baseline's, 1 one changed (an unlisted failure, or a listed one that now passes or no
# longer exists: stale), 2 the run could not be made.
#
#   conformance/peers/run-server-everything.sh [stdio|streamableHttp|sse] [wirecheck run options…]
#
# stdio (the default) spawns the server as wirecheck's child. streamableHttp and sse start
# it on a free port (PORT=…), wait until it accepts, run `wirecheck run --http` against
# http://127.0.0.1:PORT/mcp (Streamable HTTP) or /sse (`--transport sse`, the 2024-11-05
# HTTP+SSE transport), and kill it on exit, whatever happens. The server binds every
# interface (it takes no host setting), so the port is only ever reached on 127.0.0.1.
#
# Extra options go to `wirecheck run` (`--revision 2025-06-18`, `--out report.json`,
# `--junit FILE`). WIRECHECK names the binary; by default the release build of this
# checkout, built when missing. No tool of the server is ever called (no --allow-tool):
# some of them fetch URLs. GZIP_ALLOWED_DOMAINS is pinned to 127.0.0.1 all the same.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

transport="stdio"
if [[ $# -gt 0 && $1 != -* ]]; then
  transport="$1"
  shift
fi
case $transport in
  stdio) baseline_name=stdio ;;
  streamableHttp) baseline_name=streamable-http ;;
  sse) baseline_name=sse ;;
  *)
    echo "run-server-everything.sh: transport \`$transport\`: stdio, streamableHttp or sse" >&2
    exit 2
    ;;
esac

server="$here/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
if [[ ! -f $server ]]; then
  "$here/install.sh" >&2
fi

wirecheck="${WIRECHECK:-$root/target/release/wirecheck}"
if [[ -z ${WIRECHECK:-} && ! -x $wirecheck ]]; then
  (cd "$root" && cargo build --release -p wirecheck) >&2
fi

# `wirecheck run` counts a baseline entry that matches no check of the run as stale, so a
# run of one revision is held to that revision's entries only (and the `*` ones).
baseline="$here/server-everything.$baseline_name.json"
revision=all
args=("$@")
# One EXIT trap for everything this script leaves behind: the filtered baseline and the
# HTTP server (bash keeps a single trap per signal, so they share it).
filtered=""
server_pid=""
server_log=""
cleanup() {
  if [[ -n $server_pid ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [[ -n $filtered ]]; then rm -f "$filtered"; fi
  if [[ -n $server_log ]]; then rm -f "$server_log"; fi
}
trap cleanup EXIT
trap 'exit 2' INT TERM HUP
for ((i = 0; i < ${#args[@]}; i++)); do
  case ${args[i]} in
    --revision) revision="${args[i + 1]:-all}" ;;
    --revision=*) revision="${args[i]#--revision=}" ;;
  esac
done
if [[ $revision != all && $revision != auto ]]; then
  filtered="$(mktemp "${TMPDIR:-/tmp}/server-everything.$revision.XXXXXX.json")"
  node -e '
    const [from, to, rev] = process.argv.slice(1);
    const fs = require("fs");
    const kept = JSON.parse(fs.readFileSync(from, "utf8"))
      .filter((e) => ["*", rev].includes(e.id.split("/")[1]));
    fs.writeFileSync(to, JSON.stringify(kept, null, 2) + "\n");
  ' "$baseline" "$filtered" "$revision"
  baseline="$filtered"
fi

export GZIP_ALLOWED_DOMAINS=127.0.0.1

# Starts the server on a free loopback port, sets `port` and `server_pid`, and waits (up to
# 20 s) until 127.0.0.1:port accepts a connection. The port is picked by binding port 0 and
# releasing it, so another process could take it in between: the server then exits
# ("already in use"). The wait notices that when the exit comes first; the check after it
# catches most of the rest (a run against the wrong process is then possible but unlikely).
start_http_server() {
  port="$(node -e '
    const s = require("net").createServer();
    s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });
  ')"
  # Its request log (a line per POST) would drown wirecheck's summary: kept in a file,
  # shown only when the server fails to start.
  server_log="$(mktemp "${TMPDIR:-/tmp}/server-everything.$transport.XXXXXX.log")"
  PORT="$port" node "$server" "$transport" >"$server_log" 2>&1 &
  server_pid=$!
  local deadline=$((SECONDS + 20))
  until node -e '
    const c = require("net").connect(Number(process.argv[1]), "127.0.0.1");
    c.on("connect", () => process.exit(0));
    c.on("error", () => process.exit(1));
  ' "$port"; do
    if ! kill -0 "$server_pid" 2>/dev/null; then
      echo "run-server-everything.sh: server-everything $transport exited before accepting:" >&2
      cat "$server_log" >&2
      exit 2
    fi
    if ((SECONDS >= deadline)); then
      echo "run-server-everything.sh: server-everything $transport not accepting on 127.0.0.1:$port after 20 s" >&2
      exit 2
    fi
    sleep 0.2
  done
  sleep 0.2
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "run-server-everything.sh: server-everything $transport exited after start:" >&2
    cat "$server_log" >&2
    exit 2
  fi
}

case $transport in
  stdio) target=(--stdio "node $server stdio") ;;
  streamableHttp)
    start_http_server
    target=(--http "http://127.0.0.1:$port/mcp")
    ;;
  sse)
    start_http_server
    target=(--http "http://127.0.0.1:$port/sse" --transport sse)
    ;;
esac

set +e
"$wirecheck" run \
  "${target[@]}" \
  --expected-failures "$baseline" \
  "$@"
code=$?
set -e
exit "$code"
