/**
 * ConverseStream's events → ChatEvents. Converse opens a block explicitly
 * only for a tool call (`contentBlockStart`); a text or reasoning block
 * begins with its first delta, so a block starts at whichever comes first.
 * Blocks are renumbered from 0 in the order they start. `messageStop` gives
 * the stop reason and `metadata`, after it, the usage: the finish goes out
 * once both are known (or with the usage unreported when the stream ends
 * without metadata). A stream exception is thrown as the gateway error it
 * reports; a stream cut before `messageStop` is a retryable upstream error.
 */
import type { CallSignal } from '../../../core/call-signal.js';
import type { ChatEvent, FinishReason, Usage } from '../../../core/chat.js';
import { GatewayError } from '../../../core/errors.js';
import { payloadJson, streamExceptionError, type EventStreamMessage } from '../../aws-event-stream.js';
import { toUpstreamError } from '../../http.js';
import { finishReasonOf, newConverseId, stopSequenceOf, usageFromConverse } from './usage.js';
import type { ConverseStreamEvents } from './wire.js';

export async function* converseEvents(messages: AsyncIterable<EventStreamMessage>, model: string, signal?: CallSignal): AsyncGenerator<ChatEvent> {
  const state = new ConverseStreamState(model);
  const out: ChatEvent[] = [];
  try {
    for await (const message of messages) {
      if (message.messageType !== 'event') throw streamExceptionError(message);
      if (state.finished) continue;
      state.handle(message.type, payloadJson(message), out);
      for (let i = 0; i < out.length; i++) yield out[i];
      out.length = 0;
    }
  } catch (error) {
    throw toUpstreamError(error, signal);
  }
  if (!state.stopped) throw new GatewayError('upstream_error', 'upstream stream ended before messageStop', { retryable: true });
  if (!state.finished) yield state.finish(undefined);
}

type Kind = 'text' | 'thinking' | 'redacted' | 'tool';

class ConverseStreamState {
  stopped = false;
  finished = false;
  private started = false;
  private reason: FinishReason = 'other';
  private stopSequence: string | null = null;
  /** Upstream block index → our block index and kind, while the block is open. */
  private readonly open = new Map<number, { index: number; kind: Kind }>();
  private nextIndex = 0;

  constructor(private readonly model: string) {}

  handle(type: string, payload: Record<string, unknown>, out: ChatEvent[]): void {
    switch (type) {
      case 'messageStart':
        return this.begin(out);
      case 'contentBlockStart': {
        const { contentBlockIndex, start } = payload as unknown as ConverseStreamEvents['contentBlockStart'];
        const toolUse = start?.toolUse;
        if (toolUse) this.openBlock(contentBlockIndex, 'tool', out, { type: 'block_start', index: this.nextIndex, block: { type: 'tool_call', id: toolUse.toolUseId, name: toolUse.name } });
        return;
      }
      case 'contentBlockDelta':
        return this.delta(payload as unknown as ConverseStreamEvents['contentBlockDelta'], out);
      case 'contentBlockStop': {
        const upstream = (payload as unknown as ConverseStreamEvents['contentBlockStop']).contentBlockIndex;
        const block = this.open.get(upstream);
        if (block) {
          out.push({ type: 'block_stop', index: block.index });
          this.open.delete(upstream);
        }
        return;
      }
      case 'messageStop': {
        const stop = payload as unknown as ConverseStreamEvents['messageStop'];
        this.reason = finishReasonOf(stop.stopReason);
        this.stopSequence = stopSequenceOf(stop.additionalModelResponseFields);
        this.stopped = true;
        this.closeAll(out);
        return;
      }
      case 'metadata':
        if (!this.stopped) return;
        out.push(this.finish((payload as unknown as ConverseStreamEvents['metadata']).usage));
        return;
      default:
        return;
    }
  }

  finish(usage: ConverseStreamEvents['metadata']['usage']): ChatEvent {
    this.finished = true;
    const counted: Usage = usageFromConverse(usage);
    return usage
      ? { type: 'finish', reason: this.reason, stopSequence: this.stopSequence, usage: counted }
      : { type: 'finish', reason: this.reason, stopSequence: this.stopSequence, usage: counted, unreported: true };
  }

  private begin(out: ChatEvent[]): void {
    if (this.started) return;
    this.started = true;
    out.push({ type: 'message_start', id: newConverseId(), model: this.model });
  }

  private delta({ contentBlockIndex, delta }: ConverseStreamEvents['contentBlockDelta'], out: ChatEvent[]): void {
    if (!delta) return;
    if (typeof delta.text === 'string') {
      const block = this.blockFor(contentBlockIndex, 'text', out);
      if (delta.text !== '') out.push({ type: 'text_delta', index: block.index, text: delta.text });
    } else if (delta.toolUse) {
      const block = this.open.get(contentBlockIndex);
      if (block?.kind === 'tool' && delta.toolUse.input) out.push({ type: 'tool_input_delta', index: block.index, json: delta.toolUse.input });
    } else if (delta.reasoningContent) {
      const { text, signature, redactedContent } = delta.reasoningContent;
      if (typeof redactedContent === 'string') {
        if (!this.open.has(contentBlockIndex))
          this.openBlock(contentBlockIndex, 'redacted', out, { type: 'block_start', index: this.nextIndex, block: { type: 'redacted_thinking', data: redactedContent } });
        return;
      }
      const block = this.blockFor(contentBlockIndex, 'thinking', out);
      if (text) out.push({ type: 'thinking_delta', index: block.index, text });
      if (signature) out.push({ type: 'signature_delta', index: block.index, signature });
    }
  }

  /** The open block at an upstream index, opened as `kind` by its first delta. */
  private blockFor(upstream: number, kind: 'text' | 'thinking', out: ChatEvent[]): { index: number; kind: Kind } {
    return this.open.get(upstream) ?? this.openBlock(upstream, kind, out, { type: 'block_start', index: this.nextIndex, block: { type: kind } });
  }

  private openBlock(upstream: number, kind: Kind, out: ChatEvent[], start: ChatEvent): { index: number; kind: Kind } {
    this.begin(out);
    const block = { index: this.nextIndex++, kind };
    this.open.set(upstream, block);
    out.push(start);
    return block;
  }

  private closeAll(out: ChatEvent[]): void {
    for (const block of this.open.values()) out.push({ type: 'block_stop', index: block.index });
    this.open.clear();
  }
}
