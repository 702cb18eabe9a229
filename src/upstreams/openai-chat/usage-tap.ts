/**
 * Usage taps for the Chat Completions pass-through path. Streams: only chunks
 * that carry a usage object (normally just the last) and the first chunk (for
 * the id) are JSON-parsed. When the gateway asked for the usage chunk on the
 * client's behalf, the tap also keeps that chunk (empty `choices`, a usage
 * object) from the client: complete events are relayed as they are, and only
 * a region of bytes that holds a usage object is decoded to drop it.
 */
import { parseOrUndefined, RecordingTap, tapSse, tapWhole } from '../pass-through.js';
import type { SseEvent } from '../sse.js';
import { usageFromChatCompletion } from './usage.js';
import type { ChatCompletion, ChatCompletionChunk } from './wire.js';

const usageMarkers = ['"usage":{', '"usage": {'];

function carriesUsage(text: string): boolean {
  return text.includes(usageMarkers[0]) || text.includes(usageMarkers[1]);
}

export class ChatCompletionStreamUsageTap extends RecordingTap {
  constructor(private readonly hideUsageChunk: boolean) {
    super();
  }

  pipe(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
    const watched = tapSse(body, signal, (events) => this.watch(events));
    return this.hideUsageChunk ? withoutUsageChunk(watched) : watched;
  }

  private watch(events: SseEvent[]): void {
    for (let i = 0; i < events.length; i++) {
      const { data } = events[i];
      const first = this.responseId === undefined;
      if (!first && !carriesUsage(data)) continue;
      const chunk = parseOrUndefined<ChatCompletionChunk>(data);
      if (!chunk) continue;
      if (first && chunk.id) this.responseId = chunk.id;
      if (chunk.usage) this.reported = usageFromChatCompletion(chunk.usage);
    }
  }
}

export class ChatCompletionJsonUsageTap extends RecordingTap {
  pipe(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
    return tapWhole(body, signal, (text) => this.read(text));
  }

  private read(text: string): void {
    const json = parseOrUndefined<ChatCompletion>(text);
    if (!json) return;
    this.responseId = json.id;
    if (json.usage) this.reported = usageFromChatCompletion(json.usage);
  }
}

/**
 * Relays whole events (a partial event waits for its end, which a client
 * could not use before anyway) and drops the usage-only chunk.
 */
async function* withoutUsageChunk(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of body) {
    const bytes = pending.length === 0 ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) : Buffer.concat([pending, chunk]);
    const end = lastEventEnd(bytes);
    pending = bytes.subarray(end);
    if (end > 0) {
      const out = dropUsageChunks(bytes.subarray(0, end));
      if (out.length > 0) yield out;
    }
  }
  if (pending.length > 0) yield dropUsageChunks(pending);
}

/** The offset just past the last blank line (`\n\n` or `\r\n\r\n`), or 0. */
function lastEventEnd(bytes: Buffer): number {
  const lf = bytes.lastIndexOf('\n\n');
  const crlf = bytes.lastIndexOf('\r\n\r\n');
  return Math.max(lf < 0 ? 0 : lf + 2, crlf < 0 ? 0 : crlf + 4);
}

function dropUsageChunks(region: Buffer): Buffer {
  if (region.indexOf(usageMarkers[0]) < 0 && region.indexOf(usageMarkers[1]) < 0) return region;
  const events = region.toString('utf8').split(/(?<=\r?\n\r?\n)/);
  return Buffer.from(events.filter((event) => !isUsageOnlyChunk(event)).join(''), 'utf8');
}

function isUsageOnlyChunk(event: string): boolean {
  const data = event
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n');
  if (!carriesUsage(data)) return false;
  const chunk = parseOrUndefined<ChatCompletionChunk>(data);
  return chunk !== undefined && Array.isArray(chunk.choices) && chunk.choices.length === 0;
}
