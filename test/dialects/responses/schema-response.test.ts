/**
 * The Responses answer, stream-event and error schemas describe both
 * directions: every recorded OpenAI answer, stream event and error body,
 * and every response object, event and error the family writes, parse with
 * them, and parsing drops nothing (a field the schema does not name would
 * be stripped). The reader's views the upstream uses take them all too.
 */
import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatResponse, Usage } from '../../../src/core/chat.js';
import { GatewayError } from '../../../src/core/errors.js';
import { ReasoningSealer } from '../../../src/core/reasoning-state.js';
import { renderOpenAIError } from '../../../src/dialects/openai/errors.js';
import { openAIErrorBodySchema, responseObjectSchema, responsesStreamEventSchema, wireEventSchema, wireResponseSchema } from '../../../src/dialects/responses/schema.js';
import { ResponsesExchange } from '../../../src/families/responses/exchange.js';
import { emptyHistory } from '../../../src/families/responses/history.js';
import { ResponsesStreamEncoder } from '../../../src/families/responses/stream-encoder.js';
import { ToolNames } from '../../../src/families/responses/tool-names.js';
import { parseResponsesRequest } from '../../../src/families/responses/validate.js';
import type { ResponseRepository } from '../../../src/storage/responses.js';
import { parseSse } from '../../families/responses/support.js';
import { fixtureChunks, fixtureFiles, fixtureJson } from '../../upstreams/support/fixtures.js';

function expectWhole(schema: { safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown } }, value: unknown): void {
  const result = schema.safeParse(value);
  expect(result.error).toBeUndefined();
  expect(result.data).toEqual(value);
}

describe('recorded OpenAI Responses answers', () => {
  const files = fixtureFiles('openai-responses');

  it('a field the schema does not name is dropped by parsing, so the comparison sees it', () => {
    const event = { type: 'response.output_text.delta', sequence_number: 1, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'a', unnamed: 1 };
    expect(responsesStreamEventSchema().parse(event)).not.toEqual(event);
  });

  it.each(files.filter((file) => file.endsWith('.json') && !file.includes('error')))('%s parses as a response object', (file) => {
    const answer = fixtureJson('openai-responses', file);
    expectWhole(responseObjectSchema(), answer);
    expectWhole(wireResponseSchema(), answer);
  });

  it.each(files.filter((file) => file.endsWith('.chunks.txt')))('every event of %s parses as a stream event', (file) => {
    for (const line of fixtureChunks('openai-responses', file)) {
      const event: unknown = JSON.parse(line);
      expectWhole(responsesStreamEventSchema(), event);
      expectWhole(wireEventSchema(), event);
    }
  });

  it('the error body parses as an OpenAI error body', () => {
    expectWhole(openAIErrorBodySchema(), fixtureJson('openai-responses', 'openai-error.1.json'));
  });
});

/** The exchange of a request whose `run_sql` is a custom tool (translation registers it so). */
function exchange(body: Record<string, unknown> = {}): ResponsesExchange {
  const repository = { save: async () => undefined } as unknown as ResponseRepository;
  const value = new ResponsesExchange({
    request: parseResponsesRequest({ model: 'client-model', input: 'hi', ...body }),
    keyId: 'k',
    history: emptyHistory,
    current: [],
    repository,
    onRecordError: (error) => {
      throw error;
    },
    sealer: new ReasoningSealer(Buffer.alloc(32, 7)),
  });
  value.toolNames.add({ name: 'run_sql', namespace: 'db', custom: true });
  return value;
}

const runSql = new ToolNames().add({ name: 'run_sql', namespace: 'db', custom: true });

const usage: Usage = { inputTokens: 12, outputTokens: 30, cacheReadTokens: 4, cacheWriteTokens: 8, reasoningTokens: 10 };
/** Every setting the response object echoes, so that each echoed shape is parsed. */
const settings = {
  instructions: 'Be brief.',
  reasoning: { effort: 'high', summary: 'auto' },
  include: ['reasoning.encrypted_content'],
  service_tier: 'flex',
  metadata: { team: 'a' },
  text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' } }, verbosity: 'low' },
  tools: [
    { type: 'function', name: 'get_weather', parameters: { type: 'object' } },
    { type: 'namespace', name: 'db', tools: [{ type: 'custom', name: 'run_sql' }] },
    { type: 'file_search', vector_store_ids: ['vs_1'] },
    { type: 'web_search_preview' },
  ],
};

