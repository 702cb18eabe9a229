/**
 * Usage taps for the pass-through path: the upstream bytes go to the client
 * untouched while the tap reads usage and the response id from the one parse
 * the gateway makes of them (see pass-through.ts). Streams: lifecycle events
 * carry the response object (the terminal one its usage); the stream ends with
 * a terminal event, or an `error` event the client sees as it is.
 */
import type { Usage } from '../../core/chat.js';
import { ReadingTap, type AnswerTap, type StreamTap } from '../pass-through.js';
import type { SseEvent } from '../sse.js';
import { usageFromResponses } from '../../dialects/responses/usage.js';
import type { WireResponse } from '../../dialects/responses/wire.js';

const terminalEvents = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error']);
const lifecycleEvents = new Set(['response.created', 'response.completed', 'response.incomplete', 'response.failed']);

export class ResponsesStreamUsageTap extends ReadingTap implements StreamTap {
  private done = false;

  see(sse: SseEvent, data: unknown): void {
    // Without an `event:` line, the type is in the data.
    const type = sse.event ?? (data as { type?: unknown } | null)?.type;
    if (typeof type !== 'string') return;
    if (terminalEvents.has(type)) this.done = true;
    if (!lifecycleEvents.has(type)) return;
    const response = (data as { response?: WireResponse } | null)?.response;
    if (!response) return;
    this.responseId ??= response.id;
    if (response.usage) this.reported = usageFromResponses(response.usage);
  }

  ended(): boolean {
    return this.done;
  }
}

export class ResponsesJsonUsageTap extends ReadingTap implements AnswerTap {
  read(answer: unknown): void {
    const json = answer as WireResponse;
    this.responseId = json.id;
    if (json.usage) this.reported = usageFromResponses(json.usage);
  }
}
