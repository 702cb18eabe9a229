/**
 * Usage taps for the Chat Completions pass-through path, reading from the one
 * parse the gateway makes of the upstream's bytes (see pass-through.ts). A
 * stream has ended once a choice carried its `finish_reason` (the usage chunk
 * and `[DONE]` may follow) or an error chunk went by. Usage is final from
 * then on; a server that repeats a running usage in earlier chunks tells
 * only the prompt's counters there. Each choice's delta adds its content,
 * reasoning, refusal and tool-call arguments to the delivered text.
 *
 * When the gateway asked for the usage chunk on the client's behalf,
 * `withoutChunks` keeps that chunk (empty `choices`, a usage object) from
 * the client, and the ones an endpoint skips (Azure's
 * prompt filter results): the forwarded regions hold whole events, and only
 * a region that holds a marker of such a chunk is decoded to drop it. (An
 * upstream id is the first non-empty one: Azure's opening chunk has none.)
 */
import { promptPart } from '../../../core/chat.js';
import { ReadingTap, type AnswerTap, type StreamTap } from '../../pass-through.js';
import { DeliveredText } from '../../delivered-text.js';
import type { SseEvent } from '../../sse.js';
import { usageFromChatCompletion } from '../../../dialects/chat-completions/usage.js';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessage } from '../../../dialects/chat-completions/wire.js';

export class ChatCompletionStreamUsageTap extends ReadingTap implements StreamTap {
  readonly delivered = new DeliveredText();
  private done = false;
  /** A choice finished: a usage from here on is final. An error chunk ends the stream without one. */
  private finished = false;

  see(_event: SseEvent, data: unknown): void {
    const chunk = data as ChatCompletionChunk | null;
    if (!chunk || typeof chunk !== 'object') return;
    if (this.responseId === undefined && typeof chunk.id === 'string' && chunk.id !== '') this.responseId = chunk.id;
    const choices = chunk.choices;
    if (choices) {
      for (let i = 0; i < choices.length; i++) {
        const choice = choices[i];
        if (choice?.delta) this.deliver(choice.delta);
        if (choice?.finish_reason) this.finished = this.done = true;
      }
    }
    if (chunk.error !== undefined) this.done = true;
    if (chunk.usage) {
      const usage = usageFromChatCompletion(chunk.usage);
      this.reported = this.finished ? usage : promptPart(usage);
    }
  }

  private deliver(delta: ChatCompletionMessage): void {
    deliverMessage(delta, this.delivered);
  }

  ended(): boolean {
    return this.done;
  }
}

/** A message's or a delta's content, reasoning, refusal and tool-call arguments. */
function deliverMessage(delta: ChatCompletionMessage, delivered: DeliveredText): void {
  // Reasoning comes before the answer it leads to.
  delivered.add(delta.reasoning_content ?? delta.reasoning);
  delivered.add(delta.content);
  delivered.add(delta.refusal);
  const calls = delta.tool_calls;
  if (calls) for (let i = 0; i < calls.length; i++) delivered.add(calls[i]?.function?.arguments);
  delivered.add(delta.function_call?.arguments);
}

export class ChatCompletionJsonUsageTap extends ReadingTap implements AnswerTap {
  private answer: Partial<ChatCompletion> | undefined;

  read(answer: unknown): void {
    const json = answer as Partial<ChatCompletion>;
    this.answer = json;
    this.responseId = json.id;
    if (json.usage) this.reported = usageFromChatCompletion(json.usage);
  }

  answerText(): string {
    const choices = this.answer?.choices;
    if (!Array.isArray(choices)) return '';
    const text = new DeliveredText();
    for (const choice of choices) if (choice?.message) deliverMessage(choice.message, text);
    text.commit();
    return text.text();
  }
}

/** Text every usage-only chunk holds (however the server spaces its JSON). */
export const usageMarkers: readonly string[] = ['"usage":{', '"usage": {'];

/** The usage-only chunk the gateway asked for on a client's behalf: no choices, a usage object. */
export function isUsageOnly(chunk: ChatCompletionChunk): boolean {
  return Array.isArray(chunk.choices) && chunk.choices.length === 0 && chunk.usage != null;
}

/**
 * Drops the chunks `drops` names from regions of whole events; a region that
 * holds none of `markers` goes on as it is, undecoded.
 */
export async function* withoutChunks(body: AsyncIterable<Uint8Array>, markers: readonly string[], drops: (chunk: ChatCompletionChunk) => boolean): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    const region = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (!markers.some((marker) => region.indexOf(marker) >= 0)) {
      yield region;
      continue;
    }
    const events = region.toString('utf8').split(/(?<=\r?\n\r?\n)/);
    const kept = events.filter((event) => !isDropped(event, markers, drops)).join('');
    if (kept !== '') yield Buffer.from(kept, 'utf8');
  }
}

function isDropped(event: string, markers: readonly string[], drops: (chunk: ChatCompletionChunk) => boolean): boolean {
  const data = event
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n');
  if (!markers.some((marker) => data.includes(marker))) return false;
  try {
    return drops(JSON.parse(data) as ChatCompletionChunk);
  } catch {
    return false;
  }
}
