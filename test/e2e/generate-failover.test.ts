/**
 * Gemini channels under failure, seen by content-generation clients: 429 and
 * 5xx move on to the next channel before any byte reached the client; a 400
 * is never retried and keeps the service's status word; a refused channel
 * key cools the channel down; a stream that breaks half way ends with an
 * error chunk and is charged for what was delivered.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { jsonReply, sseReply } from '../upstreams/support/fixtures.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const CLIENT_KEY = 'AIza-client-failover';
let primary: FakeUpstream;
let secondary: FakeUpstream;
let gw: TestGateway;

const okReply = () => jsonReply('gemini', 'google-text.json');
const errorReply = (status: number, googleStatus: string, message = `upstream says ${status}`) => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ error: { code: status, message, status: googleStatus } }),
});

const genai = () => new GoogleGenAI({ apiKey: CLIENT_KEY, httpOptions: { baseUrl: gw.url, apiVersion: 'v1beta' } });
const ask = (model = 'gem-model') => genai().models.generateContent({ model, contents: 'Hi' });

async function lastLog(): Promise<any> {
  return (await gw.admin('GET', '/logs?limit=1')).body.data[0];
}

beforeAll(async () => {
  primary = await startFakeUpstream(okReply());
  secondary = await startFakeUpstream(okReply());
  gw = await startGateway({
    settings: { upstreamTimeoutMs: 300, cooldownSeconds: 60 },
    config: {
      channels: [
        { name: 'primary', type: 'gemini', baseUrl: primary.origin, apiKey: 'AIza-key-one', models: ['gem-*'], priority: 10 },
        { name: 'secondary', type: 'gemini', baseUrl: secondary.origin, apiKey: 'AIza-key-two', models: ['gem-*'], priority: 5 },
        { name: 'solo', type: 'gemini', baseUrl: primary.origin, apiKey: 'AIza-key-solo', models: ['solo-*'] },
      ],
      keys: [{ name: 'client', key: CLIENT_KEY }],
      prices: { '*': { input: 1, output: 2 } },
    },
  });
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

describe('gemini failover', () => {
  it('moves on after the recorded 429 body', async () => {
    primary.reply(jsonReply('gemini', 'google-429-retry-info.json', 429));
    const response = await ask();
    expect(response.text).toContain('strawberry');
    expect((await lastLog()).triedChannels).toEqual(['primary', 'secondary']);
  });

  it.each([
    [500, 'INTERNAL'],
    [503, 'UNAVAILABLE'],
    [504, 'DEADLINE_EXCEEDED'],
  ])('moves on after an upstream %i', async (status, word) => {
    primary.reply(errorReply(status, word));
    await ask();
    expect((await lastLog()).triedChannels).toEqual(['primary', 'secondary']);
  });

  it('moves on when the upstream is slower than the timeout', async () => {
    primary.reply({ ...okReply(), headersDelayMs: 1500 });
    await ask();
    expect((await lastLog()).triedChannels).toEqual(['primary', 'secondary']);
  });

  it('never retries a 400, passing the message and the status word on', async () => {
    primary.reply(errorReply(400, 'FAILED_PRECONDITION', 'User location is not supported for the API use.'));
    const failure = await ask().catch((error) => error);
    expect(failure.status).toBe(400);
    expect(JSON.parse(failure.message)).toEqual({
      error: { code: 400, message: 'User location is not supported for the API use.', status: 'FAILED_PRECONDITION' },
    });
    expect((await lastLog()).triedChannels).toEqual(['primary']);
  });

  it('answers 429 RESOURCE_EXHAUSTED with the upstream delay when the only channel is rate limited', async () => {
    primary.reply(jsonReply('gemini', 'google-429-retry-info.json', 429));
    const res = await fetch(`${gw.url}/v1beta/models/solo-model:generateContent?key=${CLIENT_KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'Hi' }] }] }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('35');
    const body = (await res.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED', message: 'You exceeded your current quota, please check your plan.' });
    expect(body.error.details).toEqual([{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '35s' }]);
  });

  it('answers 503 UNAVAILABLE when every upstream is overloaded', async () => {
    primary.reply(jsonReply('gemini', 'google-429-retry-info.json', 429));
    secondary.reply(errorReply(503, 'UNAVAILABLE'));
    const failure = await ask().catch((error) => error);
    expect(failure.status).toBe(503);
    expect(JSON.parse(failure.message).error.status).toBe('UNAVAILABLE');
  });

  it('cools a channel down after Gemini refuses its key', async () => {
    primary.reply({
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] },
      }),
    });
    await ask();
    expect((await lastLog()).triedChannels).toEqual(['primary', 'secondary']);
    primary.reply(okReply());
    await ask();
    expect((await lastLog()).triedChannels).toEqual(['secondary']);
    gw.gateway.ctx.health.reset();
  });

  it('ends a pass-through stream that breaks half way with an error chunk, charging what was delivered', async () => {
    primary.reply(sseReply('gemini', 'google-text.chunks.txt', { cutAfterChunks: 2 }));
    const stream = await genai().models.generateContentStream({ model: 'gem-model', contents: 'Hi' });
    const texts: string[] = [];
    const failure = await (async () => {
      for await (const chunk of stream) texts.push(chunk.text ?? '');
    })().catch((error) => error);
    expect(texts.join('')).toContain('There are **3**');
    expect(failure).toBeInstanceOf(Error);
    expect(failure.status).toBe(500);
    const log = await lastLog();
    expect(log.errorKind).toBe('upstream_error');
    expect(log.outputTokens).toBeGreaterThan(0);
    expect(log.cost).toBeGreaterThan(0);
  });

  it('ends a translated stream that breaks half way with the Messages error event', async () => {
    primary.reply(sseReply('gemini', 'google-stream-no-args-tool-call.chunks.txt', { cutAfterChunks: 5 }));
    const client = new Anthropic({ baseURL: gw.url, apiKey: CLIENT_KEY, maxRetries: 0 });
    const failure = await client.messages
      .stream({ model: 'gem-model', max_tokens: 500, messages: [{ role: 'user', content: 'Hi' }] })
      .finalMessage()
      .catch((error) => error);
    expect(failure).toBeInstanceOf(Error);
    const log = await lastLog();
    expect(log.family).toBe('messages');
    expect(log.errorKind).toBe('upstream_error');
    expect(log.estimated).toBe(true);
    expect(log.outputTokens).toBeGreaterThan(0);
  });
});
