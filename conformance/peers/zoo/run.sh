#!/usr/bin/env bash
# Plays `wirecheck run` against every server of the zoo (or those named), one at a time,
# each bounded in time, and writes OUT/<server>.{json,txt} and a one-line tally per
# server to OUT/summary.txt. HTTP servers are started on a free 127.0.0.1 port and
# killed on exit. No tool of any server is called (no --allow-tool).
#
#   conformance/peers/zoo/run.sh [-o OUT] [server…]
#
# Exit: 0 when every run could be made (findings or not), 2 when one could not.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="$root/target/zoo"
if [[ ${1:-} == -o ]]; then out="$2"; shift 2; fi
mkdir -p "$out"
[[ -d $here/node_modules && -x $here/.venv/bin/python ]] || "$here/install.sh" >&2
wirecheck="${WIRECHECK:-$root/target/release/wirecheck}"
[[ -n ${WIRECHECK:-} || -x $wirecheck ]] || (cd "$root" && cargo build --release -p wirecheck) >&2
timeout_s="${ZOO_TIMEOUT:-20s}"

all=(server-memory server-filesystem mcp-server-time mcp-server-git jayson json-rpc-2.0 jsonrpcserver)
servers=("$@")
[[ ${#servers[@]} -gt 0 ]] || servers=("${all[@]}")

scratch="$(mktemp -d)"
pid=""
cleanup() { [[ -z $pid ]] || kill "$pid" 2>/dev/null || true; rm -rf "$scratch"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; return 1; }

worst=0
: >"$out/summary.txt"
for name in "${servers[@]}"; do
  args=()
  case $name in
    server-memory) args=(--stdio "node $here/node_modules/@modelcontextprotocol/server-memory/dist/index.js") ;;
    server-filesystem) mkdir -p "$scratch/fs"; args=(--stdio "node $here/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js $scratch/fs") ;;
    mcp-server-time) args=(--stdio "$here/.venv/bin/mcp-server-time --local-timezone UTC") ;;
    mcp-server-git) git init -q "$scratch/repo"; args=(--stdio "$here/.venv/bin/mcp-server-git --repository $scratch/repo") ;;
    jayson | json-rpc-2.0 | jsonrpcserver)
      port="$(free_port)"
      case $name in
        jsonrpcserver) "$here/.venv/bin/python" "$here/servers/jsonrpcserver_http.py" "$port" 2>"$out/$name.stderr" & ;;
        *) node "$here/servers/$name.js" "$port" 2>"$out/$name.stderr" & ;;
      esac
      pid=$!
      wait_port "$port" || { echo "$name: did not listen on 127.0.0.1:$port" >&2; }
      args=(--profile jsonrpc-2.0 --http "http://127.0.0.1:$port/")
      ;;
    *) echo "zoo/run.sh: no server \`$name\` (known: ${all[*]})" >&2; exit 2 ;;
  esac
  rc=0
  "$wirecheck" run "${args[@]}" --timeout "$timeout_s" --format json --out "$out/$name.json" >"$out/$name.jsonl" 2>"$out/$name.txt" || rc=$?
  if [[ -n $pid ]]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=""; fi
  printf '%-20s exit %d  %s\n' "$name" "$rc" "$(tail -n 1 "$out/$name.txt")" | tee -a "$out/summary.txt"
  ((rc == 2)) && worst=2
done
exit "$worst"
