#!/usr/bin/env bash
# The seed inputs of one fuzz target, written as files into a directory: what
# the nightly run fuzzes from and what ClusterFuzzLite's build zips as
# `<target>_seed_corpus.zip`, so both start from the same inputs.
#
#   the committed seeds    corpus/seeds/<target>/ (the byte-level targets share
#                          corpus/seeds/frames/, as `harness::fuzzing::Target::seeds` says)
#   the regressions        corpus/regressions/<target>/
#   the golden vectors     for the byte-level targets, each vector's wire text
#                          (`wire`, `frame`, `frame_hex`, an exchange's reply frame)
#
# Usage: fuzz/seeds.sh TARGET DIR (from anywhere). Needs jq and xxd.
# Exit: 0 written, 2 usage error.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
(($# == 2)) || { echo "usage: fuzz/seeds.sh TARGET DIR" >&2; exit 2; }
target="$1"
dir="$2"
for tool in jq xxd; do
    command -v "$tool" >/dev/null || { echo "seeds.sh: needs $tool" >&2; exit 2; }
done
mkdir -p "$dir"

byte_level=0
seeds="$root/corpus/seeds/$target"
case "$target" in
roundtrip_bytes | lift_refusals | rules) byte_level=1; seeds="$root/corpus/seeds/frames" ;;
esac

# Committed inputs keep their names (a prefix tells seeds from regressions).
copy_dir() {
    local from="$1" prefix="$2" f
    [[ -d "$from" ]] || return 0
    for f in "$from"/*; do
        [[ -f "$f" ]] && cp "$f" "$dir/$prefix$(basename "$f")"
    done
    return 0
}
copy_dir "$seeds" "seed-"
copy_dir "$root/corpus/regressions/$target" "regression-"

# One jq call over every vector file; each wire text becomes one input.
if ((byte_level)) && [[ -d "$root/conformance/vectors" ]]; then
    n=0
    while IFS=$'\t' read -r how data; do
        n=$((n + 1))
        case "$how" in
        text) base64 -d <<<"$data" >"$dir/vector-$n" ;;
        hex) xxd -r -p <<<"$data" >"$dir/vector-$n" ;;
        esac
    done < <(find "$root/conformance/vectors" -name '*.json' -print0 | sort -z | xargs -0 -r jq -r '
        ([.wire, .frame, (.exchange | objects | .reply | objects | .frame)] | map(strings) | .[]
            | ["text", @base64] | @tsv),
        (.frame_hex | strings | ["hex", .] | @tsv)' 2>/dev/null || true)
fi
