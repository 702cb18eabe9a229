/**
 * Usage taps for the pass-through path: the upstream bytes are yielded as they
 * arrive, untouched, while the tap notes where the usage is. Streams: each
 * chunk repeats the running usage, so only the data of the last event that
 * mentions `usageMetadata` is kept, and parsed once when usage is asked for.
 * Plain answers and the JSON-array stream form: the whole body is parsed once,
 * after its last byte went out.
 */
import type { Usage } from '../../core/chat.js';
import { toUpstreamError } from '../http.js';
import { createSseFeeder } from '../sse.js';
import { usageFromGemini } from './usage.js';
import type { GeminiResponse } from './wire.js';

export interface GeminiUsageTap {
  usage(): Usage | undefined;
  id(): string | undefined;
  pipe(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array>;
}

export class GeminiSseUsageTap implements GeminiUsageTap {
  private lastUsageData: string | undefined;
  private responseId: string | undefined;
  private parsed: GeminiResponse | undefined;

  async *pipe(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
    const feeder = createSseFeeder();
    try {
      for await (const chunk of body) {
        this.watch(feeder.feed(chunk));
        yield chunk;
      }
      this.watch(feeder.drain());
    } catch (error) {
      throw toUpstreamError(error, signal);
    }
  }

  usage(): Usage | undefined {
    const parsed = this.last();
    return parsed?.usageMetadata ? usageFromGemini(parsed.usageMetadata) : undefined;
  }

  id(): string | undefined {
    return this.responseId ?? this.last()?.responseId ?? undefined;
  }

  private watch(events: Array<{ data: string }>): void {
    for (let i = 0; i < events.length; i++) {
      const { data } = events[i];
      if (data.includes('"usageMetadata"')) {
        this.lastUsageData = data;
        this.parsed = undefined;
      }
    }
  }

  private last(): GeminiResponse | undefined {
    if (this.parsed === undefined && this.lastUsageData !== undefined) {
      this.parsed = parseOrUndefined<GeminiResponse>(this.lastUsageData);
      this.responseId ??= this.parsed?.responseId ?? undefined;
    }
    return this.parsed;
  }
}

export class GeminiJsonUsageTap implements GeminiUsageTap {
  private answer: GeminiResponse | undefined;

  async *pipe(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
    const chunks: Uint8Array[] = [];
    try {
      for await (const chunk of body) {
        chunks.push(chunk);
        yield chunk;
      }
    } catch (error) {
      throw toUpstreamError(error, signal);
    }
    const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    const parsed = parseOrUndefined<GeminiResponse | GeminiResponse[]>(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'),
    );
    // The JSON-array stream form: the last chunk holds the final usage.
    this.answer = Array.isArray(parsed) ? lastWithUsage(parsed) : parsed;
  }

  usage(): Usage | undefined {
    return this.answer?.usageMetadata ? usageFromGemini(this.answer.usageMetadata) : undefined;
  }

  id(): string | undefined {
    return this.answer?.responseId ?? undefined;
  }
}

function lastWithUsage(chunks: GeminiResponse[]): GeminiResponse | undefined {
  for (let i = chunks.length - 1; i >= 0; i--) if (chunks[i]?.usageMetadata) return chunks[i];
  return chunks.at(-1);
}

/** The bytes already went to the client: a body we cannot read only costs us the usage, never the answer. */
function parseOrUndefined<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
