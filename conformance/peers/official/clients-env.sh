# Sourced, not run, by the scripts that judge the official SDK clients
# (../clients/run.sh, ../auth/clients.sh) with their arguments: the one place
# that says where the release wirecheck, the node and Python install.sh pins,
# and the results directory are, and that each is there before a run (exit 2
# when not).
# Sets: root (the checkout), official (this directory), wirecheck, node, python,
# results (the script's first argument, else a fresh temporary directory).
official="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$official/../../.." && pwd)"
wirecheck="${WIRECHECK:-$root/target/release/wirecheck}"
node="$official/node_modules/node/bin/node"
python="$official/.venv/bin/python"
results="${1:-$(mktemp -d)}"
mkdir -p "$results"
[[ -x "$wirecheck" ]] || { echo "no $wirecheck: cargo build --release -p wirecheck" >&2; exit 2; }
[[ -x "$node" && -x "$python" ]] || { echo "run $official/install.sh first" >&2; exit 2; }
