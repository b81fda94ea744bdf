#!/usr/bin/env bash
# Runs the wirecheck suite against @modelcontextprotocol/server-everything (the version
# package-lock.json pins) over stdio, every revision it accepts, against the committed
# baseline of its known divergences (server-everything.stdio.json, each entry quoting the
# spec sentence it breaks). Exits with wirecheck's code: 0 the divergences are exactly the
# baseline's, 1 one changed (an unlisted failure, or a listed one that now passes or no
# longer exists: stale), 2 the run could not be made.
#
#   conformance/peers/run-server-everything.sh [stdio] [wirecheck run options…]
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
if [[ $transport != stdio ]]; then
  echo "run-server-everything.sh: transport \`$transport\`: only stdio is baselined" >&2
  exit 2
fi

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
baseline="$here/server-everything.$transport.json"
revision=all
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case ${args[i]} in
    --revision) revision="${args[i + 1]:-all}" ;;
    --revision=*) revision="${args[i]#--revision=}" ;;
  esac
done
if [[ $revision != all && $revision != auto ]]; then
  filtered="$(mktemp "${TMPDIR:-/tmp}/server-everything.$revision.XXXXXX.json")"
  trap 'rm -f "$filtered"' EXIT
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
set +e
"$wirecheck" run \
  --stdio "node $server stdio" \
  --expected-failures "$baseline" \
  "$@"
code=$?
set -e
exit "$code"
