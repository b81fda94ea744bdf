#!/usr/bin/env bash
# Installs the zoo: third-party servers wirecheck is measured against, at the exact
# versions package.json/package-lock.json and requirements.txt pin, into
# conformance/peers/zoo/{node_modules,.venv}. Only the npm registry and PyPI are contacted.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
# server-everything, pinned beside the zoo in conformance/peers/ (zoo.toml refers to it there).
../install.sh >/dev/null
[[ -x .venv/bin/python ]] || python3 -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
echo "zoo installed: $PWD"
