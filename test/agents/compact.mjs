/**
 * The `compact` case: Codex with its built-in provider (`codex-builtin`:
 * `openai_base_url` in config.toml, `codex login --with-api-key`, the
 * Responses WebSocket) and a compaction threshold so low that its tool loop
 * compacts remotely: a turn whose input ends with a `compaction_trigger`
 * item, answered with exactly one `compaction` item, then a turn carrying
 * that item back (see docs/compaction.md). The fakes answer a compacted
 * conversation with SWITCHYARD_COMPACTED_OK (fakes/common.mjs).
 *
 *   node test/agents/run.mjs --cli codex-builtin --case compact
 */
import { carriesToolResult } from './lib.mjs';

export const COMPACT_CASE = 'compact';
const COMPACTED_OK = 'SWITCHYARD_COMPACTED_OK';

/**
 * Tokens after which Codex compacts: below what its first tool-loop turn
 * reports (its instructions and tools alone are more), so the loop compacts
 * before the turn that carries the tool's output is answered.
 */
const COMPACT_TOKEN_LIMIT = 3000;

/** The config.toml line of the compact case. */
export const COMPACT_CONFIG = `model_auto_compact_token_limit = ${COMPACT_TOKEN_LIMIT}\n`;

/**
 * Not through the simulator: the simulator calls any tool the prompt names
 * until the last turn carries a tool result, and after a compaction it no
 * longer does (the result was compacted away), so the loop would compact
 * forever. The gateway's compaction on the simulator is covered by
 * test/e2e/responses-compaction.test.ts.
 */
export function compactApplies(upstream) {
  return upstream !== 'simulator';
}

/** A turn's input items (an HTTP body or a WebSocket `response.create`). */
const inputOf = (record) => (Array.isArray(record.body?.input) ? record.body.input : []);

/**
 * Why a compact case failed: no compaction asked, the trigger not answered
 * with exactly one `compaction` item, no tool output before it, no later turn
 * carrying the item back, or a final answer other than the fakes' answer to
 * a compacted conversation.
 */
export function compactReasons(records, outcome) {
  const reasons = [];
  const turns = records.filter((r) => (r.method === 'POST' || r.method === 'WS') && inputOf(r).length);
  const asked = turns.findIndex((r) => inputOf(r).at(-1)?.type === 'compaction_trigger');
  if (asked < 0) return ['Codex never asked for a compaction (no turn ended with a compaction_trigger item)'];
  const trigger = turns[asked];
  if (trigger.response?.status !== 200) reasons.push(`the compaction_trigger turn was answered ${trigger.response?.status}`);
  // Output item types are recorded for WebSocket turns; Codex itself fails on an HTTP turn without exactly one.
  else if (trigger.items) {
    const compactions = trigger.items.filter((type) => type === 'compaction').length;
    if (compactions !== 1) reasons.push(`the compaction_trigger turn was answered with ${compactions} compaction item(s) (items: ${trigger.items.join(', ') || 'none'})`);
  }
  if (!turns.slice(0, asked + 1).some((r) => carriesToolResult(r.body))) reasons.push('no turn up to the compaction carried the tool output (the tool loop did not happen)');
  if (!turns.slice(asked + 1).some((r) => inputOf(r).some((item) => item?.type === 'compaction'))) reasons.push('no later turn carried the compaction item back');
  if (!outcome.text.includes(COMPACTED_OK)) reasons.push(`answer lacks ${COMPACTED_OK}: ${JSON.stringify(outcome.text.slice(0, 160))}`);
  return reasons;
}
