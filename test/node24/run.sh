#!/usr/bin/env bash
# The whole main suite again on Node 24, the recommended Node line (`npm test`
# runs on the machine's Node). Node 22 and later open SQLite with
# better-sqlite3 13 where Node 20 has 12 (src/storage/sqlite-driver.ts); 13's
# addon is prebuilt for Node-API, so the same node_modules serves both and
# nothing is rebuilt. Arguments narrow the run, e.g.
# `bash test/node24/run.sh test/storage`.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=use.sh
source test/node24/use.sh
npx vitest run "$@"
