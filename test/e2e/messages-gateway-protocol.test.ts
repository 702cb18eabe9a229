/**
 * Claude Code's gateway protocol through a running gateway and fake
 * Anthropic upstreams: `anthropic-beta` forwarded verbatim, or filtered by a
 * channel's `betas` lists on the pass-through and translated paths (checked
 * when written); an upstream's refusal returned as it wrote it when no other
 * channel is left (a credential refusal stays the gateway's 502); `ping`
 * events while the first event is slow, with failover still possible; and
 * the Anthropic-shape model list Claude Code's gateway discovery reads.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { sseReply } from '../upstreams/support/fixtures.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const KEY = 'sk-client-gateway-protocol';
const BETAS = 'claude-code-20250219,interleaved-thinking-2025-05-14, context-management-2025-06-27,fine-grained-tool-streaming-2025-05-14';

let first: FakeUpstream;
let second: FakeUpstream;
let chat: FakeUpstream;
let gw: TestGateway;

const anthropicText = (): FakeReply => sseReply('anthropic-messages', 'anthropic-text.chunks.txt');
const refusal = (status: number, type: string, message: string, headers: Record<string, string> = {}): FakeReply => ({
  status,
  headers: { 'content-type': 'application/json', 'request-id': 'req_upstream_1', ...headers },
  body: JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_upstream_1' }),
});

beforeAll(async () => {
  first = await startFakeUpstream(anthropicText());
  second = await startFakeUpstream(anthropicText());
  chat = await startFakeUpstream(sseReply('openai-chat', 'openai-text.chunks.txt'));
  const channel = (name: string, fake: FakeUpstream, models: string[], extra: Record<string, unknown> = {}) => ({
    name,
    type: 'anthropic',
    baseUrl: fake.origin,
    apiKey: `sk-upstream-${name}-0123456789`,
    models,
    ...extra,
  });
  gw = await startGateway({
    env: { SWITCHYARD_STREAM_PING_MS: '100' },
    config: {
      channels: [
        channel('open', first, ['claude-open']),
        channel('deny', first, ['claude-deny'], { settings: { betas: { deny: ['context-management-*'] } } }),
        channel('allow', first, ['claude-allow'], { settings: { betas: { allow: ['interleaved-thinking-*', 'claude-code-20250219'], deny: ['claude-code-*'] } } }),
        channel('none-left', first, ['claude-none'], { settings: { betas: { allow: ['files-api-2025-04-14'] } } }),
        // Two channels for one model, for failover: the first is preferred.
        channel('primary', first, ['claude-pair'], { priority: 10 }),
        channel('secondary', second, ['claude-pair'], { priority: 1 }),
        // A translated path: a Messages client served by an OpenAI-compatible upstream.
        { name: 'translated', type: 'openai-chat', baseUrl: `${chat.origin}/v1`, apiKey: 'sk-upstream-chat-0123456789', models: ['claude-translated'] },
      ],
      keys: [{ name: 'cli', key: KEY }],
      simulator: false,
    },
  });
});

afterAll(async () => {
  await gw?.close();
  await first?.close();
  await second?.close();
  await chat?.close();
});

async function send(model: string, options: { stream?: boolean; betas?: string } = {}) {
  const headers: Record<string, string> = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' };
  if (options.betas !== undefined) headers['anthropic-beta'] = options.betas;
  const res = await fetch(`${gw.url}/v1/messages?beta=true`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model, max_tokens: 50, stream: options.stream ?? true, messages: [{ role: 'user', content: 'hi' }] }),
  });
  return { res, text: await res.text() };
}

describe('anthropic-beta', () => {
  it('goes to the upstream exactly as the client wrote it when the channel filters nothing', async () => {
    first.reply(anthropicText());
    const { res } = await send('claude-open', { betas: BETAS });
    expect(res.status).toBe(200);
    expect(first.requests.at(-1)!.headers['anthropic-beta']).toBe(BETAS);
  });

  it("loses the values a channel's deny list matches, the rest in the client's order", async () => {
    first.reply(anthropicText());
    await send('claude-deny', { betas: BETAS });
    expect(first.requests.at(-1)!.headers['anthropic-beta']).toBe('claude-code-20250219,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14');
  });

  it('keeps only what an allow list matches, and deny wins over allow', async () => {
    first.reply(anthropicText());
    await send('claude-allow', { betas: BETAS });
    expect(first.requests.at(-1)!.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
  });

  it('is not sent at all when the lists leave nothing', async () => {
    first.reply(anthropicText());
    const { res } = await send('claude-none', { betas: BETAS });
    expect(res.status).toBe(200);
    expect(first.requests.at(-1)!.headers['anthropic-beta']).toBeUndefined();
  });

  it('is filtered on the translated path too (a Chat Completions client with structured output)', async () => {
    first.reply({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'm',
        content: [{ type: 'text', text: '{"a":1}' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 3, output_tokens: 2 },
      }),
    });
    const body = {
      model: 'claude-none',
      messages: [{ role: 'user', content: 'hi' }],
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object', properties: { a: { type: 'number' } } } } },
    };
    const res = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status).toBe(200);
    // The translation asks for its structured-outputs beta; this channel's allow list does not name it.
    expect(first.requests.at(-1)!.headers['anthropic-beta']).toBeUndefined();
  });

  it('lists are checked when a channel is written, naming the setting', async () => {
    const bad = await gw.admin('POST', '/channels', {
      name: 'bad-betas',
      type: 'anthropic',
      baseUrl: first.origin,
      apiKey: 'sk-x-0123456789',
      models: ['m'],
      settings: { betas: { deny: 'context-management' } },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('betas.deny');
    const unknown = await gw.admin('POST', '/channels', {
      name: 'bad-betas',
      type: 'anthropic',
      baseUrl: first.origin,
      apiKey: 'sk-x-0123456789',
      models: ['m'],
      settings: { betas: { block: ['x'] } },
    });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('block');
  });
});

describe("an upstream's refusal on the pass-through path", () => {
  it('comes back as the upstream wrote it: status, body and retry headers (429 rate_limit_error)', async () => {
    first.reply(refusal(429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', { 'retry-after': '17', 'anthropic-ratelimit-tokens-remaining': '0' }));
    const { res, text } = await send('claude-open');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('17');
    expect(res.headers.get('anthropic-ratelimit-tokens-remaining')).toBe('0');
    expect(JSON.parse(text)).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' }, request_id: 'req_upstream_1' });
  });

  it('keeps "prompt is too long" word for word, and the official client reads it', async () => {
    const message = 'prompt is too long: 212345 tokens > 200000 maximum';
    first.reply(refusal(400, 'invalid_request_error', message));
    const client = new Anthropic({ baseURL: gw.url, apiKey: KEY, maxRetries: 0 });
    const error = await client.messages.create({ model: 'claude-open', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error).toMatchObject({ status: 400, error: { type: 'error', error: { type: 'invalid_request_error', message } } });
  });

  it("is the last channel's answer after failover (a 400 after a 529)", async () => {
    first.reply(refusal(529, 'overloaded_error', 'Overloaded'));
    second.reply(refusal(400, 'invalid_request_error', 'prompt is too long: 212345 tokens > 200000 maximum'));
    const before = second.requests.length;
    const { res, text } = await send('claude-pair');
    expect(second.requests.length).toBe(before + 1);
    expect(res.status).toBe(400);
    expect(JSON.parse(text)).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 212345 tokens > 200000 maximum' }, request_id: 'req_upstream_1' });
  });

  it('several overloaded channels are summed up by the gateway as one 529 overloaded_error', async () => {
    first.reply(refusal(529, 'overloaded_error', 'Overloaded'));
    second.reply(refusal(429, 'rate_limit_error', 'Too many requests', { 'retry-after': '3' }));
    const { res, text } = await send('claude-pair');
    expect(res.status).toBe(529);
    expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'overloaded_error', message: expect.stringContaining('Too many requests') } });
  });

  it('fails over before the first byte, so a healthy second channel answers', async () => {
    first.reply(refusal(529, 'overloaded_error', 'Overloaded'));
    second.reply(anthropicText());
    const { res, text } = await send('claude-pair');
    expect(res.status).toBe(200);
    expect(text).toContain('event: message_stop');
  });

  it("keeps a refused upstream credential the gateway's own 502, never the upstream's words", async () => {
    first.reply(refusal(401, 'authentication_error', 'invalid x-api-key'));
    const { res, text } = await send('claude-open');
    expect(res.status).toBe(502);
    const body = JSON.parse(text);
    expect(body.error.type).toBe('api_error');
    expect(body.error.message).toContain('upstream credentials for anthropic were refused');
    expect(text).not.toContain('invalid x-api-key');
  });

  it("never shows the channel's key, even when the upstream echoes it", async () => {
    first.reply(refusal(400, 'invalid_request_error', 'bad request for key sk-upstream-open-0123456789'));
    const { res, text } = await send('claude-open');
    expect(res.status).toBe(400);
    expect(text).not.toContain('sk-upstream-open-0123456789');
    expect(JSON.parse(text).error.message).toBe('bad request for key [redacted]');
  });

  it('a body that is not an Anthropic error is rendered by the gateway in the Messages shape', async () => {
    first.reply({ status: 400, headers: { 'content-type': 'text/html' }, body: '<html>Bad Request</html>' });
    const { res, text } = await send('claude-open');
    expect(res.status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });
});

/** The `event:` names of an SSE body, in order. */
const eventNames = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('event: '))
    .map((line) => line.slice(7));

