/**
 * Family F routes like every chat family: a failing channel is skipped for
 * the next before any byte reaches the client, plain and streamed, on the
 * pass-through path and across upstream types; keys and rate limits apply.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { jsonReply, sseReply } from '../upstreams/support/fixtures.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

let broken: FakeUpstream;
let healthy: FakeUpstream;
let gw: TestGateway;
let client: OpenAI;

beforeAll(async () => {
  broken = await startFakeUpstream({ status: 503, headers: { 'content-type': 'application/json' }, body: '{"error":{"message":"overloaded"}}' });
  healthy = await startFakeUpstream((request) => (request.json<{ stream?: boolean }>().stream ? sseReply('openai-chat', 'openai-text.chunks.txt') : jsonReply('openai-chat', 'openai-text.json')));
  gw = await startGateway({
    config: {
      channels: [
        { name: 'broken', type: 'openai-chat', baseUrl: `${broken.origin}/v1`, apiKey: 'sk-upstream-broken', models: ['gpt-x', 'gpt-cross'], priority: 10 },
        { name: 'healthy', type: 'openai-chat', baseUrl: `${healthy.origin}/v1`, apiKey: 'sk-upstream-healthy', models: ['gpt-x'], priority: 0 },
        { name: 'sim', type: 'simulator', models: ['gpt-cross'], priority: 0 },
      ],
      keys: [
        { name: 'client', key: 'sk-client-failover' },
        { name: 'limited', key: 'sk-client-limited', rpm: 1 },
      ],
    },
  });
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-client-failover', maxRetries: 0 });
});
afterAll(async () => {
  await gw?.close();
  await broken?.close();
  await healthy?.close();
});

describe('failover', () => {
  it('passes a plain request through to the next channel', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0].message.content).toBeTruthy();
    const logs = await gw.admin('GET', '/logs?model=gpt-x');
    expect(logs.body.data[0].triedChannels).toEqual(['broken', 'healthy']);
  });

  it('passes a stream through to the next channel', async () => {
    const final = await client.chat.completions.stream({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }] }).finalChatCompletion();
    expect(final.choices[0].finish_reason).toBe('stop');
  });

  it('falls from a pass-through channel to a translated one', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-cross', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.object).toBe('chat.completion');
    const logs = await gw.admin('GET', '/logs?model=gpt-cross');
    // The broken channel may already be cooling down from the tests before; either way the simulator serves.
    expect(logs.body.data[0].triedChannels.at(-1)).toBe('sim');
  });
});

describe('key limits', () => {
  it('answers 429 in the OpenAI shape once the per-minute limit is spent', async () => {
    const limited = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-client-limited', maxRetries: 0 });
    await limited.chat.completions.create({ model: 'gpt-x', messages: [{ role: 'user', content: 'one' }] });
    const error = await limited.chat.completions.create({ model: 'gpt-x', messages: [{ role: 'user', content: 'two' }] }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error.error).toMatchObject({ type: 'rate_limit_error' });
  });
});
