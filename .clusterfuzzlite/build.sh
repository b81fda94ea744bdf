#!/bin/bash -eu
# The one build of wirecheck's fuzz targets for ClusterFuzzLite, OSS-Fuzz and
# fuzz/nightly.sh alike.
#
# Inputs, as the base-builder-rust image sets them: SRC (the checkout is
# $SRC/wirecheck, or this script's own repository when that is absent), OUT
# (where the fuzzers go), WORK (scratch), SANITIZER (address, coverage, or none
# outside the image: the harness forbids `unsafe`, so none is fine here),
# RUSTFLAGS and the CARGO_* variables, passed through untouched.
#
# Writes, per target listed in fuzz/Cargo.toml:
#   $OUT/<target>                   the libFuzzer binary
#   $OUT/<target>.options           libFuzzer flags ClusterFuzz reads ([libfuzzer])
#   $OUT/<target>.dict              the JSON-RPC dictionary
#   $OUT/<target>_seed_corpus.zip   the seeds, regressions and (for byte-level
#                                   targets) the golden vectors' frames: fuzz/seeds.sh
: "${OUT:?OUT must name the output directory}"
: "${WORK:=$(mktemp -d)}"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
repo="${SRC:-}/wirecheck"
[[ -n "${SRC:-}" && -f "$repo/fuzz/Cargo.toml" ]] || repo="$here"
cd "$repo"

# cargo fuzz instruments for libFuzzer and adds AddressSanitizer by default;
# `-s none` only when the caller says so (outside the image).
sanitizer_flags=()
[[ "${SANITIZER:-address}" == none ]] && sanitizer_flags=(-s none)
cargo fuzz build -O --debug-assertions "${sanitizer_flags[@]}"

triple="$(rustc -vV | sed -n 's/^host: //p')"
bin_dir="${CARGO_TARGET_DIR:-$repo/fuzz/target}/$triple/release"
mapfile -t targets < <(sed -n 's/^name = "\([a-z_]*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^wirecheck')
((${#targets[@]})) || { echo "build.sh: no target in fuzz/Cargo.toml" >&2; exit 2; }

mkdir -p "$OUT"
for t in "${targets[@]}"; do
    cp "$bin_dir/$t" "$OUT/$t"
    cp fuzz/jsonrpc.dict "$OUT/$t.dict"
    # The same per-input timeout as the nightly run; the dictionary by name.
    printf '[libfuzzer]\ndict = %s.dict\ntimeout = 10\n' "$t" >"$OUT/$t.options"
    seeds="$WORK/seeds-$t"
    rm -rf "$seeds"
    fuzz/seeds.sh "$t" "$seeds"
    rm -f "$OUT/${t}_seed_corpus.zip"
    if compgen -G "$seeds/*" >/dev/null; then
        (cd "$seeds" && zip -q -r "$OUT/${t}_seed_corpus.zip" .)
    fi
done
echo "build.sh: ${#targets[@]} targets in $OUT: ${targets[*]}"