const everyPart: ChatResponse['content'] = [
  { type: 'thinking', text: 'Let me see.', signature: 'c2ln' },
  { type: 'text', text: 'It is sunny.' },
  { type: 'tool_call', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
  { type: 'tool_call', id: 'call_2', name: runSql, input: { input: 'select 1' } },
];

function answer(content: ChatResponse['content'], finishReason: ChatResponse['finishReason']): ChatResponse {
  return { id: 'up_1', model: 'up', content, finishReason, usage };
}

async function streamed(body: Record<string, unknown>, events: ChatEvent[]): Promise<unknown[]> {
  const encoder = new ResponsesStreamEncoder(exchange(body));
  let out = '';
  for (const event of events) out += await encoder.encode(event);
  return parseSse(out + encoder.close()).map((event) => event.data);
}

describe("the family's answers", () => {
  it.each([
    ['every item, every echoed setting', answer(everyPart, 'tool_use'), settings],
    ['a refusal', answer([], 'refusal'), {}],
    ['an answer cut at the limit', answer([{ type: 'text', text: 'It is' }], 'length'), {}],
    ['an answer that failed', answer([], 'error'), {}],
  ])('%s parses as a response object', async (_name, response, body) => {
    const rendered = await exchange(body).completePlain(response);
    if (response.finishReason === 'tool_use') expect(rendered.output.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call', 'custom_tool_call']);
    expectWhole(responseObjectSchema(), JSON.parse(JSON.stringify(rendered)));
  });

  it('every event the stream encoder writes parses as a stream event, the error events too', async () => {
    const events: ChatEvent[] = [
      { type: 'message_start', id: 'up_2', model: 'up' },
      { type: 'block_start', index: 0, block: { type: 'thinking' } },
      { type: 'thinking_delta', index: 0, text: 'Hmm.' },
      { type: 'signature_delta', index: 0, signature: 'c2ln' },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'text' } },
      { type: 'text_delta', index: 1, text: 'Hello' },
      { type: 'block_stop', index: 1 },
      { type: 'block_start', index: 2, block: { type: 'tool_call', id: 'call_2', name: 'get_weather' } },
      { type: 'tool_input_delta', index: 2, json: '{"a":1}' },
      { type: 'block_stop', index: 2 },
      { type: 'block_start', index: 3, block: { type: 'tool_call', id: 'call_3', name: runSql } },
      { type: 'tool_input_delta', index: 3, json: '{"input":"select 1"}' },
      { type: 'block_stop', index: 3 },
      { type: 'finish', reason: 'tool_use', usage },
    ];
    const written = await streamed(settings, events);
    expect(written.map((event) => (event as { type: string }).type)).toContain('response.custom_tool_call_input.done');
    for (const event of written) expectWhole(responsesStreamEventSchema(), event);

    const refused = await streamed({}, [{ type: 'finish', reason: 'refusal', usage }]);
    for (const event of refused) expectWhole(responsesStreamEventSchema(), event);

    const cut = await streamed({}, [
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'Hel' },
    ]);
    expect(cut.map((event) => (event as { type: string }).type).slice(-2)).toEqual(['error', 'response.failed']);
    for (const event of cut) expectWhole(responsesStreamEventSchema(), event);
  });

  it('error bodies parse as OpenAI error bodies', () => {
    expectWhole(openAIErrorBodySchema(), renderOpenAIError(new GatewayError('rate_limited', 'slow down', { retryAfterSeconds: 3 })).body);
    expectWhole(openAIErrorBodySchema(), renderOpenAIError(new GatewayError('invalid_request', 'bad', { param: 'input' }), 'chat-completions').body);
  });
});
