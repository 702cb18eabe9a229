/**
 * An upstream refusing the gateway's own credential (401 or 403) is the
 * operator's problem: every chat family, on the native (pass-through) and the
 * translated path, answers 502 in its own error shape saying the gateway's
 * upstream credentials were refused, without the upstream's words, status or
 * code; the request log keeps the upstream's status and text (its key masked),
 * and the channel is benched.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const UPSTREAM_KEY = 'sk-upstream-secret-0123456789';
const UPSTREAM_WORDS = 'invalid x-api-key';
const CLIENT_KEY = 'sk-client-credentials-01';

let upstream: FakeUpstream;
let gw: TestGateway;
let refusal = 401;

/** Each provider's own refusal, quoting the key back the way some do. */
function refusalBody(url: string): string {
  const message = `${UPSTREAM_WORDS} (${UPSTREAM_KEY})`;
  if (url.includes(':generateContent') || url.includes(':streamGenerateContent'))
    return JSON.stringify({ error: { code: refusal, message, status: refusal === 401 ? 'UNAUTHENTICATED' : 'PERMISSION_DENIED' } });
  if (url.endsWith('/messages')) return JSON.stringify({ type: 'error', error: { type: refusal === 401 ? 'authentication_error' : 'permission_error', message } });
  return JSON.stringify({ error: { message, type: 'invalid_request_error', code: 'invalid_api_key', param: null } });
}

const channel = (name: string, type: string, baseUrl: string) => ({ name, type, baseUrl, apiKey: UPSTREAM_KEY, models: [`via-${name}`] });

beforeAll(async () => {
  upstream = await startFakeUpstream((request) => ({ status: refusal, headers: { 'content-type': 'application/json' }, body: refusalBody(request.url) }));
  gw = await startGateway({
    config: {
      channels: [
        channel('anthropic', 'anthropic', upstream.origin),
        channel('gemini', 'gemini', upstream.origin),
        channel('responses', 'openai-responses', `${upstream.origin}/v1`),
        channel('chat', 'openai-chat', `${upstream.origin}/v1`),
      ],
      keys: [{ name: 'client', key: CLIENT_KEY }],
    },
  });
});
afterEach(() => gw.gateway.ctx.health.reset());
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});

interface Family {
  name: string;
  native: string;
  translated: string;
  request(model: string, stream: boolean): { path: string; headers: Record<string, string>; body: unknown };
  /** The error's message and type in the family's shape. */
  read(body: any): { message: string; type: string };
  type: string;
}

const families: Family[] = [
  {
    name: 'Messages',
    native: 'anthropic',
    translated: 'chat',
    request: (model, stream) => ({
      path: '/v1/messages',
      headers: { 'x-api-key': CLIENT_KEY, 'anthropic-version': '2023-06-01' },
      body: { model, max_tokens: 50, stream, messages: [{ role: 'user', content: 'hi' }] },
    }),
    read: (body) => ({ message: body.error.message, type: body.error.type }),
    type: 'api_error',
  },
  {
    name: 'generateContent',
    native: 'gemini',
    translated: 'anthropic',
    request: (model, stream) => ({
      path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
      headers: { 'x-goog-api-key': CLIENT_KEY },
      body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    }),
    read: (body) => ({ message: body.error.message, type: body.error.status }),
    // The dialect's table has no 502 row: a failed upstream is INTERNAL there.
    type: 'INTERNAL',
  },
  {
    name: 'Responses',
    native: 'responses',
    translated: 'gemini',
    request: (model, stream) => ({
      path: '/v1/responses',
      headers: { authorization: `Bearer ${CLIENT_KEY}` },
      body: { model, input: 'hi', stream },
    }),
    read: (body) => ({ message: body.error.message, type: body.error.type }),
    type: 'server_error',
  },
  {
    name: 'Chat Completions',
    native: 'chat',
    translated: 'responses',
    request: (model, stream) => ({
      path: '/v1/chat/completions',
      headers: { authorization: `Bearer ${CLIENT_KEY}` },
      body: { model, stream, messages: [{ role: 'user', content: 'hi' }] },
    }),
    read: (body) => ({ message: body.error.message, type: body.error.type }),
    type: 'server_error',
  },
];

const cases = families.flatMap((family) => [401, 403].flatMap((status) => (['native', 'translated'] as const).flatMap((path) => [false, true].map((stream) => ({ family, status, path, stream })))));

describe('an upstream refusing the gateway’s credentials', () => {
  it.each(cases.map((c) => [c.family.name, c.status, c.path, c.stream ? 'streamed' : 'plain', c] as const))(
    '%s, upstream %i, %s path, %s: 502 in the family’s shape, naming the gateway’s credentials',
    async (_name, _status, _path, _mode, { family, status, path, stream }) => {
      refusal = status;
      const provider = family[path];
      const model = `via-${provider}`;
      const request = family.request(model, stream);
      const response = await fetch(`${gw.url}${request.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...request.headers },
        body: JSON.stringify(request.body),
      });
      const text = await response.text();
      expect(response.status).toBe(family.name === 'generateContent' ? 500 : 502);
      expect(text).not.toContain(UPSTREAM_WORDS);
      expect(text).not.toContain(UPSTREAM_KEY);
      expect(text).not.toContain('invalid_api_key');
      expect(text).not.toMatch(/authentication_error|permission_error|UNAUTHENTICATED|PERMISSION_DENIED/);
      const error = family.read(JSON.parse(text));
      expect(error.type).toBe(family.type);
      expect(error.message).toMatch(/gateway's upstream credentials for .+ were refused/);

      // The operator's view: the upstream's status and words, never its key.
      const log = (await gw.admin('GET', '/logs?limit=1')).body.data[0];
      const detail = (await gw.admin('GET', `/logs/${log.id}`)).body;
      expect(detail.attempts[0]).toMatchObject({ status, channel: provider });
      expect(detail.attempts[0].message).toContain(UPSTREAM_WORDS);
      expect(JSON.stringify(detail)).not.toContain(UPSTREAM_KEY);
      // Benched as before: the channel's breaker is open for the cool-down.
      expect(gw.gateway.ctx.health.isHealthy(gw.gateway.ctx.channels.serving(model)[0]!)).toBe(false);
    },
  );
});
