/**
 * Routing with failover across loopback upstreams: retry on 5xx/429/timeouts
 * before any byte reached the client, cool-down after refused credentials,
 * never retry a 400, 529 when every upstream is overloaded, and a stream
 * that breaks half way charged for what was delivered.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { fixtureText, sseReply } from '../upstreams/support/fixtures.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

let primary: FakeUpstream;
let secondary: FakeUpstream;
let gw: TestGateway;
let client: Anthropic;

const okReply = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: fixtureText('anthropic-messages', 'anthropic-text.json') });
const errorReply = (status: number, type = 'api_error') => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ type: 'error', error: { type, message: `upstream says ${status}` } }),
});
const ask = (model = 'claude-test') => ({ model, max_tokens: 100, messages: [{ role: 'user' as const, content: 'Hi' }] });

async function lastLog(): Promise<any> {
  const logs = await gw.admin('GET', '/logs?limit=1');
  return logs.body.data[0];
}

beforeAll(async () => {
  primary = await startFakeUpstream(okReply());
  secondary = await startFakeUpstream(okReply());
  gw = await startGateway({
    settings: { upstreamTimeoutMs: 300, cooldownSeconds: 60 },
    config: {
      channels: [
        { name: 'primary', type: 'anthropic', baseUrl: primary.origin, apiKey: 'k1', models: ['claude-*'], priority: 10 },
        { name: 'secondary', type: 'anthropic', baseUrl: secondary.origin, apiKey: 'k2', models: ['claude-*'], priority: 5 },
        { name: 'broken-stream', type: 'openai-chat', baseUrl: `${primary.origin}/v1`, apiKey: 'k3', models: ['cut-model'] },
      ],
      keys: [{ name: 'client', key: 'sk-client-failover' }],
      prices: { '*': { input: 1, output: 2 } },
    },
  });
  client = new Anthropic({ baseURL: gw.url, apiKey: 'sk-client-failover', maxRetries: 0 });
});
afterEach(() => {
  // Each case starts with closed breakers: failures of one must not bench a channel for the next.
  gw.gateway.ctx.health.reset();
  primary.reply(okReply());
  secondary.reply(okReply());
});
afterAll(async () => {
  await gw?.close();
  await primary?.close();
  await secondary?.close();
});

describe('failover', () => {
  it('prefers the higher priority channel', async () => {
    await client.messages.create(ask());
    expect((await lastLog()).triedChannels).toEqual(['primary']);
  });

  it.each([500, 502, 503, 529, 429])('moves on after an upstream %i', async (status) => {
    primary.reply(errorReply(status));
    const message = await client.messages.create(ask());
    expect(message.type).toBe('message');
    expect((await lastLog()).triedChannels).toEqual(['primary', 'secondary']);
  });

  it('moves on when the upstream is slower than the timeout', async () => {
    primary.reply({ ...okReply(), headersDelayMs: 1500 });
    const message = await client.messages.create(ask());
    expect(message.type).toBe('message');
    expect((await lastLog()).triedChannels).toEqual(['primary', 'secondary']);
  });

  it('never retries a 400, and passes the upstream message on', async () => {
    primary.reply(errorReply(400, 'invalid_request_error'));
    const failure = await client.messages.create(ask()).catch((error) => error);
    expect(failure).toBeInstanceOf(Anthropic.BadRequestError);
    expect(failure.message).toContain('upstream says 400');
    expect((await lastLog()).triedChannels).toEqual(['primary']);
  });

  it('answers 529 when every upstream is overloaded', async () => {
    primary.reply(errorReply(529, 'overloaded_error'));
    secondary.reply(errorReply(503));
    const failure = await client.messages.create(ask()).catch((error) => error);
    expect(failure.status).toBe(529);
    expect(failure.type).toBe('overloaded_error');
  });

  it('cools a channel down after its credentials are refused', async () => {
    primary.reply(errorReply(401, 'authentication_error'));
    await client.messages.create(ask());
    expect((await lastLog()).triedChannels).toEqual(['primary', 'secondary']);
    primary.reply(okReply());
    await client.messages.create(ask());
    // The cooling channel comes last now, even though its priority is higher.
    expect((await lastLog()).triedChannels).toEqual(['secondary']);
    gw.gateway.ctx.health.reset();
  });

  it('ends a stream that breaks half way with an error frame, charging what was delivered', async () => {
    primary.reply(sseReply('openai-chat', 'openai-text.chunks.txt', { cutAfterChunks: 40 }));
    const stream = client.messages.stream(ask('cut-model'));
    const deltas: string[] = [];
    stream.on('text', (text) => deltas.push(text));
    const failure = await stream.finalMessage().catch((error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(deltas.length).toBeGreaterThan(10);
    const log = await lastLog();
    expect(log.model).toBe('cut-model');
    expect(log.estimated).toBe(true);
    expect(log.outputTokens).toBeGreaterThan(0);
    expect(log.cost).toBeGreaterThan(0);
    expect(log.errorKind).not.toBeNull();
  });
});