describe('ping events while the first event is slow', () => {
  it('are sent before the answer, which then follows whole, and the official client reads through them', async () => {
    first.reply({ ...anthropicText(), headersDelayMs: 600 });
    const { res, text } = await send('claude-open');
    expect(res.status).toBe(200);
    const names = eventNames(text);
    expect(names[0]).toBe('ping');
    expect(names.slice(names.indexOf('message_start'))).toEqual(eventNames(anthropicText().chunks!.join('')));
    expect(text).toContain('data: {"type": "ping"}');

    first.reply({ ...anthropicText(), headersDelayMs: 600 });
    const client = new Anthropic({ baseURL: gw.url, apiKey: KEY, maxRetries: 0 });
    const message = await client.messages.stream({ model: 'claude-open', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    expect(message.stop_reason).toBeTruthy();
  });

  it('are sent on a translated path too', async () => {
    chat.reply({ ...sseReply('openai-chat', 'openai-text.chunks.txt'), headersDelayMs: 600 });
    const { res, text } = await send('claude-translated');
    expect(res.status).toBe(200);
    const names = eventNames(text);
    expect(names[0]).toBe('ping');
    expect(names.filter((name) => name !== 'ping')[0]).toBe('message_start');
    expect(names.at(-1)).toBe('message_stop');
  });

  it('are not sent when the first event comes before the interval (the default, 10 s)', async () => {
    const plain = await startGateway({
      config: {
        channels: [{ name: 'open', type: 'anthropic', baseUrl: first.origin, apiKey: 'sk-upstream-open-0123456789', models: ['claude-open'] }],
        keys: [{ name: 'cli', key: KEY }],
        simulator: false,
      },
    });
    try {
      first.reply(anthropicText());
      const res = await fetch(`${plain.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'claude-open', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(eventNames(await res.text())).toEqual(eventNames(anthropicText().chunks!.join('')));
    } finally {
      await plain.close();
    }
  });

  it('leave failover possible: the next channel answers after pings were sent', async () => {
    first.reply({ ...refusal(529, 'overloaded_error', 'Overloaded'), headersDelayMs: 600 });
    second.reply(anthropicText());
    const { res, text } = await send('claude-pair');
    expect(res.status).toBe(200);
    expect(eventNames(text)[0]).toBe('ping');
    expect(text).toContain('event: message_stop');
    expect(text).not.toContain('event: error');
  });

  it("end with the upstream's own error event when no channel can answer after pings", async () => {
    first.reply({ ...refusal(529, 'overloaded_error', 'Overloaded'), headersDelayMs: 600 });
    second.reply(refusal(400, 'invalid_request_error', 'prompt is too long: 212345 tokens > 200000 maximum'));
    const { res, text } = await send('claude-pair');
    expect(res.status).toBe(200);
    expect(eventNames(text)[0]).toBe('ping');
    expect(eventNames(text).at(-1)).toBe('error');
    const last = text.trim().split('\n').at(-1)!;
    expect(JSON.parse(last.slice(6))).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 212345 tokens > 200000 maximum' } });
  });

  it('are never sent on a plain (not streamed) request', async () => {
    first.reply({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'm',
        content: [{ type: 'text', text: 'ok' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 3, output_tokens: 2 },
      }),
      headersDelayMs: 400,
    });
    const { res, text } = await send('claude-open', { stream: false });
    expect(res.status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ type: 'message' });
  });
});

describe("model discovery (Claude Code's gateway model list)", () => {
  const get = (path: string, headers: Record<string, string> = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' }) => fetch(`${gw.url}${path}`, { headers });

  it('GET /v1/models answers in the Anthropic shape, paged', async () => {
    const res = await get('/v1/models?limit=2');
    expect(res.status).toBe(200);
    const page = (await res.json()) as any;
    expect(page).toMatchObject({ has_more: true, first_id: 'claude-allow', last_id: 'claude-deny' });
    expect(page.data[0]).toEqual({ id: 'claude-allow', type: 'model', display_name: 'claude-allow', created_at: expect.any(String) });
    const next = (await (await get(`/v1/models?limit=2&after_id=${page.last_id}`)).json()) as any;
    expect(next.data.map((m: { id: string }) => m.id)).toEqual(['claude-none', 'claude-open']);
    const before = (await (await get('/v1/models?limit=1&before_id=claude-deny')).json()) as any;
    expect(before).toMatchObject({ data: [{ id: 'claude-allow' }], has_more: false });
  });

  it('answers a Bearer credential too (ANTHROPIC_AUTH_TOKEN), and GET /v1/models/{id}', async () => {
    const res = await get('/v1/models/claude-pair', { authorization: `Bearer ${KEY}`, 'anthropic-version': '2023-06-01' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: 'claude-pair', type: 'model', display_name: 'claude-pair' });
    const missing = await get('/v1/models/claude-unknown');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });

  it('the official client lists every page', async () => {
    const client = new Anthropic({ baseURL: gw.url, apiKey: KEY, maxRetries: 0 });
    const ids: string[] = [];
    for await (const model of client.models.list({ limit: 2 })) ids.push(model.id);
    expect(ids).toEqual(['claude-allow', 'claude-deny', 'claude-none', 'claude-open', 'claude-pair', 'claude-translated']);
  });
});
