#!/usr/bin/env bash
# The nightly fuzz run, also the CI smoke (with a short budget).
#
# The targets are built by .clusterfuzzlite/build.sh, the build ClusterFuzzLite
# and OSS-Fuzz run, into OUT_DIR/bin with their options, dictionaries and seed
# corpora. For each target: fuzz it on the live corpus plus its seed corpus (the
# committed seeds and regressions, the golden vectors' wire text: fuzz/seeds.sh)
# with the dictionary; minimize the live corpus; minimize every crash into
# corpus/regressions/<target>/ named for the property it broke; write a summary
# per target (runs, execs/s, CPU-seconds, cov, ft, corpus before and after,
# crashes) as JSON and a Markdown table. With --coverage, also the line coverage
# of harness/src reached by each target's corpus (cargo fuzz coverage, llvm-cov):
# coverage.json and a per-file table in coverage.md and summary.md.
#
# Usage: fuzz/nightly.sh [-t SECONDS] [-j JOBS] [-o OUT_DIR] [--no-build] [--coverage] [TARGET...]
#   -t SECONDS   fuzzing time per target (default 600)
#   -j JOBS      cores to use (default 1): targets fuzzed at once, and when
#                there are more cores than targets, libFuzzer -fork workers each
#   -o OUT_DIR   logs, summary.json, summary.md, crash artifacts (default fuzz/out)
#   --no-build   use the binaries already in OUT_DIR/bin
#   --coverage   measure line coverage after fuzzing (needs the nightly
#                llvm-tools component: rustup component add llvm-tools-preview)
#   TARGET...    default: every target in fuzz/Cargo.toml
# Environment: SANITIZER (default none), NICE (default 10), FUZZ_ARGS (extra
# libFuzzer flags).
# Exit: 0 no crash, 1 a target crashed (its regression file is written), 2 usage
# or build error.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

budget=600
jobs=1
out="fuzz/out"
build=1
coverage=0
targets=()
while (($#)); do
    case "$1" in
    -t) budget="${2:?-t needs seconds}"; shift 2 ;;
    -j) jobs="${2:?-j needs a number}"; shift 2 ;;
    -o) out="${2:?-o needs a directory}"; shift 2 ;;
    --no-build) build=0; shift ;;
    --coverage) coverage=1; shift ;;
    -h | --help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "nightly.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
    esac
done
[[ "$budget" =~ ^[0-9]+$ && "$jobs" =~ ^[1-9][0-9]*$ ]] || {
    echo "nightly.sh: -t and -j take positive integers" >&2
    exit 2
}
for tool in jq cargo unzip; do
    command -v "$tool" >/dev/null || { echo "nightly.sh: needs $tool" >&2; exit 2; }
