/**
 * `POST /v1/responses/input_tokens` with the official client: estimated on the
 * simulator and translating channels (header set), forwarded to an
 * openai-responses channel's own counting endpoint (model mapped, the
 * upstream's number, a stored conversation named by the upstream's own id),
 * estimated when that upstream answers 404, failed over on a 5xx, logged once
 * at no cost.
 */
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { countRequestTokens } from '../../src/core/tokens.js';
import { parseResponsesCountRequest } from '../../src/families/responses/count-tokens.js';
import { inputAsItems } from '../../src/families/responses/items.js';
import { responsesToCore } from '../../src/families/responses/to-core.js';
import { agentRequest } from '../support/agent-fixtures.js';
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const KEY = 'sk-client-count-responses';

let provider: TestGateway;
let native: FakeUpstream;
let noCounting: FakeUpstream;
let failing: FakeUpstream;
let translated: FakeUpstream;
let gw: TestGateway;
let client: OpenAI;

const counted = (n: number): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ object: 'response.input_tokens', input_tokens: n }),
});
const failure = (status: number): FakeReply => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ error: { message: `upstream says ${status}`, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: null } }),
});

beforeAll(async () => {
  // A second gateway on the simulator plays an OpenAI Responses provider that stores responses and counts.
  provider = await startGateway({ config: { keys: [{ name: 'provider', key: 'sk-provider-key' }] } });
  native = await startFakeUpstream(counted(555));
  noCounting = await startFakeUpstream(failure(404));
  failing = await startFakeUpstream(failure(502));
  translated = await startFakeUpstream({ status: 500 });
  gw = await startGateway({
    config: {
      channels: [
        { name: 'sim', type: 'simulator', models: ['sim-*'] },
        {
          name: 'native',
          type: 'openai-responses',
          baseUrl: `${native.origin}/v1`,
          apiKey: 'sk-up-native',
          models: ['gpt-native', 'gpt-failover'],
          modelMapping: { 'mapped-gpt': 'gpt-upstream-name' },
          priority: 5,
        },
        { name: 'no-counting', type: 'openai-responses', baseUrl: `${noCounting.origin}/v1`, apiKey: 'sk-up-404', models: ['gpt-no-count'] },
        { name: 'failing', type: 'openai-responses', baseUrl: `${failing.origin}/v1`, apiKey: 'sk-up-502', models: ['gpt-failover'], priority: 10 },
        { name: 'provider', type: 'openai-responses', baseUrl: `${provider.url}/v1`, apiKey: 'sk-provider-key', models: ['chain-model'] },
        { name: 'claude', type: 'anthropic', baseUrl: translated.origin, apiKey: 'sk-up-claude', models: ['claude-translated'] },
      ],
      keys: [{ name: 'client', key: KEY }],
      prices: { '*': { input: 1, output: 2 } },
    },
  });
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: KEY, maxRetries: 0 });
}, 60_000);
afterEach(() => native.reply(counted(555)));
afterAll(async () => {
  await gw?.close();
  for (const fake of [native, noCounting, failing, translated]) await fake?.close();
  await provider?.close();
});

function estimateOf(body: Record<string, unknown>): number {
  const parsed = parseResponsesCountRequest(structuredClone(body));
  const items = inputAsItems(parsed.input).map((item) => ({ item, output: false }));
  return countRequestTokens(responsesToCore(parsed, items));
}

async function logOf(model: string): Promise<any> {
  const logs = await gw.admin('GET', `/logs?model=${encodeURIComponent(model)}&limit=1`);
  return logs.body.data[0];
}

