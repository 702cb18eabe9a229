/**
 * Usage taps for the pass-through path: the upstream bytes go to the client
 * untouched while the tap reads usage and the response id from the one parse
 * the gateway makes of them (see pass-through.ts). Streams: lifecycle events
 * carry the response object (the terminal one its usage); the stream ends with
 * a terminal event, or an `error` event the client sees as it is. Only a
 * terminal event's usage is final; an earlier one tells the prompt's counters.
 * The deltas of text, tool-call input, reasoning and refusals add to the
 * delivered text.
 */
import { promptPart } from '../../../core/chat.js';
import { ReadingTap, type AnswerTap, type StreamTap } from '../../pass-through.js';
import { DeliveredText } from '../../delivered-text.js';
import type { SseEvent } from '../../sse.js';
import { usageFromResponses } from '../../../dialects/responses/usage.js';
import type { WireResponse } from '../../../dialects/responses/wire.js';

const terminalEvents = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error']);
const lifecycleEvents = new Set(['response.created', 'response.in_progress', 'response.completed', 'response.incomplete', 'response.failed']);
/** Events whose `delta` is text the client receives. */
const deltaEvents = new Set([
  'response.output_text.delta',
  'response.function_call_arguments.delta',
  'response.custom_tool_call_input.delta',
  'response.reasoning_summary_text.delta',
  'response.reasoning_text.delta',
  'response.refusal.delta',
]);

export class ResponsesStreamUsageTap extends ReadingTap implements StreamTap {
  readonly delivered = new DeliveredText();
  private done = false;

  see(sse: SseEvent, data: unknown): void {
    // Without an `event:` line, the type is in the data.
    const type = sse.event ?? (data as { type?: unknown } | null)?.type;
    if (typeof type !== 'string') return;
    if (deltaEvents.has(type)) return this.delivered.add((data as { delta?: unknown } | null)?.delta);
    const terminal = terminalEvents.has(type);
    if (terminal) this.done = true;
    if (!lifecycleEvents.has(type)) return;
    const response = (data as { response?: WireResponse } | null)?.response;
    if (!response) return;
    this.responseId ??= response.id;
    if (!response.usage) return;
    const usage = usageFromResponses(response.usage);
    this.reported = terminal ? usage : promptPart(usage);
  }

  ended(): boolean {
    return this.done;
  }
}

export class ResponsesJsonUsageTap extends ReadingTap implements AnswerTap {
  private answer: WireResponse | undefined;

  read(answer: unknown): void {
    const json = answer as WireResponse;
    this.answer = json;
    this.responseId = json.id;
    if (json.usage) this.reported = usageFromResponses(json.usage);
  }

  /** Output text and refusals, function-call arguments, custom tool input, reasoning summaries and text. */
  answerText(): string {
    const items = this.answer?.output;
    if (!Array.isArray(items)) return '';
    const text = new DeliveredText();
    for (const item of items) {
      if (!item) continue;
      text.add(item.arguments);
      text.add(item.input);
      const parts = [...(Array.isArray(item.content) ? item.content : []), ...(Array.isArray(item.summary) ? item.summary : [])] as Array<{ text?: unknown; refusal?: unknown } | null>;
      for (const part of parts) text.add(part?.text ?? part?.refusal);
    }
    text.commit();
    return text.text();
  }
}
