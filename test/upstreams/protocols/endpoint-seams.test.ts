/**
 * A protocol speaks its dialect at whatever endpoint a provider supplies: the
 * addresses, headers that may come from a promise (a token fetched and
 * cached), and body rules. A stand-in provider of the Messages dialect with
 * the model in the URL, a Bearer token from a promise and a version in the
 * body, as a cloud's endpoint for Anthropic models has them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat.js';
import { anthropicSettings, type AnthropicSettings } from '../../../src/upstreams/anthropic/settings.js';
import { joinUrl } from '../../../src/upstreams/http.js';
import { messagesHeaders, passThroughHeaders } from '../../../src/upstreams/protocols/messages/headers.js';
import { messagesProtocol, type MessagesEndpoint } from '../../../src/upstreams/protocols/messages/index.js';
import type { PassThroughRequest } from '../../../src/upstreams/types.js';
import { testCall } from '../support/call.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { jsonReply } from '../support/fixtures.js';

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream(jsonReply('anthropic-messages', 'anthropic-text.json'));
});
afterAll(() => upstream.close());

let tokensFetched = 0;
const fetchToken = async () => `token-${++tokensFetched}`;

const cloudEndpoint: MessagesEndpoint<AnthropicSettings> = {
  type: 'cloud-messages',
  settingsOf: (channel) => anthropicSettings.of(channel),
  url: (call, operation) => joinUrl(call.channel.baseUrl, `/models/${call.upstreamModel}:${operation === 'messages' ? 'rawPredict' : 'countTokens'}`),
  headers: async (call, route, betas = []) => {
    const headers = route === 'translated' ? messagesHeaders(call, betas, undefined) : passThroughHeaders(call, undefined);
    headers.authorization = `Bearer ${await fetchToken()}`;
    return headers;
  },
  body: ({ model: _model, ...rest }) => ({ ...rest, anthropic_version: 'cloud-2023-10-16' }),
};

const adapter = messagesProtocol(cloudEndpoint);
const request: ChatRequest = { model: 'alias', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false, maxTokens: 64 };

describe('a protocol at another endpoint', () => {
  it('is the adapter of the endpoint’s type, in the protocol’s dialect', () => {
    expect(adapter.type).toBe('cloud-messages');
    expect(adapter.nativeDialect).toBe('messages');
  });

  it('translates: the endpoint’s address, headers from a promise, the body after its rules', async () => {
    const call = testCall({ baseUrl: upstream.origin, upstreamModel: 'claude-x' });
    const prepared = adapter.prepare(request, { strict: false, settings: anthropicSettings.read({ cacheBreakpoints: false }), upstreamModel: 'claude-x' });
    const result = await adapter.chat(prepared, request, call);
    expect(result.stream).toBe(false);
    const sent = upstream.requests.at(-1)!;
    expect(sent.url).toBe('/models/claude-x:rawPredict');
    expect(sent.headers.authorization).toBe(`Bearer token-${tokensFetched}`);
    expect(sent.headers['x-api-key']).toBeUndefined();
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    const body = sent.json();
    expect(body.model).toBeUndefined();
    expect(body.anthropic_version).toBe('cloud-2023-10-16');
    expect(body.max_tokens).toBe(64);
  });

  it('passes through: the client’s body after the endpoint’s rules, its anthropic-* headers kept', async () => {
    const rawBody = Buffer.from('{"model":"alias","max_tokens":32,"messages":[{"role":"user","content":"hi"}]}');
    const pass: PassThroughRequest = { rawBody, body: JSON.parse(rawBody.toString('utf8')), stream: false };
    const call = testCall({ baseUrl: upstream.origin, upstreamModel: 'claude-x', clientHeaders: { 'anthropic-beta': 'some-beta-2025-01-01' } });
    const result = await adapter.passThrough!(pass, call);
    expect(result.status).toBe(200);
    const sent = upstream.requests.at(-1)!;
    expect(sent.url).toBe('/models/claude-x:rawPredict');
    expect(sent.headers.authorization).toMatch(/^Bearer token-\d+$/);
    expect(sent.headers['anthropic-beta']).toBe('some-beta-2025-01-01');
    expect(sent.json()).toEqual({ max_tokens: 32, messages: [{ role: 'user', content: 'hi' }], anthropic_version: 'cloud-2023-10-16' });
  });
});
