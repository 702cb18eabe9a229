#!/usr/bin/env bash
# Runs the agent CLI suite (see run.mjs): installs test/agents' own packages
# with npm ci when they are missing, then runs the matrix. Arguments go to run.mjs,
# e.g. bash test/agents/run.sh --cli claude --upstream gemini
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ ! -x "$here/node_modules/.bin/codex" ] || [ ! -d "$here/node_modules/@anthropic-ai/claude-code" ] || [ ! -d "$here/node_modules/@google/gemini-cli" ]; then
  (cd "$here" && npm ci --no-audit --no-fund)
fi
exec node "$here/run.mjs" "$@"