const post = (body: unknown, key = KEY) =>
  fetch(`${gw.url}/v1/responses/input_tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });

describe('estimated by the gateway', () => {
  it('counts on the simulator with the gateway tokenizer and says so', async () => {
    const body = { model: 'sim-model', input: 'Hello, how many tokens is this?', instructions: 'You are terse.' };
    const { data, response } = await client.responses.inputTokens.count(body).withResponse();
    expect(data).toEqual({ object: 'response.input_tokens', input_tokens: estimateOf(body) });
    expect(data.input_tokens).toBeGreaterThan(8);
    expect(response.headers.get('x-switchyard-estimated')).toBe('true');
    expect(await logOf('sim-model')).toMatchObject({ family: 'responses.input_tokens', httpStatus: 200, estimated: true, cost: 0, inputTokens: 0, outputTokens: 0 });
  });

  it('counts instructions alone when input is left out', async () => {
    const data = await client.responses.inputTokens.count({ model: 'sim-model', instructions: 'Only instructions here.' });
    expect(data.input_tokens).toBe(estimateOf({ model: 'sim-model', instructions: 'Only instructions here.' }));
    expect(data.input_tokens).toBeGreaterThan(0);
  });

  it("counts Codex's request (developer messages, function tools, web_search)", async () => {
    const { stream: _stream, ...body } = agentRequest('codex-0.169.0', '04-gpt-5.5-plain-turn.json').body;
    const response = await post({ ...body, model: 'sim-codex' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-switchyard-estimated')).toBe('true');
    const { input_tokens } = (await response.json()) as { input_tokens: number };
    expect(input_tokens).toBe(estimateOf({ ...body, model: 'sim-codex' }));
    expect(input_tokens).toBeGreaterThan(1000);
  });

  it('counts the conversation a previous_response_id continues', async () => {
    const first = await client.responses.create({ model: 'sim-model', input: 'Tell me a long story about a lighthouse keeper.' });
    const alone = await client.responses.inputTokens.count({ model: 'sim-model', input: 'And then?' });
    const continued = await client.responses.inputTokens.count({ model: 'sim-model', input: 'And then?', previous_response_id: first.id });
    expect(continued.input_tokens).toBeGreaterThan(alone.input_tokens + 5);
  });

  it('counts a translated request without calling the upstream', async () => {
    const before = translated.requests.length;
    const { data, response } = await client.responses.inputTokens.count({ model: 'claude-translated', input: 'Hi there' }).withResponse();
    expect(data.input_tokens).toBe(estimateOf({ model: 'claude-translated', input: 'Hi there' }));
    expect(response.headers.get('x-switchyard-estimated')).toBe('true');
    expect(translated.requests.length).toBe(before);
  });

  it('falls back to the estimate when the upstream answers 404', async () => {
    const { data, response } = await client.responses.inputTokens.count({ model: 'gpt-no-count', input: 'Hi there' }).withResponse();
    expect(data.input_tokens).toBe(estimateOf({ model: 'gpt-no-count', input: 'Hi there' }));
    expect(response.headers.get('x-switchyard-estimated')).toBe('true');
    expect(noCounting.requests.at(-1)!.url).toBe('/v1/responses/input_tokens');
  });
});

describe('forwarded to an openai-responses channel', () => {
  it("sends the client's body with the model mapped and answers the upstream's number", async () => {
    const body = { model: 'mapped-gpt', input: 'Hi there', instructions: 'Be brief.', tools: [{ type: 'web_search' as const }], reasoning: { effort: 'low' as const } };
    const { data, response } = await client.responses.inputTokens.count(body).withResponse();
    expect(data).toEqual({ object: 'response.input_tokens', input_tokens: 555 });
    expect(response.headers.get('x-switchyard-estimated')).toBeNull();
    const seen = native.requests.at(-1)!;
    expect(seen.url).toBe('/v1/responses/input_tokens');
    expect(seen.headers.authorization).toBe('Bearer sk-up-native');
    expect(seen.json()).toEqual({ ...body, model: 'gpt-upstream-name' });
    expect(await logOf('mapped-gpt')).toMatchObject({ estimated: false, cost: 0, inputTokens: 0, outputTokens: 0, upstreamModel: 'gpt-upstream-name' });
  });

  it('fails over from a 5xx to the next channel', async () => {
    native.reply(counted(21));
    const data = await client.responses.inputTokens.count({ model: 'gpt-failover', input: 'Hi' });
    expect(data.input_tokens).toBe(21);
    expect(await logOf('gpt-failover')).toMatchObject({ httpStatus: 200, triedChannels: ['failing', 'native'] });
  });

  it("names a stored conversation by the upstream's own id on the channel that holds it", async () => {
    const first = await client.responses.create({ model: 'chain-model', input: 'Tell me a long story about a lighthouse keeper.' });
    const { data, response } = await client.responses.inputTokens.count({ model: 'chain-model', input: 'And then?', previous_response_id: first.id }).withResponse();
    // Counted by the provider (nothing estimated here), which only knows its own id for that response.
    expect(response.headers.get('x-switchyard-estimated')).toBeNull();
    const alone = await client.responses.inputTokens.count({ model: 'chain-model', input: 'And then?' });
    expect(data.input_tokens).toBeGreaterThan(alone.input_tokens + 5);
  });
});

describe('like /v1/responses', () => {
  it('answers bad input in the OpenAI error shape', async () => {
    const badInput = await post({ model: 'sim-model', input: 5 });
    expect(badInput.status).toBe(400);
    expect(await badInput.json()).toMatchObject({ error: { type: 'invalid_request_error', param: 'input' } });
    const noModel = await post({ input: 'Hi' });
    expect(noModel.status).toBe(400);
    expect(((await noModel.json()) as any).error.param).toBe('model');
    const unknownPrevious = await post({ model: 'sim-model', input: 'Hi', previous_response_id: 'resp_missing' });
    expect(unknownPrevious.status).toBe(404);
    expect(((await unknownPrevious.json()) as any).error.code).toBe('previous_response_not_found');
    const wrongKey = await post({ model: 'sim-model', input: 'Hi' }, 'sk-wrong');
    expect(wrongKey.status).toBe(401);
  });
});
