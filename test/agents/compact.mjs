/**
 * The `compact` case (Codex only): Codex with its built-in provider
 * (`openai_base_url` in config.toml, `codex login --with-api-key`) and a
 * compaction threshold so low that its tool loop compacts remotely: a
 * request ending with a `compaction_trigger` item, then a turn carrying the
 * `compaction` item it got back (see docs/compaction.md). The fakes answer a
 * compacted conversation with SWITCHYARD_COMPACTED_OK (fakes/common.mjs).
 *
 *   node test/agents/run.mjs --cli codex --case compact
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLIENT_KEY, TOOL_PROMPT } from './lib.mjs';

export const COMPACT_CASE = 'compact';

/**
 * Codex only, and not through the simulator: the simulator calls any tool
 * the prompt names until the last turn carries a tool result, and after a
 * compaction it no longer does (the result was compacted away), so the loop
 * would compact forever. The gateway's compaction on the simulator is covered
 * by test/e2e/responses-compaction.test.ts.
 */
export function compactApplies(cli, upstream) {
  return cli === 'codex' && upstream !== 'simulator';
}
/** Tokens after which Codex compacts: below what its first tool-loop turn reports, so the loop compacts once. */
const COMPACT_TOKEN_LIMIT = 3000;

/** The Codex command of the compact case (built-in provider, logged in with the client key). */
export function compactCommand(spec, { baseUrl, model, home, cwd }) {
  const codexHome = path.join(home, '.codex');
  writeFileSync(path.join(codexHome, 'config.toml'), `openai_base_url = "${baseUrl}/v1"\nmodel_auto_compact_token_limit = ${COMPACT_TOKEN_LIMIT}\n`);
  const base = spec.command({ baseUrl, model, prompt: TOOL_PROMPT, home, cwd });
  const login = spawnSync(base.command, [...loginPrefix(base), 'login', '--with-api-key'], { env: base.env, input: `${CLIENT_KEY}\n`, encoding: 'utf8' });
  if (login.status !== 0) throw new Error(`codex login --with-api-key failed: ${login.stderr}`);
  // The custom provider's `-c` pairs are left out: the built-in provider is what compacts remotely.
  const args = [];
  for (let i = 0; i < base.args.length; i++) {
    if (base.args[i] === '-c' && /^model_provider/.test(base.args[i + 1] ?? '')) i++;
    else args.push(base.args[i]);
  }
  return { ...base, args };
}

/** `node <codex.js>` keeps its script path before the subcommand. */
function loginPrefix(base) {
  const exec = base.args.indexOf('exec');
  return exec > 0 ? base.args.slice(0, exec) : [];
}

/** Why a compact case failed: no compaction asked, none sent back, or no answer after it. */
export function compactReasons(upstream, records, outcome) {
  const reasons = [];
  const posts = records.filter((r) => r.method === 'POST' && Array.isArray(r.body?.input));
  const asked = posts.findIndex((r) => r.body.input.at(-1)?.type === 'compaction_trigger');
  if (asked < 0) reasons.push('Codex never asked for a compaction (no compaction_trigger)');
  else if (!posts.slice(asked + 1).some((r) => r.body.input.some((item) => item.type === 'compaction'))) reasons.push('no later turn carried the compaction item back');
  if (upstream !== 'simulator' && !outcome.text.includes('SWITCHYARD_COMPACTED_OK')) reasons.push(`answer lacks SWITCHYARD_COMPACTED_OK: ${JSON.stringify(outcome.text.slice(0, 160))}`);
  return reasons;
}
