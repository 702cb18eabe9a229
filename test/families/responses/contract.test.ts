/**
 * Contract tests: what the gateway writes for family E validates against the
 * official OpenAPI schemas (`Response`, every `ResponseStreamEvent` variant,
 * `ErrorResponse`), plain and streamed, for text, function calls, reasoning,
 * structured output, truncated answers and failures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../../support/gateway.js';
import { openApi } from './openapi.js';
import { checkStreamDiscipline, postResponses, streamEvents } from './support.js';

let gw: TestGateway;

beforeAll(async () => {
  openApi();
  gw = await startGateway({
    config: {
      channels: [
        { name: 'sim', type: 'simulator', models: ['sim-*'] },
        { name: 'broken', type: 'simulator', models: ['broken-*'], settings: { failAfterChunks: 3 } },
      ],
      keys: [{ name: 'contract', key: 'sk-contract-key' }],
    },
  });
}, 60_000);
afterAll(async () => gw?.close());

const key = 'sk-contract-key';
const tool = {
  type: 'function',
  name: 'get_weather',
  description: 'weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
};

const cases: Array<[string, Record<string, unknown>]> = [
  ['plain text', { model: 'sim-model', input: 'Hello contract' }],
  ['a function call', { model: 'sim-model', input: 'Use get_weather for Lima', tools: [tool] }],
  [
    'reasoning with summary and encrypted content',
    {
      model: 'sim-model',
      input: 'Think first',
      reasoning: { effort: 'high', summary: 'detailed' },
      include: ['reasoning.encrypted_content'],
    },
  ],
  [
    'json_schema output',
    {
      model: 'sim-model',
      input: 'Give JSON',
      text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } } },
    },
  ],
  ['an answer cut at max_output_tokens', { model: 'sim-model', input: 'Long story please', max_output_tokens: 4 }],
  [
    'hosted tool settings echoed with their defaults (native-only tools aside)',
    {
      model: 'sim-model',
      input: 'hello',
      tools: [tool],
      metadata: { a: 'b' },
      service_tier: 'default',
      instructions: 'be brief',
      temperature: 0.5,
      top_p: 0.9,
      truncation: 'auto',
      user: 'u-1',
    },
  ],
];

describe('plain answers validate as Response', () => {
  for (const [name, body] of cases) {
    it(name, async () => {
      const response = await postResponses(gw.url, key, body);
      openApi().response(await response.json());
    });
  }
});

describe('streamed events validate as ResponseStreamEvent', () => {
  for (const [name, body] of cases) {
    it(name, async () => {
      const events = await streamEvents(gw.url, key, body);
      checkStreamDiscipline(events);
      for (const event of events) openApi().event(event.data);
      const terminal = events[events.length - 1].data;
      openApi().response(terminal.response);
    });
  }

  it('a stream that breaks: error, then response.failed', async () => {
    const events = await streamEvents(gw.url, key, { model: 'broken-model', input: 'This answer will break off' });
    const types = events.map((event) => event.data.type);
    expect(types.slice(-2)).toEqual(['error', 'response.failed']);
    checkStreamDiscipline(events);
    for (const event of events) openApi().event(event.data);
    openApi().response(events[events.length - 1].data.response);
  });
});

describe('errors validate as ErrorResponse', () => {
  it('a validation error', async () => {
    const response = await postResponses(gw.url, key, { model: 'sim-model', input: 'x', temperature: 9 });
    openApi().error(await response.json());
  });

  it('an unknown previous response', async () => {
    const response = await postResponses(gw.url, key, { model: 'sim-model', input: 'x', previous_response_id: 'resp_nope' });
    openApi().error(await response.json());
  });
});
