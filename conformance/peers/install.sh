#!/usr/bin/env bash
# Installs the third-party peers wirecheck is run against (CI and local runs), at the exact
# versions package.json and package-lock.json pin, into conformance/peers/node_modules.
# Only the npm registry is contacted.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
echo "server-everything: $PWD/node_modules/.bin/mcp-server-everything"
