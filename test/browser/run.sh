#!/usr/bin/env bash
# The web console's browser test (not part of `npm test`): builds the console,
# then drives it in Chromium against a gateway the test starts on a scratch
# data directory with the simulator upstream. Needs Debian's `chromium`.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
  echo "chromium is not installed (apt-get install -y chromium)" >&2
  exit 1
fi
node scripts/bundle-console.mjs
exec npx tsx test/browser/console.spec.ts
