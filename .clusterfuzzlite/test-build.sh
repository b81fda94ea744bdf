#!/usr/bin/env bash
# Tests .clusterfuzzlite/build.sh without Docker: runs it as the base-builder-rust
# image would (SRC, OUT, WORK, and the Rust flags the image sets; sanitizer none,
# which needs no ASan runtime here), then checks that every target of
# fuzz/Cargo.toml landed in $OUT with its options, dictionary and seed corpus,
# and that each binary runs its whole seed corpus once (-runs=0) without a crash.
#
# Usage: .clusterfuzzlite/test-build.sh [KEEP_DIR]   (default: a temporary directory)
# Exit: 0 every check passed, 1 one failed (each failure is named), 2 the build failed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

base="${1:-}"
if [[ -z "$base" ]]; then
    base="$(mktemp -d)"
    trap 'rm -rf "$base"' EXIT
fi
mkdir -p "$base/src" "$base/out" "$base/work"
ln -sfn "$root" "$base/src/wirecheck"

# What the image's environment holds for a Rust project (base-builder's compile
# and base-builder-rust's Dockerfile); the linker override to clang is left
# out, there being no clang here.
if ! SRC="$base/src" OUT="$base/out" WORK="$base/work" \
    SANITIZER=none FUZZING_ENGINE=libfuzzer FUZZING_LANGUAGE=rust ARCHITECTURE=x86_64 \
    RUSTUP_TOOLCHAIN=nightly RUSTFLAGS="--cfg fuzzing -Cdebuginfo=1 -Cforce-frame-pointers" \
    .clusterfuzzlite/build.sh >"$base/build.log" 2>&1; then
    tail -n 30 "$base/build.log" >&2
    echo "test-build.sh: build.sh failed" >&2
    exit 2
fi

failures=0
fail() { echo "test-build.sh: FAIL $*" >&2; failures=$((failures + 1)); }
mapfile -t targets < <(sed -n 's/^name = "\([a-z_]*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^wirecheck')
for t in "${targets[@]}"; do
    o="$base/out"
    [[ -x "$o/$t" ]] || { fail "$t: no binary in \$OUT"; continue; }
    [[ -s "$o/$t.dict" ]] || fail "$t: no dictionary $t.dict"
    if [[ -f "$o/$t.options" ]]; then
        head -n1 "$o/$t.options" | grep -qx '\[libfuzzer\]' || fail "$t.options: no [libfuzzer] section"
        dict="$(sed -n 's/^dict = //p' "$o/$t.options")"
        [[ -n "$dict" && -f "$o/$dict" ]] || fail "$t.options: dict '$dict' is not in \$OUT"
    else
        fail "$t: no $t.options"
    fi
    zip="$o/${t}_seed_corpus.zip"
    [[ -s "$zip" ]] || { fail "$t: no seed corpus ${t}_seed_corpus.zip"; continue; }
    unzip -tq "$zip" >/dev/null || { fail "$t: ${t}_seed_corpus.zip does not unzip"; continue; }
    seeds="$base/work/check-$t"
    rm -rf "$seeds" && mkdir -p "$seeds" && unzip -q "$zip" -d "$seeds"
    n="$(find "$seeds" -type f | wc -l)"
    ((n > 0)) || { fail "$t: the seed corpus is empty"; continue; }
    # -runs=0: every corpus input runs once, nothing is mutated.
    if "$o/$t" -runs=0 -timeout=10 "$seeds" >"$base/$t.runs.log" 2>&1; then
        echo "test-build.sh: $t: binary, options, dictionary, $n seeds run without a crash"
    else
        tail -n 20 "$base/$t.runs.log" >&2
        fail "$t: crashed on its seed corpus"
    fi
done
((failures == 0)) || { echo "test-build.sh: $failures failure(s)" >&2; exit 1; }
echo "test-build.sh: ${#targets[@]} targets checked in $base/out"
