/**
 * The legacy Completions answer and error schemas describe both directions:
 * an answer as the API documents it (logprobs included), a usage-only chunk,
 * and every `text_completion`, chunk and error the family writes, parse with
 * them, and parsing drops nothing (a field the schema does not name would be
 * stripped).
 */
import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatResponse, Usage } from '../../../src/core/chat.js';
import { GatewayError } from '../../../src/core/errors.js';
import { openAIErrorBodySchema, textCompletionSchema } from '../../../src/dialects/completions/schema.js';
import { renderTextCompletion } from '../../../src/families/completions/from-core.js';
import { CompletionsStreamEncoder } from '../../../src/families/completions/stream-encoder.js';

function expectWhole(schema: { safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown } }, value: unknown): void {
  const result = schema.safeParse(value);
  expect(result.error).toBeUndefined();
  expect(result.data).toEqual(value);
}

const usage: Usage = { inputTokens: 12, outputTokens: 30, cacheReadTokens: 4, cacheWriteTokens: 0 };

const events: ChatEvent[] = [
  { type: 'message_start', id: 'up_2', model: 'up' },
  { type: 'block_start', index: 0, block: { type: 'thinking' } },
  { type: 'thinking_delta', index: 0, text: 'Hmm.' },
  { type: 'block_stop', index: 0 },
  { type: 'block_start', index: 1, block: { type: 'text' } },
  { type: 'text_delta', index: 1, text: 'Hello' },
  { type: 'text_delta', index: 1, text: ' there' },
  { type: 'block_stop', index: 1 },
  { type: 'finish', reason: 'length', usage },
];

function chunksOf(frames: string): unknown[] {
  return frames
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: ') && frame !== 'data: [DONE]')
    .map((frame) => JSON.parse(frame.slice(6)));
}

describe('text_completion objects from the API', () => {
  it('a field the schema does not name is dropped by parsing, so the comparison sees it', () => {
    const answer = { id: 'cmpl-1', object: 'text_completion', created: 1, model: 'm', choices: [{ text: 'a', index: 0, logprobs: null, finish_reason: 'stop', unnamed: 1 }] };
    expect(textCompletionSchema().parse(answer)).not.toEqual(answer);
  });

  it('an answer with logprobs and a usage-only stream chunk parse', () => {
    expectWhole(textCompletionSchema(), {
      id: 'cmpl-uqkvlQyYK7bGYrRHQ0eXlWi7',
      object: 'text_completion',
      created: 1589478378,
      model: 'gpt-3.5-turbo-instruct',
      system_fingerprint: 'fp_44709d6fcb',
      choices: [{ text: '\n\nThis is indeed a test', index: 0, logprobs: { tokens: ['\n\n'], token_logprobs: [-0.2], top_logprobs: [{ '\n\n': -0.2 }], text_offset: [0] }, finish_reason: 'length' }],
      usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
    });
    expectWhole(textCompletionSchema(), { id: 'cmpl-1', object: 'text_completion', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } });
  });
});

describe('what the family writes', () => {
  it('the answer parses, its text the text parts alone', () => {
    const response: ChatResponse = {
      id: 'up_1',
      model: 'up',
      content: [
        { type: 'thinking', text: 'Hmm.' },
        { type: 'text', text: 'It is sunny.' },
      ],
      finishReason: 'stop',
      usage,
    };
    const rendered = renderTextCompletion(response, 'client-model');
    expectWhole(textCompletionSchema(), rendered);
    expect(rendered).toMatchObject({
      id: 'cmpl-up_1',
      model: 'client-model',
      choices: [{ text: 'It is sunny.', finish_reason: 'stop' }],
      usage: { prompt_tokens: 16, completion_tokens: 30, total_tokens: 46 },
    });
  });

  it('each chunk parses; the text deltas, the finish, the usage chunk, then [DONE]', () => {
    const encoder = new CompletionsStreamEncoder({ clientModel: 'client-model', includeUsage: true });
    const frames = events.map((event) => encoder.encode(event)).join('');
    expect(frames.endsWith('data: [DONE]\n\n')).toBe(true);
    const chunks = chunksOf(frames) as Array<{ id: string; choices: Array<{ text: string; finish_reason: string | null }>; usage?: unknown }>;
    for (const chunk of chunks) expectWhole(textCompletionSchema(), chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.text)).toEqual(['Hello', ' there', '', undefined]);
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason)).toEqual([null, null, 'length', undefined]);
    expect(new Set(chunks.map((chunk) => chunk.id))).toEqual(new Set(['cmpl-up_2']));
    expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 16, completion_tokens: 30, total_tokens: 46 });
  });

  it('a stream without the usage option ends without a usage chunk', () => {
    const encoder = new CompletionsStreamEncoder({ clientModel: 'm', includeUsage: false });
    const chunks = chunksOf(events.map((event) => encoder.encode(event)).join('')) as Array<{ usage?: unknown }>;
    expect(chunks.some((chunk) => 'usage' in chunk)).toBe(false);
  });

  it('the error frame after the stream began is an OpenAI error body, and ends the stream', () => {
    const encoder = new CompletionsStreamEncoder({ clientModel: 'm', includeUsage: false });
    encoder.encode(events[0]);
    const frame = encoder.error(new GatewayError('overloaded', 'the upstream is overloaded'));
    const [body] = chunksOf(frame);
    expectWhole(openAIErrorBodySchema(), body);
    expect(encoder.encode(events[5])).toBe('');
  });
});
