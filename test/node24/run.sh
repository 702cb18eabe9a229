#!/usr/bin/env bash
# The whole main suite and the multi-process suites (vitest.multi.config.ts)
# again on Node 24, the recommended Node line (`npm test` and `npm run
# test:multi` run on the machine's Node). Node 22 and later open SQLite with
# better-sqlite3 13 where Node 20 has 12 (src/storage/sqlite-driver.ts); 13's
# addon is prebuilt for Node-API, so the same node_modules serves both and
# nothing is rebuilt. Arguments narrow both runs, e.g.
# `bash test/node24/run.sh test/storage` (a run they leave no file of passes).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=use.sh
source test/node24/use.sh
narrowed=()
if [ "$#" -gt 0 ]; then narrowed=(--passWithNoTests "$@"); fi
npx vitest run "${narrowed[@]}"
npx vitest run --config vitest.multi.config.ts "${narrowed[@]}"
