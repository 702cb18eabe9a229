/**
 * The native counting calls of the anthropic, gemini and openai-responses
 * adapters against a loopback fake: where they post, what they send (the
 * client's body, the model name mapped), and how they read or refuse the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicAdapter } from '../../src/upstreams/anthropic/index.js';
import { geminiAdapter } from '../../src/upstreams/gemini/index.js';
import { openAiResponsesAdapter } from '../../src/upstreams/openai-responses/index.js';
import type { PassThroughRequest } from '../../src/upstreams/types.js';
import { TEST_API_KEY, testCall } from './support/call.js';
import { startFakeUpstream, type FakeUpstream } from './support/fake-upstream.js';
import { rejection } from './support/rejection.js';

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(async () => upstream?.close());

function clientRequest(body: Record<string, unknown>): PassThroughRequest {
  return { rawBody: Buffer.from(JSON.stringify(body)), body, stream: false };
}

const json = (status: number, body: unknown) => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('anthropic countTokens', () => {
  const body = { model: 'claude-client', messages: [{ role: 'user', content: 'Hi' }], system: 'be brief', context_management: { edits: [] } };

  it('posts the client body, model mapped, to /v1/messages/count_tokens with the Messages headers', async () => {
    upstream.reply(json(200, { input_tokens: 1234 }));
    const call = testCall({ baseUrl: upstream.origin, upstreamModel: 'claude-upstream', clientHeaders: { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'token-counting-2024-11-01' } });
    const result = await anthropicAdapter.countTokens!(clientRequest(body), call);
    expect(result.inputTokens).toBe(1234);
    expect(JSON.parse(result.body.toString())).toEqual({ input_tokens: 1234 });
    const seen = upstream.requests.at(-1)!;
    expect(seen.url).toBe('/v1/messages/count_tokens');
    expect(seen.headers['x-api-key']).toBe(TEST_API_KEY);
    expect(seen.headers['anthropic-version']).toBe('2023-06-01');
    expect(seen.headers['anthropic-beta']).toBe('token-counting-2024-11-01');
    expect(seen.json()).toEqual({ ...body, model: 'claude-upstream' });
  });

  it('sends the client bytes untouched when the model is not mapped', async () => {
    upstream.reply(json(200, { input_tokens: 7 }));
    const request = clientRequest(body);
    await anthropicAdapter.countTokens!(request, testCall({ baseUrl: upstream.origin, upstreamModel: 'claude-client' }));
    expect(upstream.requests.at(-1)!.body.equals(request.rawBody)).toBe(true);
  });

  it('reports a 404 with its status, so the gateway can count instead', async () => {
    upstream.reply(json(404, { type: 'error', error: { type: 'not_found_error', message: 'Not Found' } }));
    const error = await rejection(anthropicAdapter.countTokens!(clientRequest(body), testCall({ baseUrl: upstream.origin })));
    expect(error.upstreamStatus).toBe(404);
    expect(error.retryable).toBe(false);
  });

  it('makes a 5xx retryable and an answer without a count an upstream error', async () => {
    upstream.reply(json(503, { type: 'error', error: { type: 'overloaded_error', message: 'busy' } }));
    expect((await rejection(anthropicAdapter.countTokens!(clientRequest(body), testCall({ baseUrl: upstream.origin })))).retryable).toBe(true);
    upstream.reply(json(200, { tokens: 'many' }));
    const malformed = await rejection(anthropicAdapter.countTokens!(clientRequest(body), testCall({ baseUrl: upstream.origin })));
    expect(malformed.kind).toBe('upstream_error');
  });
});

describe('gemini countTokens', () => {
  it('posts {contents} to models/<upstream model>:countTokens with the key in a header', async () => {
    upstream.reply(json(200, { totalTokens: 31, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 31 }] }));
    const request = clientRequest({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
    const result = await geminiAdapter.countTokens!(request, testCall({ baseUrl: upstream.origin, upstreamModel: 'gemini-upstream' }));
    expect(result.inputTokens).toBe(31);
    const seen = upstream.requests.at(-1)!;
    expect(seen.url).toBe('/v1beta/models/gemini-upstream:countTokens');
    expect(seen.headers['x-goog-api-key']).toBe(TEST_API_KEY);
    expect(seen.body.equals(request.rawBody)).toBe(true);
  });

  it('maps the model named inside generateContentRequest', async () => {
    upstream.reply(json(200, { totalTokens: 5 }));
    const inner = { model: 'models/gemini-client', contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], systemInstruction: { parts: [{ text: 'x' }] } };
    await geminiAdapter.countTokens!(clientRequest({ generateContentRequest: inner }), testCall({ baseUrl: upstream.origin, upstreamModel: 'gemini-upstream' }));
    expect(upstream.requests.at(-1)!.json()).toEqual({ generateContentRequest: { ...inner, model: 'models/gemini-upstream' } });
  });

  it('reads a count of zero the service leaves out', async () => {
    upstream.reply(json(200, {}));
    const result = await geminiAdapter.countTokens!(clientRequest({ contents: [] }), testCall({ baseUrl: upstream.origin }));
    expect(result.inputTokens).toBe(0);
  });

  it('maps the service errors (404 NOT_FOUND kept as a 404)', async () => {
    upstream.reply(json(404, { error: { code: 404, message: 'models/x is not found', status: 'NOT_FOUND' } }));
    const error = await rejection(geminiAdapter.countTokens!(clientRequest({ contents: [] }), testCall({ baseUrl: upstream.origin })));
    expect(error.upstreamStatus).toBe(404);
  });
});

describe('openai-responses countTokens', () => {
  it('posts the client body, model mapped, to <base>/responses/input_tokens with a Bearer key', async () => {
    upstream.reply(json(200, { object: 'response.input_tokens', input_tokens: 42 }));
    const body = { model: 'gpt-client', input: 'Hi', instructions: 'be brief', tools: [{ type: 'web_search' }] };
    const result = await openAiResponsesAdapter.countTokens!(clientRequest(body), testCall({ baseUrl: `${upstream.origin}/v1`, upstreamModel: 'gpt-upstream' }));
    expect(result.inputTokens).toBe(42);
    expect(JSON.parse(result.body.toString())).toEqual({ object: 'response.input_tokens', input_tokens: 42 });
    const seen = upstream.requests.at(-1)!;
    expect(seen.url).toBe('/v1/responses/input_tokens');
    expect(seen.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
    expect(seen.json()).toEqual({ ...body, model: 'gpt-upstream' });
  });
});
