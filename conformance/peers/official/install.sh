#!/usr/bin/env bash
# Installs what checks the reference peer from outside, at the exact versions committed
# here, into this folder's ignored node_modules/ and .venv/ only:
#   - package.json + package-lock.json: @modelcontextprotocol/conformance (the official
#     conformance suite), @modelcontextprotocol/sdk (the TypeScript SDK the client script
#     uses), jose (the JWT verifier of ../auth/ts-server.mjs) and `node` 22 (the suite
#     needs Node >= 22; the machine's may be older);
#   - requirements.txt: the Python SDK `mcp` and its dependencies, every file by hash.
# Idempotent and offline once installed: each part is skipped when what is installed
# already matches its pin file (a stamp holds the pin file's hash), so a second run
# contacts no registry. Only the npm registry and PyPI are ever contacted.
set -euo pipefail
cd "$(dirname "$0")"

stamp_of() { sha256sum "$@" | sha256sum | cut -d' ' -f1; }

npm_stamp="$(stamp_of package.json package-lock.json)"
if [[ -x node_modules/node/bin/node && "$(cat node_modules/.wirecheck-stamp 2>/dev/null)" == "$npm_stamp" ]]; then
  echo "official suite: node_modules up to date"
else
  npm ci --no-audit --no-fund --loglevel=error
  echo "$npm_stamp" >node_modules/.wirecheck-stamp
fi

py_stamp="$(stamp_of requirements.txt)"
if [[ -x .venv/bin/python && "$(cat .venv/.wirecheck-stamp 2>/dev/null)" == "$py_stamp" ]]; then
  echo "official suite: .venv up to date"
else
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check --require-hashes -r requirements.txt
  echo "$py_stamp" >.venv/.wirecheck-stamp
fi

echo "node:        $PWD/node_modules/node/bin/node ($(node_modules/node/bin/node --version))"
echo "conformance: $PWD/node_modules/.bin/conformance"
echo "python:      $PWD/.venv/bin/python (mcp $(.venv/bin/python -c 'import importlib.metadata as m; print(m.version("mcp"))'))"
