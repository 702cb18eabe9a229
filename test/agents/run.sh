#!/usr/bin/env bash
# Runs the agent CLI suite (see run.mjs): installs test/agents' own packages
# with npm ci when they are missing, then runs the matrix. Arguments go to run.mjs,
# e.g. bash test/agents/run.sh --cli claude --upstream gemini
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# opencode is installed for linux-x64 only (see README), so its binary is looked for there only.
missing_opencode=false
if [ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] && [ ! -x "$here/node_modules/opencode-linux-x64/bin/opencode" ]; then missing_opencode=true; fi
if [ ! -x "$here/node_modules/.bin/codex" ] || [ ! -d "$here/node_modules/@anthropic-ai/claude-code" ] || [ ! -d "$here/node_modules/@google/gemini-cli" ] || $missing_opencode; then
  (cd "$here" && npm ci --no-audit --no-fund)
fi
exec node "$here/run.mjs" "$@"
