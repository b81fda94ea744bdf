#!/usr/bin/env bash
# Which lines of harness/src the fuzzers reach: each target's corpus (the live
# corpus fuzz/corpus/<target>/ and its seed corpus) run through a coverage build
# (`cargo fuzz coverage`), the profiles merged, and llvm-cov's per-file line
# counts for harness/src written as coverage.json and a Markdown table,
# coverage.md: one column per target and the union of all of them.
#
# Usage: fuzz/coverage.sh [-o OUT_DIR] [TARGET...]   (default: fuzz/out, every target)
# Needs the nightly toolchain's llvm-tools (rustup component add llvm-tools-preview
# --toolchain nightly), jq, and the seed corpora build.sh put in OUT_DIR/bin (else
# the committed seeds are used through fuzz/seeds.sh).
# Exit: 0 written, 2 a build, a run or a tool failed.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out="fuzz/out"
targets=()
while (($#)); do
    case "$1" in
    -o) out="${2:?-o needs a directory}"; shift 2 ;;
    -h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "coverage.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
    esac
done
if ((${#targets[@]} == 0)); then
    mapfile -t targets < <(sed -n 's/^name = "\([a-z_]*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^wirecheck')
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"

triple="$(rustc +nightly -vV | sed -n 's/^host: //p')"
tools="$(rustc +nightly --print sysroot)/lib/rustlib/$triple/bin"
[[ -x "$tools/llvm-cov" && -x "$tools/llvm-profdata" ]] || {
    echo "coverage.sh: needs llvm-cov and llvm-profdata of the nightly toolchain: rustup component add llvm-tools-preview --toolchain nightly" >&2
    exit 2
}
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

objects=()
profiles=()
for t in "${targets[@]}"; do
    seeds="$work/seeds-$t"
    mkdir -p "$seeds" "fuzz/corpus/$t"
    if [[ -f "$out/bin/${t}_seed_corpus.zip" ]]; then
        unzip -q -o "$out/bin/${t}_seed_corpus.zip" -d "$seeds"
    else
        fuzz/seeds.sh "$t" "$seeds"
    fi
    echo "coverage.sh: $t" >&2
    cargo +nightly fuzz coverage -a --target-dir fuzz/target/coverage "$t" "fuzz/corpus/$t" "$seeds" >"$out/$t.coverage.log" 2>&1 || {
        tail -n 20 "$out/$t.coverage.log" >&2
        exit 2
    }
    bin="fuzz/target/coverage/$triple/release/$t"
    profile="fuzz/coverage/$t/coverage.profdata"
    objects+=(-object "$bin")
    profiles+=("$profile")
    "$tools/llvm-cov" export -summary-only -instr-profile="$profile" "$bin" \
        >"$work/$t.json"
done
"$tools/llvm-profdata" merge -sparse "${profiles[@]}" -o "$work/all.profdata"
# The first object is positional, the rest are -object.
"$tools/llvm-cov" export -summary-only -instr-profile="$work/all.profdata" \
    "${objects[@]:1}" >"$work/all.json"

# Per file of harness/src: lines and lines covered, per target and in all.
per_file='[.data[0].files[] | select(.filename | test("/harness/src/"))
    | {file: (.filename | sub(".*/harness/src/"; "")), lines: .summary.lines.count,
       covered: .summary.lines.covered}]'
args=()
for t in "${targets[@]}"; do args+=(--slurpfile "$t" "$work/$t.json"); done
jq -n --slurpfile all "$work/all.json" "${args[@]}" --args "
    def files(\$doc): \$doc[0] | $per_file;
    { targets: \$ARGS.positional,
      files: (files(\$all) | map(. as \$f | \$f + { by_target: (\$ARGS.positional | map(. as \$t
          | { key: \$t, value: ((files(\$ARGS.named[\$t]) | map(select(.file == \$f.file)) | .[0].covered) // 0) })
          | from_entries) })) }" "${targets[@]}" >"$out/coverage.json"

{
    echo "Line coverage of \`harness/src\` by the fuzz corpora (\`fuzz/coverage.sh\`): lines covered per target, and by all targets together."
    echo
    printf '| file | lines |'
    for t in "${targets[@]}"; do printf ' `%s` |' "$t"; done
    printf ' all | all %% |\n|---|---:|'
    for _ in "${targets[@]}"; do printf -- '---:|'; done
    printf -- '---:|---:|\n'
    jq -r '.targets as $ts | .files | sort_by(.file)[]
        | "| `\(.file)` | \(.lines) | " + ([$ts[] as $t | .by_target[$t] | tostring] | join(" | "))
          + " | \(.covered) | \(if .lines > 0 then (.covered * 1000 / .lines | floor) / 10 else 0 end) |"' "$out/coverage.json"
    jq -r '.targets as $ts | .files as $fs
        | "| **total** | \([$fs[].lines] | add) | " + ([$ts[] as $t | [$fs[].by_target[$t]] | add | tostring] | join(" | "))
          + " | \([$fs[].covered] | add) | \(([$fs[].covered] | add) * 1000 / ([$fs[].lines] | add) | floor / 10) |"' "$out/coverage.json"
} >"$out/coverage.md"
echo "coverage.sh: $out/coverage.md" >&2
