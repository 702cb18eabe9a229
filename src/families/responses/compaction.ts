/**
 * Remote compaction, as Codex asks for it: a Responses request whose input
 * ends with a `{"type": "compaction_trigger"}` item (or a
 * `POST /v1/responses/compact`) wants exactly one `compaction` output item,
 * whose opaque `encrypted_content` the client sends back on later turns in
 * place of the turns it replaces.
 *
 * An `openai-responses` channel does this itself (the request passes through
 * untouched). Any other upstream gets a summarising request instead: the
 * conversation so far, then the hand-off prompt below, with tool calls turned
 * off; the summary it writes is sealed (core/reasoning-state.ts, kind
 * `compaction`) into the item's `encrypted_content`. A later turn's sealed
 * item is opened and becomes the summary as conversation text, for every
 * upstream (an OpenAI upstream cannot read the gateway's token). A compaction
 * item the gateway did not seal is OpenAI's own: only a native channel can
 * read it, so every translated plan refuses it by name.
 */
import type { ChatRequest } from '../../core/chat.js';
import { isSealedReasoning, type ReasoningSealer } from '../../core/reasoning-state.js';
import type { CompactionOutputItem } from '../../dialects/responses/wire.js';
import { newResponsesId } from './ids.js';
import { itemKind, type InputItem } from '../../dialects/responses/schema-items.js';

/** What the gateway asks an upstream for when it compacts: a summary another agent can continue from. */
export const COMPACTION_PROMPT = [
  'The conversation above is being compacted: it will be replaced by the summary you write now, and the work',
  'continues from that summary alone. Do not call any tool and do not continue the task. Write a hand-off',
  'summary for the agent that takes over, in plain text, with these sections:',
  '1. Goal: what the user asked for, in their words where they matter, and any constraints they set.',
  '2. Decisions: what was decided or ruled out, and why.',
  '3. Files and state: files, commands, paths, identifiers and values that were read, created or changed, and the',
  '   state each was left in.',
  '4. Progress: what is done and verified, what is done but unverified, what failed and the error it gave.',
  '5. Next steps: what remains, in order, starting with the very next action.',
  'Be specific and complete but brief; leave out pleasantries and anything the next agent cannot use.',
].join('\n');

/** How an opened summary reads to the upstream on a later turn. */
const SUMMARY_PREAMBLE = 'Summary of the conversation so far (the earlier turns were compacted into it):';

/** Where the gateway's seal says the summary came from (it goes back to no upstream as state). */
const SUMMARY_ORIGIN = 'switchyard';

/**
 * Whether a request asks for a compaction: its input ends with the trigger
 * (as Codex sends it). A trigger anywhere else is an earlier turn's, replayed
 * from the store, and asks for nothing.
 */
export function asksForCompaction(items: ReadonlyArray<{ item: InputItem }>): boolean {
  const last = items[items.length - 1];
  return last !== undefined && itemKind(last.item) === 'compaction_trigger';
}

/** Whether an item is a compaction the gateway sealed (it may still fail to open). */
export function isGatewayCompaction(item: InputItem): boolean {
  return itemKind(item) === 'compaction' && isSealedReasoning(item.encrypted_content);
}

/** The one output item of a compaction the gateway performed. */
export function compactionItem(sealer: ReasoningSealer, summary: string): CompactionOutputItem {
  return { id: newResponsesId('cmp'), type: 'compaction', encrypted_content: sealer.seal({ origin: SUMMARY_ORIGIN, kind: 'compaction', value: summary }) };
}

/** The summary inside a compaction item the gateway sealed; undefined for any other item or a token it cannot open. */
export function openSummary(sealer: ReasoningSealer, item: InputItem): string | undefined {
  if (!isGatewayCompaction(item)) return undefined;
  const state = sealer.open(item.encrypted_content as string);
  return state?.kind === 'compaction' ? state.value : undefined;
}

/** The text that stands for a compaction on later turns. */
export function summaryText(summary: string): string {
  return `${SUMMARY_PREAMBLE}\n\n${summary}`;
}

/** A sealed compaction as the user message a native upstream reads instead. */
export function summaryMessage(summary: string): InputItem {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text: summaryText(summary) }] };
}

/**
 * The summarising request for an upstream that cannot compact: the same
 * conversation, tools still declared (a history holding tool calls needs
 * them on some upstreams) but not callable, then the hand-off prompt. A
 * forced answer format would fight the summary, so none is asked for; nor is
 * reasoning, which would spend the client's output budget (Codex's, or a
 * small `max_output_tokens`) on thoughts nobody reads instead of the summary.
 */
export function summarisingRequest(request: ChatRequest): ChatRequest {
  const out: ChatRequest = { ...request, messages: [...request.messages] };
  delete out.responseFormat;
  delete out.thinking;
  if (out.tools && out.tools.length > 0) out.toolChoice = { type: 'none' };
  else delete out.toolChoice;
  const last = out.messages[out.messages.length - 1];
  const prompt = { type: 'text' as const, text: COMPACTION_PROMPT };
  if (last && last.role === 'user') out.messages[out.messages.length - 1] = { ...last, content: [...last.content, prompt] };
  else out.messages.push({ role: 'user', content: [prompt] });
  return out;
}
