/**
 * Chat-completions SSE → ChatEvents, with a small state machine: one block is
 * open at a time; a text block opens on the first content, a thinking block on
 * reasoning deltas, one tool_call block per tool index (id and name from its
 * first delta; later deltas may repeat `"id": ""`). Opening a block closes the
 * previous one. `finish` is emitted once both the finish_reason and the usage
 * have arrived (OpenAI sends usage in a last chunk with `choices: []`; others
 * put it on the finish chunk), or at `[DONE]` / the end of the stream.
 */
import type { CallSignal } from '../../../core/call-signal.js';
import type { BlockStart, ChatEvent, FinishReason, Usage } from '../../../core/chat.js';
import { GatewayError, upstreamStatusError } from '../../../core/errors.js';
import { toUpstreamError } from '../../http.js';
import { readSse } from '../../sse.js';
import type { UpstreamLimits } from '../../../core/upstream-limits.js';
import { newCompletionId, newToolCallId } from './ids.js';
import { mapFinishReason } from '../../../dialects/chat-completions/finish-reason.js';
import { DetailsCollector } from './reasoning-details.js';
import { usageFromChatCompletion } from '../../../dialects/chat-completions/usage.js';
import type { ChatCompletionChunk, ChatCompletionMessage } from '../../../dialects/chat-completions/wire.js';
import type { SkippedChunks } from './endpoint.js';

export async function* chatSseToEvents(body: AsyncIterable<Uint8Array>, signal?: CallSignal, limits?: UpstreamLimits, skipped?: SkippedChunks): AsyncGenerator<ChatEvent> {
  const state = new ChatStreamState();
  const out: ChatEvent[] = [];
  try {
    for await (const sse of readSse(body, limits)) {
      // After finish, keep reading (only [DONE] is left) so the connection can be reused.
      if (state.finished) continue;
      if (sse.data === '[DONE]') state.end(out);
      else {
        const chunk = parseChunk(sse.data);
        if (skipped?.skips(chunk)) continue;
        state.handle(chunk, out);
      }
      for (let i = 0; i < out.length; i++) yield out[i];
      out.length = 0;
    }
  } catch (error) {
    throw toUpstreamError(error, signal);
  }
  if (state.finished) return;
  if (!state.sawFinishReason) throw new GatewayError('upstream_error', 'upstream stream ended before a finish_reason', { retryable: true });
  state.end(out); // finish_reason came but neither usage nor [DONE]: the stream still completed
  yield* out;
}

function parseChunk(data: string): ChatCompletionChunk {
  let chunk: ChatCompletionChunk;
  try {
    chunk = JSON.parse(data) as ChatCompletionChunk;
  } catch {
    throw new GatewayError('upstream_error', 'upstream sent a malformed stream chunk', { retryable: true });
  }
  if (chunk.error) {
    const error = typeof chunk.error === 'string' ? { message: chunk.error } : chunk.error;
    const status = typeof error.code === 'number' && error.code >= 400 ? error.code : 500;
    throw upstreamStatusError(status, error.message || 'upstream reported an error mid-stream');
  }
  return chunk;
}

type OpenKind = 'text' | 'thinking' | 'tool';

class ChatStreamState {
  finished = false;
  sawFinishReason = false;
  private started = false;
  private reason: FinishReason = 'other';
  private refused = false;
  private usage: Usage | undefined;
  private nextIndex = 0;
  private open: { kind: OpenKind; index: number; toolIndex?: number } | undefined;
  /** Tool index → block index, for every tool call seen. */
  private readonly toolBlocks = new Map<number, number>();
  /** `reasoning_details` pieces, sent on as one signed state when the answer ends. */
  private readonly details = new DetailsCollector();

  handle(chunk: ChatCompletionChunk, out: ChatEvent[]): void {
    if (!this.started) {
      this.started = true;
      out.push({ type: 'message_start', id: chunk.id || newCompletionId(), model: chunk.model });
    }
    if (chunk.usage) this.usage = usageFromChatCompletion(chunk.usage);
    const choice = chunk.choices?.[0];
    if (choice?.delta) this.handleDelta(choice.delta, out);
    if (choice?.finish_reason) {
      this.sawFinishReason = true;
      this.reason = mapFinishReason(choice.finish_reason);
    }
    if (this.sawFinishReason && this.usage) this.end(out);
  }

  /** Closes the open block and emits finish (with zero usage if the upstream reported none). */
  end(out: ChatEvent[]): void {
    if (this.finished) return;
    if (!this.started) {
      this.started = true;
      out.push({ type: 'message_start', id: newCompletionId() });
    }
    this.closeOpen(out);
    const state = this.details.state();
    if (state) {
      const index = this.openBlock('thinking', { type: 'thinking' }, out);
      out.push({ type: 'signature_delta', index, signature: state.signature! });
      this.closeOpen(out);
    }
    this.finished = true;
    const reason = this.refused ? 'refusal' : this.reason;
    if (this.usage) out.push({ type: 'finish', reason, stopSequence: null, usage: this.usage });
    else out.push({ type: 'finish', reason, stopSequence: null, usage: usageFromChatCompletion(undefined), unreported: true });
  }

  private handleDelta(delta: ChatCompletionMessage, out: ChatEvent[]): void {
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (reasoning) out.push({ type: 'thinking_delta', index: this.ensure('thinking', out), text: reasoning });
    if (delta.reasoning_details) this.details.add(delta.reasoning_details);
    if (delta.content) out.push({ type: 'text_delta', index: this.ensure('text', out), text: delta.content });
    if (delta.refusal) {
      this.refused = true;
      out.push({ type: 'text_delta', index: this.ensure('text', out), text: delta.refusal });
    }
    if (delta.tool_calls) for (const call of delta.tool_calls) this.handleToolCall(call, out);
  }

  private handleToolCall(call: NonNullable<ChatCompletionMessage['tool_calls']>[number], out: ChatEvent[]): void {
    const toolIndex = call.index ?? 0;
    const args = call.function?.arguments;
    let index = this.toolBlocks.get(toolIndex);
    if (index === undefined) {
      index = this.openBlock('tool', { type: 'tool_call', id: call.id || newToolCallId(), name: call.function?.name ?? '' }, out, toolIndex);
      this.toolBlocks.set(toolIndex, index);
    } else if (this.open?.kind !== 'tool' || this.open.toolIndex !== toolIndex) {
      // Its block was closed when another began; ChatEvents cannot reopen it.
      if (args) throw new GatewayError('upstream_error', 'upstream interleaved the arguments of parallel tool calls', { retryable: true });
      return;
    }
    if (args) out.push({ type: 'tool_input_delta', index, json: args });
  }

  private ensure(kind: 'text' | 'thinking', out: ChatEvent[]): number {
    if (this.open?.kind === kind) return this.open.index;
    return this.openBlock(kind, { type: kind }, out);
  }

  private openBlock(kind: OpenKind, block: BlockStart, out: ChatEvent[], toolIndex?: number): number {
    this.closeOpen(out);
    const index = this.nextIndex++;
    out.push({ type: 'block_start', index, block });
    this.open = { kind, index, toolIndex };
    return index;
  }

  private closeOpen(out: ChatEvent[]): void {
    if (!this.open) return;
    out.push({ type: 'block_stop', index: this.open.index });
    this.open = undefined;
  }
}
