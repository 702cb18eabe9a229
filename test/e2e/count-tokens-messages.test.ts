/**
 * `POST /v1/messages/count_tokens` with the official client: estimated by the
 * gateway on the simulator and on translating channels (header set, no
 * upstream call), forwarded to an anthropic channel's own counting endpoint
 * (model mapped, the upstream's number), estimated when that upstream answers
 * 404, failed over on a 5xx, logged once at no cost.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { countRequestTokens } from '../../src/core/tokens.js';
import { messagesToCore } from '../../src/families/messages/to-core.js';
import { parseMessagesCountRequest } from '../../src/families/messages/count-tokens.js';
import { agentRequest } from '../support/agent-fixtures.js';
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const KEY = 'sk-client-count-messages';
const RPM_KEY = 'sk-client-count-rpm-0';
const TPM_KEY = 'sk-client-count-tpm-0';

let native: FakeUpstream;
let noCounting: FakeUpstream;
let failing: FakeUpstream;
let chat: FakeUpstream;
let gw: TestGateway;
let client: Anthropic;

const counted = (n: number): FakeReply => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input_tokens: n }) });
const failure = (status: number, type: string): FakeReply => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ type: 'error', error: { type, message: `upstream says ${status}` } }),
});

beforeAll(async () => {
  native = await startFakeUpstream(counted(4321));
  noCounting = await startFakeUpstream(failure(404, 'not_found_error'));
  failing = await startFakeUpstream(failure(503, 'overloaded_error'));
  chat = await startFakeUpstream({ status: 500 });
  gw = await startGateway({
    config: {
      channels: [
        { name: 'sim', type: 'simulator', models: ['sim-*'] },
        {
          name: 'native',
          type: 'anthropic',
          baseUrl: native.origin,
          apiKey: 'sk-up-native',
          models: ['claude-native', 'claude-failover'],
          modelMapping: { 'mapped-claude': 'claude-upstream-name' },
          priority: 5,
        },
        { name: 'no-counting', type: 'anthropic', baseUrl: noCounting.origin, apiKey: 'sk-up-404', models: ['claude-no-count'] },
        { name: 'failing', type: 'anthropic', baseUrl: failing.origin, apiKey: 'sk-up-503', models: ['claude-failover'], priority: 10 },
        { name: 'chat', type: 'openai-chat', baseUrl: `${chat.origin}/v1`, apiKey: 'sk-up-chat', models: ['gpt-translated'] },
      ],
      keys: [
        { name: 'client', key: KEY },
        { name: 'rpm', key: RPM_KEY, rpm: 2 },
        { name: 'tpm', key: TPM_KEY, tpm: 5 },
      ],
      prices: { '*': { input: 1, output: 2 } },
      // Only the channels above serve: a model none of them serves is a 404.
      simulator: false,
    },
  });
  client = new Anthropic({ baseURL: gw.url, apiKey: KEY, maxRetries: 0 });
});
afterEach(() => native.reply(counted(4321)));
afterAll(async () => {
  await gw?.close();
  for (const fake of [native, noCounting, failing, chat]) await fake?.close();
});

const hello = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'Hello, how many tokens is this?' }] });

async function logOf(model: string): Promise<any> {
  const logs = await gw.admin('GET', `/logs?model=${encodeURIComponent(model)}&limit=1`);
  return logs.body.data[0];
}

function estimateOf(body: Record<string, unknown>): number {
  return countRequestTokens(messagesToCore(parseMessagesCountRequest(structuredClone(body))));
}

describe('estimated by the gateway', () => {
  it('counts on the simulator with the gateway tokenizer and says so', async () => {
    const body = {
      ...hello('sim-model'),
      system: 'You are terse.',
      tools: [{ name: 'get_weather', description: 'Weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } }],
    };
    const { data, response } = await client.messages.countTokens(body).withResponse();
    expect(data).toEqual({ input_tokens: estimateOf(body) });
    expect(data.input_tokens).toBeGreaterThan(10);
    expect(response.headers.get('x-switchyard-estimated')).toBe('true');
    const log = await logOf('sim-model');
    expect(log).toMatchObject({ family: 'messages.count_tokens', httpStatus: 200, estimated: true, cost: 0, inputTokens: 0, outputTokens: 0, stream: false, triedChannels: ['sim'] });
  });

  it('counts a translated request without calling the upstream', async () => {
    const before = chat.requests.length;
    const { data, response } = await client.messages.countTokens(hello('gpt-translated')).withResponse();
    expect(data.input_tokens).toBe(estimateOf(hello('gpt-translated')));
    expect(response.headers.get('x-switchyard-estimated')).toBe('true');
    expect(chat.requests.length).toBe(before);
  });

  it("counts Claude Code's request (no max_tokens, thinking budget, betas) through the beta client", async () => {
    const recorded = agentRequest('claude-code-2.1.328', '04-claude-sonnet-4-5-plain-turn.json');
    const { max_tokens: _max, stream: _stream, ...body } = recorded.body;
    const betas = recorded.headers['anthropic-beta'].split(',');
    const { data, response } = await client.beta.messages.countTokens({ ...body, model: 'sim-claude-code', betas } as never).withResponse();
    expect(data.input_tokens).toBe(estimateOf({ ...body, model: 'sim-claude-code' }));
    expect(data.input_tokens).toBeGreaterThan(1000);
    expect(response.headers.get('x-switchyard-estimated')).toBe('true');
  });

  it('falls back to the estimate when the native upstream has no counting endpoint (404)', async () => {
    const { data, response } = await client.messages.countTokens(hello('claude-no-count')).withResponse();
    expect(data.input_tokens).toBe(estimateOf(hello('claude-no-count')));
    expect(response.headers.get('x-switchyard-estimated')).toBe('true');
    expect(noCounting.requests.at(-1)!.url).toBe('/v1/messages/count_tokens');
    expect(await logOf('claude-no-count')).toMatchObject({ estimated: true, cost: 0, triedChannels: ['no-counting'] });
  });
});

describe('forwarded to an anthropic channel', () => {
  it("sends the client's body with the model mapped and answers the upstream's number", async () => {
    const body = { ...hello('mapped-claude'), thinking: { type: 'enabled' as const, budget_tokens: 2048 }, context_management: { edits: [] } };
    const { data, response } = await client.messages.countTokens(body as never, { headers: { 'anthropic-beta': 'context-management-2025-06-27' } }).withResponse();
    expect(data).toEqual({ input_tokens: 4321 });
    expect(response.headers.get('x-switchyard-estimated')).toBeNull();
    const seen = native.requests.at(-1)!;
    expect(seen.url).toBe('/v1/messages/count_tokens');
    expect(seen.headers['x-api-key']).toBe('sk-up-native');
    expect(seen.headers['anthropic-beta']).toBe('context-management-2025-06-27');
    expect(seen.json()).toEqual({ ...body, model: 'claude-upstream-name' });
    const log = await logOf('mapped-claude');
    expect(log).toMatchObject({ family: 'messages.count_tokens', estimated: false, cost: 0, inputTokens: 0, outputTokens: 0, upstreamModel: 'claude-upstream-name' });
  });

  it('fails over from a 5xx to the next channel', async () => {
    native.reply(counted(77));
    const { data } = await client.messages.countTokens(hello('claude-failover')).withResponse();
    expect(data.input_tokens).toBe(77);
    expect(failing.requests.length).toBeGreaterThan(0);
    expect(await logOf('claude-failover')).toMatchObject({ httpStatus: 200, estimated: false, triedChannels: ['failing', 'native'] });
  });

  it("passes the upstream's 400 on in the Messages error shape", async () => {
    native.reply(failure(400, 'invalid_request_error'));
    const error = await client.messages.countTokens(hello('claude-native')).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });
});

describe('like /v1/messages', () => {
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${gw.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01', ...headers },
      body: JSON.stringify(body),
    });

  it('answers bad input with the Messages 400 and an unknown key with 401', async () => {
    const missing = await post({ model: 'sim-model' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('messages') } });
    const badThinking = await post({ ...hello('sim-model'), thinking: { type: 'enabled', budget_tokens: 10 } });
    expect(badThinking.status).toBe(400);
    const unauthenticated = await post(hello('sim-model'), { 'x-api-key': 'sk-wrong' });
    expect(unauthenticated.status).toBe(401);
    expect(((await unauthenticated.json()) as any).error.type).toBe('authentication_error');
  });

  it('requires anthropic-version and serves /messages/count_tokens too', async () => {
    const response = await fetch(`${gw.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY },
      body: JSON.stringify(hello('sim-model')),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error.message).toContain('anthropic-version');
    const short = await fetch(`${gw.url}/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(hello('sim-model')),
    });
    expect(short.status).toBe(200);
  });

  it('answers 404 for a model no channel serves', async () => {
    const response = await post(hello('unserved-model'));
    expect(response.status).toBe(404);
    expect(((await response.json()) as any).error.type).toBe('not_found_error');
  });

  it('counts against requests per minute but never against tokens per minute', async () => {
    const rpm = new Anthropic({ baseURL: gw.url, apiKey: RPM_KEY, maxRetries: 0 });
    await rpm.messages.countTokens(hello('sim-model'));
    await rpm.messages.countTokens(hello('sim-model'));
    await expect(rpm.messages.countTokens(hello('sim-model'))).rejects.toBeInstanceOf(Anthropic.RateLimitError);
    const tpm = new Anthropic({ baseURL: gw.url, apiKey: TPM_KEY, maxRetries: 0 });
    for (let i = 0; i < 3; i++) expect((await tpm.messages.countTokens(hello('sim-model'))).input_tokens).toBeGreaterThan(5);
  });
});
