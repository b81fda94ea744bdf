#!/usr/bin/env bash
# CI's short live-fuzz runs (`.ci/run`), well under a minute together:
#
# - the reference peer (`wirecheck serve`), 2,000 frames, seed 1: must find
#   nothing (exit 0);
# - @modelcontextprotocol/server-everything over stdio (installed by
#   conformance/peers/install.sh), 15 s, seed 1, revision 2025-06-18: its
#   findings are expected (exit 1), but the run must finish, write its
#   report, and the report must hold the silent drops it is known for
#   (conformance/book/fuzzing.md, "Fuzzing a live peer"). Findings are not minimized here
#   (--no-minimize): each is confirmed on a fresh Node process but not shrunk,
#   which would not fit the budget; those the budget leaves unconfirmed are
#   still records (suspected, not counted), and only their kinds are checked.
#
# WIRECHECK names the binary (default: this checkout's release build). Reports
# and transcripts go to a scratch folder, never into the tree.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
wirecheck="${WIRECHECK:-$root/target/release/wirecheck}"
server="$root/conformance/peers/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

echo "fuzz: the reference peer, 2000 frames"
"$wirecheck" fuzz --frames 2000 --seed 1 --out-dir "$scratch/reference" \
  --format json -q >"$scratch/reference.jsonl"
grep -q "no invariant broken" "$scratch/reference.jsonl"

echo "fuzz: server-everything over stdio, 15 s"
code=0
"$wirecheck" fuzz --stdio "node $server stdio" --revision 2025-06-18 --duration 15s \
  --seed 1 --no-minimize --out-dir "$scratch/server-everything" \
  --format json -q >"$scratch/server-everything.jsonl" || code=$?
if [[ $code -ne 1 ]]; then
  echo "ci-fuzz.sh: server-everything run exited $code (expected 1: findings)" >&2
  exit 1
fi
# Its known silent drops (JSON-RPC 2.0 §5: "the Server MUST reply"):
# malformed JSON, an invalid request, and requests it cannot parse, an id
# past 2^53 among them.
missing=0
for want in \
  'fuzz/silent-drop/refused:json.syntax' \
  'fuzz/silent-drop/refused:jsonrpc.version-missing' \
  'fuzz/unanswered/request:ping:integer-past-2^53'; do
  if ! grep -qF "\"vector\":\"$want\"" "$scratch/server-everything.jsonl"; then
    echo "ci-fuzz.sh: server-everything: no finding $want" >&2
    missing=1
  fi
done
echo "fuzz: server-everything: $(grep -c '"outcome":"fail"' "$scratch/server-everything.jsonl") findings, the known silent drops among them"
exit "$missing"
