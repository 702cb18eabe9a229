/**
 * The vertex channel type against a loopback Vertex that checks credentials
 * as Google does (test/support/fake-vertex.ts): the token exchange with a
 * service-account key (signed assertion, the key's token_uri), tokens held,
 * shared while fetched and refreshed before expiry, a refused key read as a
 * refused credential, and both publishers' addresses and bodies.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat.js';
import { GatewayError, isCredentialRefusal } from '../../../src/core/errors.js';
import type { UpstreamCall } from '../../../src/upstreams/types.js';
import { forgetTokens, serviceAccountToken } from '../../../src/upstreams/vertex/auth.js';
import { publisherModels, vertexOrigin } from '../../../src/upstreams/vertex/endpoint.js';
import { vertexAdapter, vertexChatAdapter, vertexGenerateAdapter, vertexMessagesAdapter } from '../../../src/upstreams/vertex/index.js';
import { vertexSettings } from '../../../src/upstreams/vertex/settings.js';
import { startFakeVertex, type FakeVertex } from '../../support/fake-vertex.js';
import { testChannel } from '../support/call.js';

let fake: FakeVertex;
beforeAll(async () => {
  fake = await startFakeVertex();
});
afterAll(() => fake.close());
beforeEach(() => {
  forgetTokens();
  fake.tokenLifetimeSeconds = 3600;
});

function call(options: { model: string; key?: string; settings?: Record<string, unknown>; clientHeaders?: UpstreamCall['clientHeaders'] }): UpstreamCall {
  const key = options.key ?? fake.serviceAccountKey();
  const settings = vertexSettings.read({ project: fake.project, location: fake.location, endpoint: fake.origin, ...options.settings });
  return {
    channel: testChannel({ type: 'vertex', name: 'vertex test', baseUrl: '', apiKeys: [key], settings }),
    upstreamModel: options.model,
    apiKey: key,
    signal: new AbortController().signal,
    requestId: 'req_vertex',
    clientHeaders: options.clientHeaders ?? {},
    timeoutMs: 5_000,
  };
}

const request: ChatRequest = { model: 'alias', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false, maxTokens: 64 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function translated(model: string, stream = false, key?: string) {
  const c = call({ model, key });
  const adapter = vertexAdapter;
  const prepared = adapter.prepare({ ...request, stream }, { strict: false, settings: c.channel.settings as never, upstreamModel: model });
  return adapter.chat(prepared, { ...request, stream }, c);
}

describe('vertex addresses', () => {
  it('uses the location’s host, global without a region prefix, and the endpoint setting over it', () => {
    expect(vertexOrigin('global')).toBe('https://aiplatform.googleapis.com');
    expect(vertexOrigin('europe-west4')).toBe('https://europe-west4-aiplatform.googleapis.com');
    expect(vertexOrigin('eu')).toBe('https://aiplatform.eu.rep.googleapis.com');
    expect(vertexSettings.read({ location: 'us' }).location).toBe('us');
    const regional = call({ model: 'm', settings: { endpoint: undefined, location: 'us-east5' } });
    expect(publisherModels(regional, 'google')).toBe(`https://us-east5-aiplatform.googleapis.com/v1/projects/${fake.project}/locations/us-east5/publishers/google/models/`);
    expect(publisherModels(call({ model: 'm' }), 'anthropic')).toBe(`${fake.origin}/v1/projects/${fake.project}/locations/${fake.location}/publishers/anthropic/models/`);
  });

  it('refuses a bad project or location, naming the setting', () => {
    expect(() => vertexSettings.read({ project: 'My Project' })).toThrow(/project/);
    expect(() => vertexSettings.read({ project: 'my-project', location: 'Mars' })).toThrow(/location/);
    expect(vertexSettings.read({})).toMatchObject({ location: 'global', auth: 'service-account' });
  });

  it('calls for the service-account key’s project when the channel names none; an access token without a project is a credential it cannot use', () => {
    const fromKey = call({ model: 'm', settings: { project: undefined } });
    expect(publisherModels(fromKey, 'google')).toContain(`/v1/projects/${fake.project}/`);
    const bare = call({ model: 'm', key: 'ya29.some-token', settings: { project: undefined, auth: 'access-token' } });
    let error: unknown;
    try {
      publisherModels(bare, 'google');
    } catch (caught) {
      error = caught;
    }
    expect(isCredentialRefusal(error as GatewayError)).toBe(true);
    expect((error as GatewayError).message).toMatch(/set the `project` setting/);
  });

  it('is native to Messages for claude models, to Chat Completions for models named with a publisher, to content generation for the others', () => {
    const { channel } = call({ model: 'gemini-2.5-flash' });
    expect(vertexAdapter.nativeFor?.('messages', 'claude-sonnet-4-5@20250929', channel)).toBe(vertexMessagesAdapter);
    expect(vertexAdapter.nativeFor?.('generate', 'claude-sonnet-4-5@20250929', channel)).toBeUndefined();
    expect(vertexAdapter.nativeFor?.('generate', 'gemini-2.5-flash', channel)).toBe(vertexGenerateAdapter);
    expect(vertexAdapter.nativeFor?.('messages', 'gemini-2.5-flash', channel)).toBeUndefined();
    expect(vertexAdapter.nativeFor?.('chat-completions', 'gemini-2.5-flash', channel)).toBeUndefined();
    expect(vertexAdapter.nativeFor?.('chat-completions', 'meta/llama-4-maverick-17b-128e-instruct-maas', channel)).toBe(vertexChatAdapter);
    expect(vertexAdapter.nativeFor?.('messages', 'meta/llama-4-maverick-17b-128e-instruct-maas', channel)).toBeUndefined();
    expect(vertexAdapter.nativeFor?.('generate', 'models/gemini-2.5-flash', channel)).toBe(vertexGenerateAdapter);
  });
});

describe('vertex service-account tokens', () => {
  it('exchanges a signed assertion at the key’s token_uri once, then sends the held token', async () => {
    const before = fake.tokensIssued;
    const first = await translated('gemini-2.5-flash');
    const second = await translated('claude-sonnet-4-5@20250929');
    expect(first.stream).toBe(false);
    expect(second.stream).toBe(false);
    expect(fake.tokensIssued - before).toBe(1);
    const [a, b] = fake.requests.slice(-2);
    expect(a!.headers.authorization).toBe(b!.headers.authorization);
    expect(a!.headers.authorization).toMatch(/^Bearer ya29\.fake-/);
  });

  it('returns a held token at once (no promise) and shares one fetch between concurrent requests', async () => {
    const key = fake.serviceAccountKey();
    const before = fake.tokensIssued;
    const pending = [serviceAccountToken(key, 'c'), serviceAccountToken(key, 'c'), serviceAccountToken(key, 'c')];
    expect(pending.every((token) => token instanceof Promise)).toBe(true);
    const tokens = await Promise.all(pending);
    expect(new Set(tokens).size).toBe(1);
    expect(fake.tokensIssued - before).toBe(1);
    expect(serviceAccountToken(key, 'c')).toBe(tokens[0]);
  });

  it('refreshes a short-lived token before it expires, and the fake refuses the expired one', async () => {
    fake.tokenLifetimeSeconds = 2;
    const key = fake.serviceAccountKey();
    const first = await serviceAccountToken(key, 'c');
    expect(serviceAccountToken(key, 'c')).toBe(first);
    await sleep(2100);
    // The first token has expired: the fake refuses it, and the channel fetches a new one.
    const direct = await fetch(`${fake.origin}/v1/projects/${fake.project}/locations/${fake.location}/publishers/google/models/gemini-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { authorization: `Bearer ${first}`, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    expect(direct.status).toBe(401);
    expect(((await direct.json()) as { error: { status: string } }).error.status).toBe('UNAUTHENTICATED');
    const second = await serviceAccountToken(key, 'c');
    expect(second).not.toBe(first);
    const result = await translated('gemini-2.5-flash', false, key);
    expect(result.stream).toBe(false);
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${second}`);
  });

  it('serves a token that is still valid while its refresh runs behind it', async () => {
    fake.tokenLifetimeSeconds = 4;
    const key = fake.serviceAccountKey();
    const first = await serviceAccountToken(key, 'c');
    // Refreshed after three quarters of a short token's life, before it expires.
    await sleep(3100);
    const before = fake.tokensIssued;
    expect(serviceAccountToken(key, 'c')).toBe(first);
    expect(serviceAccountToken(key, 'c')).toBe(first);
    await sleep(300);
    expect(fake.tokensIssued - before).toBe(1);
    const next = serviceAccountToken(key, 'c');
    expect(typeof next).toBe('string');
    expect(next).not.toBe(first);
  });

  it('reads a key the token endpoint refuses as a refused credential, naming the cause but not the key', async () => {
    const key = fake.foreignServiceAccountKey();
    const refusedBefore = fake.assertionsRefused;
    const error = await translated('gemini-2.5-flash', false, key).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatewayError);
    const gatewayError = error as GatewayError;
    expect(isCredentialRefusal(gatewayError)).toBe(true);
    expect(gatewayError.retryable).toBe(true);
    expect(gatewayError.message).toContain('Invalid JWT Signature');
    expect(gatewayError.message).not.toContain('PRIVATE KEY');
    expect(fake.assertionsRefused - refusedBefore).toBe(1);
  });

  it('refuses a key that is not a service-account JSON key without quoting it', async () => {
    const error = (await translated('gemini-2.5-flash', false, 'not-json-secret-123').catch((caught: unknown) => caught)) as GatewayError;
    expect(isCredentialRefusal(error)).toBe(true);
    expect(error.message).not.toContain('not-json-secret-123');
  });

  it('sends an access token as it is with auth: access-token', async () => {
    const token = fake.issueToken(60);
    const c = call({ model: 'gemini-2.5-flash', key: token, settings: { auth: 'access-token' } });
    const prepared = vertexAdapter.prepare(request, { strict: false, settings: c.channel.settings as never, upstreamModel: 'gemini-2.5-flash' });
    await vertexAdapter.chat(prepared, request, c);
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${token}`);
  });
});

describe('vertex publishers', () => {
  it('translates for a Gemini model at generateContent and streamGenerateContent?alt=sse', async () => {
    const plain = await translated('gemini-2.5-flash');
    expect(plain.stream === false && plain.response.content).toEqual([{ type: 'text', text: 'Hello from Gemini on Vertex.' }]);
    expect(fake.requests.at(-1)).toMatchObject({ publisher: 'google', model: 'gemini-2.5-flash', verb: 'generateContent' });
    const streamed = await translated('gemini-2.5-flash', true);
    expect(streamed.stream).toBe(true);
    if (streamed.stream) for await (const _ of streamed.events);
    expect(fake.requests.at(-1)!.verb).toBe('streamGenerateContent?alt=sse');
  });

  it('translates for a Claude model at rawPredict and streamRawPredict, the model in the path and the Vertex version in the body', async () => {
    const plain = await translated('claude-sonnet-4-5@20250929');
    expect(plain.stream === false && plain.response.usage).toMatchObject({ inputTokens: expect.any(Number), outputTokens: 6 });
    const sent = fake.requests.at(-1)!;
    expect(sent.url).toBe(`/v1/projects/${fake.project}/locations/${fake.location}/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict`);
    expect(sent.body.anthropic_version).toBe('vertex-2023-10-16');
    expect(sent.body).not.toHaveProperty('model');
    const streamed = await translated('claude-sonnet-4-5@20250929', true);
    if (streamed.stream) for await (const _ of streamed.events);
    expect(fake.requests.at(-1)!.verb).toBe('streamRawPredict');
    expect(fake.requests.at(-1)!.body.stream).toBe(true);
  });

  it('passes a Messages body through to a Claude model, and counts at count-tokens:rawPredict with the model in the body', async () => {
    const rawBody = Buffer.from('{"model":"alias","max_tokens":32,"stream":true,"messages":[{"role":"user","content":"hi"}]}');
    const pass = { rawBody, body: JSON.parse(rawBody.toString('utf8')), stream: true };
    const c = call({ model: 'claude-sonnet-4-5@20250929', clientHeaders: { 'anthropic-beta': 'context-1m-2025-08-07' } });
    const result = await vertexMessagesAdapter.passThrough!(pass, c);
    expect(result.status).toBe(200);
    for await (const _ of result.body);
    expect(result.usage()).toMatchObject({ inputTokens: 12, outputTokens: 6, cacheReadTokens: 8 });
    const sent = fake.requests.at(-1)!;
    expect(sent.verb).toBe('streamRawPredict');
    expect(sent.headers['anthropic-beta']).toBe('context-1m-2025-08-07');
    expect(sent.body).toEqual({ max_tokens: 32, stream: true, messages: [{ role: 'user', content: 'hi' }], anthropic_version: 'vertex-2023-10-16' });
    const count = await vertexMessagesAdapter.countTokens!({ ...pass, stream: false }, c);
    expect(count.inputTokens).toBe(14);
    const counted = fake.requests.at(-1)!;
    expect(counted.url).toBe(`/v1/projects/${fake.project}/locations/${fake.location}/publishers/anthropic/models/count-tokens:rawPredict`);
    expect(counted.body).toMatchObject({ model: 'claude-sonnet-4-5@20250929', anthropic_version: 'vertex-2023-10-16' });
  });
});
