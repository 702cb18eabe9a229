/**
 * Usage taps for the pass-through path: the upstream bytes go to the client
 * untouched while the tap reads usage and the response id from the one parse
 * the gateway makes of them (see pass-through.ts). Streams: each chunk repeats
 * the running usage, so the last chunk that carries `usageMetadata` is kept;
 * the stream ends with a chunk that names a finishReason, a blocked prompt,
 * or an error. Until that chunk, a running candidatesTokenCount is no final
 * count: only the prompt's counters are told. Each chunk's parts (text,
 * thoughts, function-call arguments as JSON, Vertex AI's streamed argument
 * values) add to the delivered text.
 * Plain answers and the JSON-array stream form are read whole; that form cut
 * short is read from the elements whole in what the client received.
 */
import { promptPart, type Usage } from '../../../core/chat.js';
import type { AnswerTap, StreamTap } from '../../pass-through.js';
import { DeliveredText } from '../../delivered-text.js';
import type { SseEvent } from '../../sse.js';
import { usageFromGemini } from '../../../dialects/generate/usage.js';
import type { GeminiPartialArg, GeminiResponse } from '../../../dialects/generate/wire.js';

export class GeminiSseUsageTap implements StreamTap {
  readonly delivered = new DeliveredText();
  private last: GeminiResponse | undefined;
  private responseId: string | undefined;
  private done = false;
  /** The answer finished (a finishReason, a blocked prompt): its usage is final. An error chunk ends the stream without one. */
  private finished = false;

  see(_sse: SseEvent, data: unknown): void {
    const chunk = data as GeminiResponse | null;
    if (!chunk || typeof chunk !== 'object') return;
    deliverParts(chunk, this.delivered);
    if (chunk.usageMetadata) this.last = chunk;
    this.responseId ??= chunk.responseId ?? undefined;
    if (finishes(chunk)) this.finished = this.done = true;
    else if ((chunk as { error?: unknown }).error) this.done = true;
  }

  ended(): boolean {
    return this.done;
  }

  usage(): Partial<Usage> | undefined {
    if (!this.last?.usageMetadata) return undefined;
    const usage = usageFromGemini(this.last.usageMetadata);
    return this.finished ? usage : promptPart(usage);
  }

  id(): string | undefined {
    return this.responseId;
  }
}

export class GeminiJsonUsageTap implements AnswerTap {
  readonly delivered = new DeliveredText();
  private answer: GeminiResponse | undefined;
  private whole: unknown;
  private cut = false;

  read(answer: unknown): void {
    this.whole = answer;
    // The JSON-array stream form: the last chunk holds the final usage.
    this.answer = Array.isArray(answer) ? lastWithUsage(answer as GeminiResponse[]) : (answer as GeminiResponse);
  }

  answerText(): string {
    const chunks = (Array.isArray(this.whole) ? this.whole : [this.whole]) as Array<GeminiResponse | null>;
    const text = new DeliveredText();
    for (const chunk of chunks) if (chunk && typeof chunk === 'object') deliverParts(chunk, text);
    text.commit();
    return text.text();
  }

  readCut(elements: unknown[]): void {
    this.cut = true;
    const chunks = elements as GeminiResponse[];
    for (const chunk of chunks) if (chunk && typeof chunk === 'object') deliverParts(chunk, this.delivered);
    this.delivered.commit();
    this.answer = lastWithUsage(chunks);
  }

  usage(): Partial<Usage> | undefined {
    if (!this.answer?.usageMetadata) return undefined;
    const usage = usageFromGemini(this.answer.usageMetadata);
    return this.cut ? promptPart(usage) : usage;
  }

  id(): string | undefined {
    return this.answer?.responseId ?? undefined;
  }
}

/** The text of every part of every candidate: answer and thought text, and function-call arguments as JSON. */
function deliverParts(chunk: GeminiResponse, delivered: DeliveredText): void {
  const candidates = chunk.candidates;
  if (!candidates) return;
  for (let c = 0; c < candidates.length; c++) {
    const parts = candidates[c]?.content?.parts;
    if (!parts) continue;
    for (let p = 0; p < parts.length; p++) {
      const part = parts[p];
      if (!part) continue;
      delivered.add(part.text);
      const call = part.functionCall;
      if (!call) continue;
      if (call.args !== undefined && call.args !== null) delivered.add(JSON.stringify(call.args));
      // Vertex AI streams arguments as values by JSON path: their values are what the client was sent.
      const partial = call.partialArgs;
      if (partial) for (let a = 0; a < partial.length; a++) delivered.add(partialValue(partial[a]));
    }
  }
}

function partialValue(arg: GeminiPartialArg | undefined): string | undefined {
  if (!arg) return undefined;
  if (typeof arg.stringValue === 'string') return arg.stringValue;
  if (typeof arg.numberValue === 'number' || typeof arg.boolValue === 'boolean') return String(arg.numberValue ?? arg.boolValue);
  return undefined;
}

/** The chunk the service finishes an answer with, as the translated path reads it (convert-stream.ts); an error chunk ends a stream too. */
function finishes(chunk: GeminiResponse): boolean {
  if (chunk.promptFeedback?.blockReason) return true;
  return chunk.candidates?.some((candidate) => Boolean(candidate?.finishReason)) ?? false;
}

function lastWithUsage(chunks: GeminiResponse[]): GeminiResponse | undefined {
  for (let i = chunks.length - 1; i >= 0; i--) if (chunks[i]?.usageMetadata) return chunks[i];
  return chunks.at(-1);
}
