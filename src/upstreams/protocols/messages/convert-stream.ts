/**
 * Anthropic Messages SSE → ChatEvents. Blocks are renumbered from 0 because
 * server-side tool blocks (server_tool_use, *_tool_result) are skipped: they
 * have no ChatEvent form (see convert-response.ts). The stream must end with
 * message_stop; an `event: error` or a cut connection is thrown as a GatewayError.
 */
import type { CallSignal } from '../../../core/call-signal.js';
import type { ChatEvent, FinishReason, Usage } from '../../../core/chat.js';
import { GatewayError } from '../../../core/errors.js';
import { toUpstreamError } from '../../http.js';
import { readSse } from '../../sse.js';
import type { UpstreamLimits } from '../../../core/upstream-limits.js';
import { errorFromStreamEvent } from '../../../dialects/messages/errors.js';
import { mapStopReason } from '../../../dialects/messages/finish-reason.js';
import { applyMessagesUsage, usageFromMessages } from '../../../dialects/messages/usage.js';
import type { MessagesContentBlock, MessagesStreamEvent } from '../../../dialects/messages/wire.js';

export async function* messagesSseToEvents(body: AsyncIterable<Uint8Array>, signal?: CallSignal, limits?: UpstreamLimits): AsyncGenerator<ChatEvent> {
  const state = new MessagesStreamState();
  const out: ChatEvent[] = [];
  try {
    for await (const sse of readSse(body, limits)) {
      if (sse.event === 'ping' || state.finished) continue;
      let event: MessagesStreamEvent;
      try {
        event = JSON.parse(sse.data) as MessagesStreamEvent;
      } catch {
        throw new GatewayError('upstream_error', `upstream sent a malformed ${sse.event ?? 'stream'} event`, { retryable: true });
      }
      state.handle(event, out);
      for (let i = 0; i < out.length; i++) yield out[i];
      out.length = 0;
    }
  } catch (error) {
    throw toUpstreamError(error, signal);
  }
  if (!state.finished) throw new GatewayError('upstream_error', 'upstream stream ended before message_stop', { retryable: true });
}

class MessagesStreamState {
  finished = false;
  private usage: Usage = usageFromMessages(undefined);
  private reason: FinishReason = 'other';
  private stopSequence: string | null = null;
  /** Upstream block index → our block index; absent for skipped blocks. */
  private readonly indexes = new Map<number, number>();
  private nextIndex = 0;

  handle(event: MessagesStreamEvent, out: ChatEvent[]): void {
    switch (event.type) {
      case 'message_start': {
        const { message } = event;
        this.usage = usageFromMessages(message.usage);
        out.push({ type: 'message_start', id: message.id, model: message.model, usage: { ...this.usage } });
        return;
      }
      case 'content_block_start':
        return this.startBlock(event.index, event.content_block, out);
      case 'content_block_delta': {
        const index = this.indexes.get(event.index);
        if (index === undefined) return;
        const { delta } = event;
        if (delta.type === 'text_delta') out.push({ type: 'text_delta', index, text: delta.text });
        else if (delta.type === 'thinking_delta') out.push({ type: 'thinking_delta', index, text: delta.thinking });
        else if (delta.type === 'signature_delta') out.push({ type: 'signature_delta', index, signature: delta.signature });
        else if (delta.type === 'input_json_delta' && delta.partial_json !== '') out.push({ type: 'tool_input_delta', index, json: delta.partial_json });
        return;
      }
      case 'content_block_stop': {
        const index = this.indexes.get(event.index);
        if (index !== undefined) out.push({ type: 'block_stop', index });
        return;
      }
      case 'message_delta':
        if (event.delta?.stop_reason !== undefined) this.reason = mapStopReason(event.delta.stop_reason);
        if (event.delta?.stop_sequence !== undefined) this.stopSequence = event.delta.stop_sequence;
        applyMessagesUsage(this.usage, event.usage);
        return;
      case 'message_stop':
        this.finished = true;
        out.push({ type: 'finish', reason: this.reason, stopSequence: this.stopSequence, usage: this.usage });
        return;
      case 'error':
        throw errorFromStreamEvent(event);
      default:
        return;
    }
  }

  private startBlock(upstreamIndex: number, block: MessagesContentBlock, out: ChatEvent[]): void {
    const index = this.nextIndex;
    switch (block.type) {
      case 'text': {
        out.push({ type: 'block_start', index, block: { type: 'text' } });
        const text = (block as { text?: string }).text;
        if (text) out.push({ type: 'text_delta', index, text });
        break;
      }
      case 'thinking': {
        out.push({ type: 'block_start', index, block: { type: 'thinking' } });
        const { thinking, signature } = block as { thinking?: string; signature?: string };
        if (thinking) out.push({ type: 'thinking_delta', index, text: thinking });
        if (signature) out.push({ type: 'signature_delta', index, signature });
        break;
      }
      case 'redacted_thinking':
        out.push({ type: 'block_start', index, block: { type: 'redacted_thinking', data: (block as { data: string }).data } });
        break;
      case 'tool_use': {
        const { id, name, input } = block as { id: string; name: string; input?: Record<string, unknown> | null };
        out.push({ type: 'block_start', index, block: { type: 'tool_call', id, name } });
        if (input && Object.keys(input).length > 0) out.push({ type: 'tool_input_delta', index, json: JSON.stringify(input) });
        break;
      }
      default:
        return; // server-side tool blocks: skipped, not numbered
    }
    this.indexes.set(upstreamIndex, index);
    this.nextIndex++;
  }
}
