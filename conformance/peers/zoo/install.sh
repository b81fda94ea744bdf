#!/usr/bin/env bash
# Installs the zoo: third-party servers wirecheck is measured against, at the exact
# versions package.json/package-lock.json, requirements.txt and the line below pin, into
# conformance/peers/zoo/{node_modules,.venv,.cargo}. Only the npm registry, PyPI and
# crates.io are contacted.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
# server-everything, pinned beside the zoo in conformance/peers/ (zoo.toml refers to it there).
../install.sh >/dev/null
[[ -x .venv/bin/python ]] || python3 -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
# crates.io: an MCP server written in Rust (rust-mcp-sdk), built from its published
# source with its own lockfile (--locked); a few minutes the first time.
[[ -x .cargo/bin/rust-mcp-filesystem ]] \
  || cargo install rust-mcp-filesystem --version 0.4.5 --locked --root "$PWD/.cargo" --quiet
echo "zoo installed: $PWD"
