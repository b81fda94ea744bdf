#!/usr/bin/env bash
# The zoo in one command, from a fresh clone: installs it when missing (npm, PyPI and
# crates.io only, at the pinned versions: install.sh), builds the release wirecheck when
# missing, and plays `wirecheck matrix zoo.toml` (every server × transport × revision,
# each against its hand-checked baseline), writing matrix.json, matrix.md and matrix.html
# to OUT (default target/matrix).
#
#   conformance/peers/zoo/run.sh [-o OUT] [wirecheck matrix options: --server NAME, --fuzz SECONDS, --against OLD.json …]
#
# Exit: wirecheck matrix's (0 every cell as its baseline says, 1 a failing cell or a
# stale entry, 2 the matrix could not be made).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="$root/target/matrix"
if [[ ${1:-} == -o ]]; then out="$2"; shift 2; fi
[[ -d $here/node_modules && -x $here/.venv/bin/python && -x $here/.cargo/bin/rust-mcp-filesystem ]] \
  || "$here/install.sh" >&2
wirecheck="${WIRECHECK:-$root/target/release/wirecheck}"
[[ -n ${WIRECHECK:-} || -x $wirecheck ]] || (cd "$root" && cargo build --release -p wirecheck) >&2
exec "$wirecheck" matrix "$here/zoo.toml" --out "$out" "$@"
