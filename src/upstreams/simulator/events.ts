/** A simulated answer as the small-chunk event sequence a streaming upstream sends. */
import type { ChatEvent, ChatResponse } from '../../core/chat.js';

/** A word with its trailing space, or a run of spaces. */
const WORD = /\S+\s*|\s+/gu;
const TEXT_PIECE = /[\s\S]{1,12}/gu;
const JSON_PIECE = /[\s\S]{1,8}/gu;

/** Text in pieces of one word (long words split every 12 characters, never inside a character). */
export function* textChunks(text: string): Generator<string> {
  for (const [word] of text.matchAll(WORD)) {
    if (word.length <= 12) yield word;
    else for (const [piece] of word.matchAll(TEXT_PIECE)) yield piece;
  }
}

/** Tool input JSON in 8-character pieces, which concatenate back to the JSON. */
export function* jsonChunks(json: string): Generator<string> {
  for (const [piece] of json.matchAll(JSON_PIECE)) yield piece;
}

export type DeltaEvent = Extract<ChatEvent, { type: 'text_delta' | 'thinking_delta' | 'signature_delta' | 'tool_input_delta' }>;

export function isDelta(event: ChatEvent): event is DeltaEvent {
  return event.type === 'text_delta' || event.type === 'thinking_delta' || event.type === 'signature_delta' || event.type === 'tool_input_delta';
}

export function* answerEvents(answer: ChatResponse): Generator<ChatEvent> {
  const { usage } = answer;
  yield {
    type: 'message_start',
    id: answer.id,
    model: answer.model,
    usage: { inputTokens: usage.inputTokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
  };
  for (let index = 0; index < answer.content.length; index++) {
    const part = answer.content[index];
    if (part.type === 'thinking') {
      yield { type: 'block_start', index, block: { type: 'thinking' } };
      for (const text of textChunks(part.text)) yield { type: 'thinking_delta', index, text };
      if (part.signature !== undefined) yield { type: 'signature_delta', index, signature: part.signature };
    } else if (part.type === 'text') {
      yield { type: 'block_start', index, block: { type: 'text' } };
      for (const text of textChunks(part.text)) yield { type: 'text_delta', index, text };
    } else {
      yield { type: 'block_start', index, block: { type: 'tool_call', id: part.id, name: part.name } };
      for (const json of jsonChunks(JSON.stringify(part.input))) yield { type: 'tool_input_delta', index, json };
    }
    yield { type: 'block_stop', index };
  }
  yield { type: 'finish', reason: answer.finishReason, stopSequence: answer.stopSequence ?? null, usage };
}

/** How many delta events the streamed form of the answer carries. */
export function countDeltas(answer: ChatResponse): number {
  let count = 0;
  for (const event of answerEvents(answer)) if (isDelta(event)) count++;
  return count;
}
