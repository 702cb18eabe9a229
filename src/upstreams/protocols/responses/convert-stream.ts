/**
 * Responses SSE → ChatEvents. Each output_text or refusal content part is a
 * text block, each function call a tool block, each reasoning item a thinking
 * block (its summary parts as thinking text, its id and encrypted content as
 * the signature when the item is done). Blocks are numbered from 0 in start
 * order; hosted tool records are skipped. The stream must end with a terminal
 * event; an `error` event, `response.failed` or a cut connection is thrown.
 */
import type { CallSignal } from '../../../core/call-signal.js';
import type { ChatEvent, Usage } from '../../../core/chat.js';
import { GatewayError } from '../../../core/errors.js';
import { toUpstreamError } from '../../http.js';
import { readSse } from '../../sse.js';
import type { UpstreamLimits } from '../../../core/upstream-limits.js';
import { errorFromFailedResponse, errorFromStreamEvent } from '../../../dialects/responses/errors.js';
import { finishReasonOf } from '../../../dialects/responses/finish-reason.js';
import { packReasoning } from './reasoning-proof.js';
import { usageFromResponses } from '../../../dialects/responses/usage.js';
import type { WireEvent, WireOutputItem } from '../../../dialects/responses/wire.js';

export async function* responsesSseToEvents(body: AsyncIterable<Uint8Array>, signal?: CallSignal, limits?: UpstreamLimits): AsyncGenerator<ChatEvent> {
  const state = new ResponsesStreamState();
  const out: ChatEvent[] = [];
  try {
    for await (const sse of readSse(body, limits)) {
      if (state.finished || sse.data === '[DONE]') continue;
      let event: WireEvent;
      try {
        event = JSON.parse(sse.data) as WireEvent;
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
  if (!state.finished) throw new GatewayError('upstream_error', 'upstream stream ended before response.completed', { retryable: true });
}

class ResponsesStreamState {
  finished = false;
  private started = false;
  private nextIndex = 0;
  private sawToolCall = false;
  private sawRefusal = false;
  /** Output index → block of a function call or reasoning item (a reasoning block opens with its first content; index -1 until then). */
  private readonly itemBlocks = new Map<number, { index: number; kind: 'tool' | 'thinking'; args: boolean; summaries: number }>();
  /** `<output index>:<content index>` → text block. */
  private readonly partBlocks = new Map<string, number>();

  handle(event: WireEvent, out: ChatEvent[]): void {
    switch (event.type) {
      case 'response.created':
        return this.start(out, event.response?.id, event.response?.model);
      case 'response.output_item.added':
        return this.itemAdded(event.output_index ?? 0, event.item, out);
      case 'response.content_part.added': {
        const partType = event.part?.type;
        if (partType !== 'output_text' && partType !== 'refusal') return;
        if (partType === 'refusal') this.sawRefusal = true;
        const index = this.open(out, { type: 'text' });
        this.partBlocks.set(`${event.output_index}:${event.content_index}`, index);
        const initial = event.part?.text ?? event.part?.refusal;
        if (initial) out.push({ type: 'text_delta', index, text: initial });
        return;
      }
      case 'response.output_text.delta':
      case 'response.refusal.delta': {
        const index = this.partBlocks.get(`${event.output_index}:${event.content_index}`);
        if (index !== undefined && event.delta) out.push({ type: 'text_delta', index, text: event.delta });
        return;
      }
      case 'response.content_part.done': {
        const key = `${event.output_index}:${event.content_index}`;
        const index = this.partBlocks.get(key);
        if (index === undefined) return;
        this.partBlocks.delete(key);
        out.push({ type: 'block_stop', index });
        return;
      }
      case 'response.reasoning_summary_text.delta': {
        const block = this.itemBlocks.get(event.output_index ?? -1);
        if (block?.kind !== 'thinking' || !event.delta) return;
        if (block.index < 0) block.index = this.open(out, { type: 'thinking' });
        // Summary parts are paragraphs of one thought.
        const separator = (event.summary_index ?? 0) >= block.summaries && block.summaries > 0 ? '\n\n' : '';
        block.summaries = Math.max(block.summaries, (event.summary_index ?? 0) + 1);
        out.push({ type: 'thinking_delta', index: block.index, text: separator + event.delta });
        return;
      }
      case 'response.function_call_arguments.delta': {
        const block = this.itemBlocks.get(event.output_index ?? -1);
        if (block?.kind !== 'tool' || !event.delta) return;
        block.args = true;
        out.push({ type: 'tool_input_delta', index: block.index, json: event.delta });
        return;
      }
      case 'response.output_item.done':
        return this.itemDone(event.output_index ?? 0, event.item, out);
      case 'response.completed':
      case 'response.incomplete': {
        this.start(out, event.response?.id, event.response?.model);
        this.finished = true;
        const response = event.response ?? {};
        const usage: Usage = usageFromResponses(response.usage);
        const reason = finishReasonOf(response, this.sawToolCall, this.sawRefusal);
        out.push(response.usage ? { type: 'finish', reason, stopSequence: null, usage } : { type: 'finish', reason, stopSequence: null, usage, unreported: true });
        return;
      }
      case 'response.failed':
        throw errorFromFailedResponse(event.response?.error);
      case 'error':
        throw errorFromStreamEvent(event);
      default:
        return;
    }
  }

  private start(out: ChatEvent[], id: string | undefined, model: string | undefined): void {
    if (this.started) return;
    this.started = true;
    out.push({ type: 'message_start', id, model });
  }

  private open(out: ChatEvent[], block: Extract<ChatEvent, { type: 'block_start' }>['block']): number {
    const index = this.nextIndex++;
    out.push({ type: 'block_start', index, block });
    return index;
  }

  private itemAdded(outputIndex: number, item: WireOutputItem | undefined, out: ChatEvent[]): void {
    if (item?.type === 'function_call') {
      this.sawToolCall = true;
      const index = this.open(out, { type: 'tool_call', id: item.call_id ?? item.id ?? '', name: item.name ?? '' });
      this.itemBlocks.set(outputIndex, { index, kind: 'tool', args: false, summaries: 0 });
    } else if (item?.type === 'reasoning') {
      // Opened by its first summary text or, at the item's end, by its encrypted content: empty reasoning gives no block.
      this.itemBlocks.set(outputIndex, { index: -1, kind: 'thinking', args: false, summaries: 0 });
    }
  }

  private itemDone(outputIndex: number, item: WireOutputItem | undefined, out: ChatEvent[]): void {
    // Text parts a server left open end with their message.
    for (const [key, index] of this.partBlocks) {
      if (!key.startsWith(`${outputIndex}:`)) continue;
      this.partBlocks.delete(key);
      out.push({ type: 'block_stop', index });
    }
    const block = this.itemBlocks.get(outputIndex);
    if (!block) return;
    this.itemBlocks.delete(outputIndex);
    if (block.kind === 'tool' && !block.args && item?.arguments) out.push({ type: 'tool_input_delta', index: block.index, json: item.arguments });
    if (block.kind === 'thinking') {
      // A summary that came whole with the item, never as deltas.
      const summary = block.summaries === 0 ? (item?.summary ?? []).map((part) => part.text).join('\n\n') : '';
      const signature = packReasoning(item?.id, item?.encrypted_content);
      if (block.index < 0) {
        if (summary === '' && !signature) return;
        block.index = this.open(out, { type: 'thinking' });
      }
      if (summary !== '') out.push({ type: 'thinking_delta', index: block.index, text: summary });
      if (signature) out.push({ type: 'signature_delta', index: block.index, signature });
    }
    out.push({ type: 'block_stop', index: block.index });
  }
}
