/**
 * Usage taps for the pass-through path: the upstream bytes go to the client
 * untouched while the tap reads usage and the response id from the one parse
 * the gateway makes of them (see pass-through.ts). Streams: each chunk repeats
 * the running usage, so the last chunk that carries `usageMetadata` is kept;
 * the stream ends with a chunk that names a finishReason, a blocked prompt,
 * or an error. Plain answers and the JSON-array stream form are read whole.
 */
import type { Usage } from '../../core/chat.js';
import type { AnswerTap, StreamTap } from '../pass-through.js';
import type { SseEvent } from '../sse.js';
import { usageFromGemini } from '../../dialects/generate/usage.js';
import type { GeminiResponse } from '../../dialects/generate/wire.js';

export class GeminiSseUsageTap implements StreamTap {
  private last: GeminiResponse | undefined;
  private responseId: string | undefined;
  private done = false;

  see(_sse: SseEvent, data: unknown): void {
    const chunk = data as GeminiResponse | null;
    if (!chunk || typeof chunk !== 'object') return;
    if (chunk.usageMetadata) this.last = chunk;
    this.responseId ??= chunk.responseId ?? undefined;
    if (isLast(chunk)) this.done = true;
  }

  ended(): boolean {
    return this.done;
  }

  usage(): Usage | undefined {
    return this.last?.usageMetadata ? usageFromGemini(this.last.usageMetadata) : undefined;
  }

  id(): string | undefined {
    return this.responseId;
  }
}

export class GeminiJsonUsageTap implements AnswerTap {
  private answer: GeminiResponse | undefined;

  read(answer: unknown): void {
    // The JSON-array stream form: the last chunk holds the final usage.
    this.answer = Array.isArray(answer) ? lastWithUsage(answer as GeminiResponse[]) : (answer as GeminiResponse);
  }

  usage(): Usage | undefined {
    return this.answer?.usageMetadata ? usageFromGemini(this.answer.usageMetadata) : undefined;
  }

  id(): string | undefined {
    return this.answer?.responseId ?? undefined;
  }
}

/** The chunk the service ends a stream with, as the translated path reads it (convert-stream.ts). */
function isLast(chunk: GeminiResponse): boolean {
  if ((chunk as { error?: unknown }).error) return true;
  if (chunk.promptFeedback?.blockReason) return true;
  return chunk.candidates?.some((candidate) => Boolean(candidate?.finishReason)) ?? false;
}

function lastWithUsage(chunks: GeminiResponse[]): GeminiResponse | undefined {
  for (let i = chunks.length - 1; i >= 0; i--) if (chunks[i]?.usageMetadata) return chunks[i];
  return chunks.at(-1);
}
