#!/usr/bin/env bash
# cargo-mutants over the judging parts of `conformance`: the files whose
# code decides a verdict or an exit code, and the fast tests that judge them. The one
# list of both, used by the command in conformance/book/mutation-testing.md, .github/workflows/mutants.yml and
# .ci/run (which only lists the mutants). The harness is `cargo mutants -p
# wirecheck-harness` itself; `.cargo/mutants.toml` configures both.
#
# Usage: conformance/mutants.sh [CARGO-MUTANTS OPTIONS…]
#   e.g. --list · -o /tmp/mutconf · --in-diff git.diff · --shard 0/2 · -F REGEX
#
# The files: the library judge of one answer (judge/: mod, answer, audit), the
# client judge's cursor rules, the report model with its tally and exit code
# (report/'s model files, not its views), and the feeder that hands the
# runner's live sessions to the session judge (runner/sessions.rs). The tests: the wirecheck unit tests, the vector runner
# (every shipped vector's audit and recorded reply through the judge), the
# client judge driven frame by frame, the report views, the vectors' self-check
# on broken vectors, and the binaries written for survivors; together under 5 s.
# The other test binaries (the slow live ones: run, run_http, livefuzz, hostile)
# are not built: a mutant costs the rebuild of the wirecheck library and those
# seven.
set -euo pipefail
cd "$(dirname "$0")/.."
export WIRECHECK_MCP_SPEC="${WIRECHECK_MCP_SPEC:-$(cd .. && pwd)/shared/mcp-spec}"
export WIRECHECK_MCP_SCHEMAS="${WIRECHECK_MCP_SCHEMAS:-$(cd .. && pwd)/shared/mcp-schema}"

files=(
    conformance/src/judge/mod.rs
    conformance/src/judge/answer.rs
    conformance/src/judge/audit.rs
    conformance/src/clientcheck/cursors.rs
    conformance/crates/report/src/check.rs
    conformance/crates/report/src/command.rs
    conformance/crates/report/src/findings.rs
    conformance/crates/report/src/model.rs
    conformance/crates/report/src/record.rs
    conformance/crates/report/src/run.rs
    conformance/crates/report/src/tally.rs
    conformance/src/runner/sessions.rs
)
tests=(
    --lib
    --test=vectors
    --test=client_judge
    --test=judge_verdicts
    --test=client_cursors
    --test=report_views
    --test=vector_audit
)

# The report model is a crate of its own (wirecheck-report); its mutants are
# judged by the same tests, all of them wirecheck's (`--test-package`).
args=(-p wirecheck -p wirecheck-report --test-package wirecheck)
for f in "${files[@]}"; do args+=(-f "$f"); done
if [[ " $* " == *" --list "* ]]; then
    exec cargo mutants "${args[@]}" "$@"
fi
# The tests go to every cargo invocation (`--cargo-arg`), the build's included:
# after `--` they would reach `cargo test` only, and each mutant's build would
# compile all 20 test binaries and the `wirecheck` binary, most of a 35-45 s
# build here, for the 6 the tests run.
for t in "${tests[@]}"; do args+=("--cargo-arg=$t"); done
exec cargo mutants "${args[@]}" --timeout 600 --build-timeout 900 "$@"
