/**
 * Usage taps for the pass-through path: the upstream bytes are yielded as they
 * arrive, untouched, while the tap notes where the usage is. Streams: each
 * chunk repeats the running usage, so only the data of the last event that
 * mentions `usageMetadata` is kept, and parsed once when usage is asked for.
 * Plain answers and the JSON-array stream form: the whole body is parsed once,
 * after its last byte went out.
 */
import type { Usage } from '../../core/chat.js';
import { parseOrUndefined, tapSse, tapWhole, type UsageTap } from '../pass-through.js';
import { usageFromGemini } from './usage.js';
import type { GeminiResponse } from './wire.js';


export class GeminiSseUsageTap implements UsageTap {
  private lastUsageData: string | undefined;
  private responseId: string | undefined;
  private parsed: GeminiResponse | undefined;

  pipe(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
    return tapSse(body, signal, (events) => this.watch(events));
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

export class GeminiJsonUsageTap implements UsageTap {
  private answer: GeminiResponse | undefined;

  pipe(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
    return tapWhole(body, signal, (text) => this.read(text));
  }

  private read(text: string): void {
    const parsed = parseOrUndefined<GeminiResponse | GeminiResponse[]>(text);
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

