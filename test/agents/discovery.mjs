/**
 * The `discovery` case (Claude Code): a plain turn with
 * `CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY=1` (clis.mjs sets it for this
 * case), under which Claude Code asks the gateway for its model list
 * (`GET /v1/models?limit=1000`, Anthropic's shape) at start and caches what
 * it keeps of it under its config dir (see docs/claude-code.md).
 *
 *   node test/agents/run.mjs --cli claude --case discovery
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const DISCOVERY_CASE = 'discovery';

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Why a discovery case failed (besides the plain case's checks): no list asked, refused, or the model not kept. */
export function discoveryReasons(records, { home, model }) {
  const listing = records.find((r) => r.method === 'GET' && r.path.split('?')[0] === '/v1/models');
  if (!listing) return ['the CLI did not ask for the model list (GET /v1/models)'];
  if (listing.response?.status !== 200) return [`the model list was answered ${listing.response?.status}`];
  // What the CLI kept of the list (only claude/anthropic names): the model under test must be among them.
  const cached = readJson(path.join(home, '.claude', 'cache', 'gateway-models.json'));
  if (!cached?.models?.some((m) => m.id === model)) return [`the CLI's discovery cache lacks ${model}: ${JSON.stringify(cached)?.slice(0, 200)}`];
  return [];
}
