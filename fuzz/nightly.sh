#!/usr/bin/env bash
# The nightly fuzz run, also the CI smoke (with a short budget).
#
# For each target: fuzz it on the merged corpus (the live corpus, the committed
# seeds and regressions, the golden vectors' wire text) with the dictionary;
# minimize the live corpus; minimize every crash into corpus/regressions/<target>/
# named for the property it broke; write a summary per target (runs, execs/s,
# cov, ft, corpus size, crashes) as JSON and a Markdown table.
#
# Usage: fuzz/nightly.sh [-t SECONDS] [-j JOBS] [-o OUT_DIR] [--no-build] [TARGET...]
#   -t SECONDS   fuzzing time per target (default 600)
#   -j JOBS      targets fuzzed at once (default 1)
#   -o OUT_DIR   logs, summary.json, summary.md, crash artifacts (default fuzz/out)
#   --no-build   use the binaries already built
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
targets=()
while (($#)); do
    case "$1" in
    -t) budget="${2:?-t needs seconds}"; shift 2 ;;
    -j) jobs="${2:?-j needs a number}"; shift 2 ;;
    -o) out="${2:?-o needs a directory}"; shift 2 ;;
    --no-build) build=0; shift ;;
    -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "nightly.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
    esac
done
[[ "$budget" =~ ^[0-9]+$ && "$jobs" =~ ^[1-9][0-9]*$ ]] || {
    echo "nightly.sh: -t and -j take positive integers" >&2
    exit 2
}
for tool in jq cargo; do
    command -v "$tool" >/dev/null || { echo "nightly.sh: needs $tool" >&2; exit 2; }
done
if ((${#targets[@]} == 0)); then
    mapfile -t targets < <(sed -n 's/^name = "\([a-z_]*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^wirecheck')
fi

# The harness forbids `unsafe`, so AddressSanitizer has little to find and halves
# the exec rate; debug assertions (-a) stay on, so an overflow is a finding.
sanitizer="${SANITIZER:-none}"
build_flags=(-s "$sanitizer" -a)
if ((build)); then
    cargo +nightly fuzz build "${build_flags[@]}" || exit 2
fi
triple="$(rustc +nightly -vV | sed -n 's/^host: //p')"
bin_dir="fuzz/target/$triple/release"

mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The golden vectors' wire text (`frame`/`wire`, `frame_hex`, an exchange's reply
# frame), one file each, for the byte-level targets. One jq call for all files.
vectors="$work/vectors"
mkdir -p "$vectors"
if [[ -d conformance/vectors ]]; then
    n=0
    while IFS=$'\t' read -r how data; do
        n=$((n + 1))
        case "$how" in
        text) base64 -d <<<"$data" >"$vectors/vector-$n" ;;
        hex) xxd -r -p <<<"$data" >"$vectors/vector-$n" ;;
        esac
    done < <(find conformance/vectors -name '*.json' -print0 | xargs -0 -r jq -r '
        ([.wire, .frame, (.exchange | objects | .reply | objects | .frame)] | map(strings) | .[]
            | ["text", @base64] | @tsv),
        (.frame_hex | strings | ["hex", .] | @tsv)' 2>/dev/null || true)
fi

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
    # The byte-level targets share one seed set of wire frames (as
    # `harness::fuzzing::Target::seeds` says); a structured target has its own.
    local seeds="corpus/seeds/$t"
    case "$t" in roundtrip_bytes | lift_refusals | rules) seeds="corpus/seeds/frames" ;; esac
    local live="fuzz/corpus/$t" regs="corpus/regressions/$t"
    local artifacts="$out/artifacts/$t" log="$out/$t.log"
    mkdir -p "$live" "$seeds" "$regs" "$artifacts"
    [[ -x "$bin" ]] || { echo "nightly.sh: no binary $bin (build failed?)" >&2; return 2; }
    local dirs=("$live" "$seeds" "$regs")
    local ext=".bin"
    case "$t" in roundtrip_bytes | lift_refusals | rules) dirs+=("$vectors"); ext=".json" ;; esac

    echo "nightly.sh: $t for ${budget}s" >&2
    local status=0
    # New inputs go to the first directory only: the seeds are never rewritten.
    # shellcheck disable=SC2086 # FUZZ_ARGS is a list of flags
    nice -n "${NICE:-10}" "$bin" "${dirs[@]}" -dict=fuzz/jsonrpc.dict \
        -max_total_time="$budget" -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" ${FUZZ_ARGS:-} >"$log" 2>&1 || status=$?

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

    final_stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -n1; }
    local status_line cov ft
    status_line="$(grep -E 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n1 || true)"
    cov="$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$status_line")"
    ft="$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$status_line")"
    jq -n --arg target "$t" --argjson seconds "$budget" \
        --arg runs "$(final_stat number_of_executed_units)" \
        --arg execs "$(final_stat average_exec_per_sec)" \
        --arg new "$(final_stat new_units_added)" \
        --arg rss "$(final_stat peak_rss_mb)" \
        --arg cov "$cov" --arg ft "$ft" \
        --argjson corpus "$(find "$live" -type f | wc -l)" \
        --argjson crashes "$crashes" \
        --arg sanitizer "$sanitizer" \
        --args '{target: $target, seconds: $seconds, runs: ($runs | tonumber? // null),
            execs_per_sec: ($execs | tonumber? // null), cov: ($cov | tonumber? // null),
            ft: ($ft | tonumber? // null), new_units: ($new | tonumber? // null),
            corpus: $corpus, peak_rss_mb: ($rss | tonumber? // null), crashes: $crashes,
            regressions: $ARGS.positional, sanitizer: $sanitizer}' \
        "${regressions[@]}" >"$out/$t.json"
}

# Fuzz up to $jobs targets at once; remember who failed.
pids=()
for t in "${targets[@]}"; do
    while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
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
    echo "| target | seconds | runs | execs/s | cov | ft | corpus | crashes |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|"
    jq -r '.[] | "| `\(.target)` | \(.seconds) | \(.runs) | \(.execs_per_sec) | \(.cov) | \(.ft) | \(.corpus) | \(.crashes) |"' "$out/summary.json"
} >"$out/summary.md"
cat "$out/summary.md"

((build_error == 0)) || exit 2
crashed="$(jq '[.[].crashes] | add' "$out/summary.json")"
((crashed == 0)) || { echo "nightly.sh: $crashed crash(es); regressions written under corpus/regressions/" >&2; exit 1; }