done
if ((${#targets[@]} == 0)); then
    mapfile -t targets < <(sed -n 's/^name = "\([a-z_]*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^wirecheck')
fi

# The harness forbids `unsafe`, so AddressSanitizer has little to find and halves
# the exec rate; debug assertions stay on (build.sh), so an overflow is a finding.
sanitizer="${SANITIZER:-none}"

mkdir -p "$out"
out="$(cd "$out" && pwd)"
bin_dir="$out/bin"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The build ClusterFuzzLite runs, with the flags its base image sets for Rust.
if ((build)); then
    mkdir -p "$work/build"
    OUT="$bin_dir" WORK="$work/build" SANITIZER="$sanitizer" RUSTUP_TOOLCHAIN=nightly \
        RUSTFLAGS="${RUSTFLAGS:---cfg fuzzing -Cdebuginfo=1 -Cforce-frame-pointers}" \
        .clusterfuzzlite/build.sh >"$out/build.log" 2>&1 || {
        tail -n 30 "$out/build.log" >&2
        echo "nightly.sh: the build failed; see $out/build.log" >&2
        exit 2
    }
fi

# Cores beyond one per target become libFuzzer fork workers.
parallel=$((jobs < ${#targets[@]} ? jobs : ${#targets[@]}))
fork=$((jobs / parallel))

# The property a crash broke: the oracle's panic message starts with it
# ("lossless: …"); any other panic is named by its first words.
crash_name() {
    local log="$1" msg
    msg="$(grep -A1 -m1 'panicked at' "$log" | tail -n1 || true)"
    if [[ "$msg" =~ ^([a-z0-9-]+):\  ]]; then
        printf '%s' "${BASH_REMATCH[1]}"
    elif grep -q 'libFuzzer: timeout' "$log"; then
        printf 'timeout'
    elif grep -q 'out-of-memory' "$log"; then
        printf 'out-of-memory'
    elif grep -q 'stack-overflow\|stack overflow' "$log"; then
        printf 'stack-overflow'
    else
        printf 'panic-%s' "$(printf '%s' "$msg" | tr -cs 'a-zA-Z0-9' '-' | cut -c1-40 | sed 's/-$//')"
    fi
}

run_target() {
    local t="$1" bin="$bin_dir/$1"
    local live="fuzz/corpus/$t" regs="corpus/regressions/$t"
    local artifacts="$out/artifacts/$t" log="$out/$t.log"
    local seeds="$work/seeds-$t"
    mkdir -p "$live" "$regs" "$artifacts" "$seeds"
    [[ -x "$bin" ]] || { echo "nightly.sh: no binary $bin (--no-build uses the binaries an earlier run built into OUT_DIR/bin)" >&2; return 2; }
    # The seed corpus build.sh zipped: read, never written.
    [[ -f "$bin_dir/${t}_seed_corpus.zip" ]] && unzip -q -o "$bin_dir/${t}_seed_corpus.zip" -d "$seeds"
    local dirs=("$live" "$seeds")
    local ext=".bin"
    case "$t" in roundtrip_bytes | lift_refusals | rules) ext=".json" ;; esac
    local corpus_before
    corpus_before="$(find "$live" -type f | wc -l)"
    local fork_flags=()
    ((fork > 1)) && fork_flags=(-fork="$fork")

    echo "nightly.sh: $t for ${budget}s" >&2
    local status=0
    # New inputs go to the first directory only: the seeds are never rewritten.
    # The subshell's `times` gives the CPU the fuzzer and its fork workers used.
    # shellcheck disable=SC2086 # FUZZ_ARGS is a list of flags
    (
        rc=0
        nice -n "${NICE:-10}" "$bin" "${dirs[@]}" -dict="$bin_dir/$t.dict" \
            -max_total_time="$budget" -timeout=10 -print_final_stats=1 "${fork_flags[@]}" \
            -artifact_prefix="$artifacts/" ${FUZZ_ARGS:-} >"$log" 2>&1 || rc=$?
        # Not in a pipeline: a pipeline's `times` would run in a fresh subshell.
        times >"$work/$t.times"
        exit "$rc"
    ) || status=$?

    # Every crash, minimized (what `cargo fuzz tmin` runs) and named for what it broke.
    local crashes=0 regressions=()
    for artifact in "$artifacts"/crash-* "$artifacts"/timeout-* "$artifacts"/oom-*; do
        [[ -f "$artifact" ]] || continue
        crashes=$((crashes + 1))
        local minimized="$artifact.min"
        if [[ "$(basename "$artifact")" == crash-* ]]; then
            nice -n "${NICE:-10}" "$bin" -minimize_crash=1 -runs=50000 -max_total_time=120 \
                -exact_artifact_path="$minimized" "$artifact" >"$artifact.tmin.log" 2>&1 || true
        fi
        [[ -s "$minimized" ]] || cp "$artifact" "$minimized"
        "$bin" "$minimized" >"$artifact.replay.log" 2>&1 || true
        local name
        name="$(crash_name "$artifact.replay.log")-$(sha1sum "$minimized" | cut -c1-8)$ext"
        cp "$minimized" "$regs/$name"
        regressions+=("$regs/$name")
        echo "nightly.sh: $t crashed: $regs/$name" >&2
    done
    if ((status != 0 && crashes == 0)); then
        echo "nightly.sh: $t exited $status without an artifact; see $log" >&2
        crashes=1
    fi

    # Minimize the live corpus (what `cargo fuzz cmin` runs): keep the smallest
    # set of inputs with the same coverage. The committed seeds are not touched.
    local merged="$work/$t.cmin"
    mkdir -p "$merged"
    if nice -n "${NICE:-10}" "$bin" -merge=1 "$merged" "$live" -timeout=10 >"$out/$t.cmin.log" 2>&1; then
        rm -rf "$live" && mv "$merged" "$live"
    fi

    # A single process prints final stats; fork mode only status lines
    # ("#RUNS: cov: … exec/s: N …"), so fall back to the last of those.
    final_stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -n1; }
    local status_line cov ft runs execs
    status_line="$(grep -E 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n1 || true)"
    cov="$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$status_line")"
    ft="$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$status_line")"
    runs="$(final_stat number_of_executed_units)"
    [[ -n "$runs" ]] || runs="$(sed -n 's/^#\([0-9]*\).*/\1/p' <<<"$status_line")"
    execs="$(final_stat average_exec_per_sec)"
    [[ -n "$execs" ]] || execs="$(sed -n 's/.*exec\/s: \([0-9]*\).*/\1/p' <<<"$status_line")"
    # `times` prints "USERmU.UUUs SYSmS.SSSs" for the children.
    local cpu
    cpu="$(awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } printf "%.1f", t }' <(tail -n 1 "$work/$t.times") 2>/dev/null || true)"
    jq -n --arg target "$t" --argjson seconds "$budget" \
        --arg runs "$runs" --arg execs "$execs" \
        --arg new "$(final_stat new_units_added)" \
        --arg rss "$(final_stat peak_rss_mb)" \
        --arg cov "$cov" --arg ft "$ft" --arg cpu "$cpu" \
        --argjson fork "$fork" \
        --argjson corpus_before "$corpus_before" \
        --argjson corpus "$(find "$live" -type f | wc -l)" \
        --argjson crashes "$crashes" \
        --arg sanitizer "$sanitizer" \
        --args '{target: $target, seconds: $seconds, cpu_seconds: ($cpu | tonumber? // null),
            fork: $fork, runs: ($runs | tonumber? // null),
            execs_per_sec: ($execs | tonumber? // null), cov: ($cov | tonumber? // null),
            ft: ($ft | tonumber? // null), new_units: ($new | tonumber? // null),
            corpus_before: $corpus_before, corpus: $corpus,
            peak_rss_mb: ($rss | tonumber? // null), crashes: $crashes,
            regressions: $ARGS.positional, sanitizer: $sanitizer}' \
        "${regressions[@]}" >"$out/$t.json"
}

# Fuzz up to $jobs targets at once; remember who failed.
pids=()
for t in "${targets[@]}"; do
    while (($(jobs -rp | wc -l) >= parallel)); do wait -n || true; done
    run_target "$t" &
    pids+=($!)
done
build_error=0
for pid in "${pids[@]}"; do wait "$pid" || build_error=1; done

summary=()
for t in "${targets[@]}"; do
    [[ -s "$out/$t.json" ]] && summary+=("$out/$t.json")
done
((${#summary[@]})) || { echo "nightly.sh: no target produced a summary" >&2; exit 2; }
jq -s '.' "${summary[@]}" >"$out/summary.json"
{
    echo "| target | seconds | CPU-seconds | runs | execs/s | cov | ft | corpus (before → after) | crashes |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    jq -r '.[] | "| `\(.target)` | \(.seconds) | \(.cpu_seconds) | \(.runs) | \(.execs_per_sec) | \(.cov) | \(.ft) | \(.corpus_before) → \(.corpus) | \(.crashes) |"' "$out/summary.json"
} >"$out/summary.md"

if ((coverage)); then
    fuzz/coverage.sh -o "$out" "${targets[@]}" || build_error=1
    [[ -s "$out/coverage.md" ]] && { echo; cat "$out/coverage.md"; } >>"$out/summary.md"
fi
cat "$out/summary.md"

((build_error == 0)) || exit 2
crashed="$(jq '[.[].crashes] | add' "$out/summary.json")"
((crashed == 0)) || { echo "nightly.sh: $crashed crash(es); regressions written under corpus/regressions/" >&2; exit 1; }
