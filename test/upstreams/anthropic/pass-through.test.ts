/** The same-dialect path: bytes in equal bytes out, usage read on the side, model mapping rewrites only the model. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicAdapter } from '../../../src/upstreams/anthropic/index.js';
import type { PassThroughRequest, PassThroughResult } from '../../../src/upstreams/types.js';
import { TEST_API_KEY, testCall } from '../support/call.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { fixtureText, jsonReply, sseFrames, sseReply } from '../support/fixtures.js';

const DIALECT = 'anthropic-messages';
let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());

/** Odd spacing and key order on purpose: an untouched body keeps them. */
const clientBytes = (model: string, stream: boolean) => Buffer.from(`{"model":"${model}",  "max_tokens":64,"stream":${stream},\n "messages":[{"role":"user","content":"hi"}],"system":"be brief"}`);

function passRequest(model: string, stream: boolean): PassThroughRequest {
  const rawBody = clientBytes(model, stream);
  return { rawBody, body: JSON.parse(rawBody.toString('utf8')), stream };
}

async function drain(result: PassThroughResult): Promise<Buffer> {
  const pieces: Uint8Array[] = [];
  for await (const piece of result.body) pieces.push(piece);
  return Buffer.concat(pieces);
}

function passThrough(request: PassThroughRequest, options: Parameters<typeof testCall>[0]) {
  if (!anthropicAdapter.passThrough) throw new Error('anthropic adapter has no pass-through');
  return anthropicAdapter.passThrough(request, testCall(options));
}

describe('anthropic pass-through', () => {
  it('streams: upstream bytes come back unchanged and usage is tapped from message_start/message_delta', async () => {
    const file = 'anthropic-code-execution-20260120-prompt-cache.1.chunks.txt';
    upstream.reply(sseReply(DIALECT, file));
    const request = passRequest('claude-sonnet-5', true);
    const result = await passThrough(request, { baseUrl: upstream.origin, upstreamModel: 'claude-sonnet-5' });
    expect(result.status).toBe(200);
    expect(result.contentType).toBe('text/event-stream');
    expect(result.usage()).toBeUndefined();
    const out = await drain(result);
    expect(out.equals(Buffer.from(sseFrames(DIALECT, file).join('')))).toBe(true);
    expect(result.usage()).toEqual({
      inputTokens: 6,
      outputTokens: 198,
      cacheReadTokens: 6289,
      cacheWriteTokens: 3337,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
    expect(result.responseId?.()).toBe('msg_011CdYfpjpVtBoXyXCQD1tQP');
    // The request went up byte for byte.
    expect(upstream.requests.at(-1)!.body.equals(request.rawBody)).toBe(true);
  });

  it('streams cut into odd pieces with CRLF endings still tap usage and keep bytes', async () => {
    const file = 'anthropic-text.chunks.txt';
    upstream.reply(sseReply(DIALECT, file, { lineEnding: '\r\n', pieceBytes: 5 }));
    const result = await passThrough(passRequest('m', true), { baseUrl: upstream.origin, upstreamModel: 'm' });
    const out = await drain(result);
    expect(out.toString('utf8')).toBe(sseFrames(DIALECT, file, '\r\n').join(''));
    expect(result.usage()).toEqual({ inputTokens: 12, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 0 });
  });

  it('plain answers: bytes unchanged, usage and id read once at the end', async () => {
    const file = 'anthropic-claude-opus-5-reasoning-high.1.json';
    upstream.reply(jsonReply(DIALECT, file));
    const result = await passThrough(passRequest('claude-opus-5', false), { baseUrl: upstream.origin, upstreamModel: 'claude-opus-5' });
    expect(result.contentType).toBe('application/json');
    const out = await drain(result);
    expect(out.toString('utf8')).toBe(fixtureText(DIALECT, file));
    expect(result.usage()).toEqual({
      inputTokens: 51,
      outputTokens: 1699,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 139,
    });
    expect(result.responseId?.()).toBe('msg_011CdMNhurHSJCxCC2NB7WYc');
  });

  it('model mapping rewrites only the top-level model', async () => {
    upstream.reply(jsonReply(DIALECT, 'anthropic-text.json'));
    const request = passRequest('my-alias', false);
    const result = await passThrough(request, { baseUrl: upstream.origin, upstreamModel: 'claude-sonnet-4-5' });
    await drain(result);
    const sent = upstream.requests.at(-1)!;
    expect(sent.json()).toEqual({ ...request.body, model: 'claude-sonnet-4-5' });
    expect(Object.keys(sent.json())).toEqual(Object.keys(request.body));
  });

  it('sends the channel key, forwards anthropic-version and the beta list', async () => {
    upstream.reply(jsonReply(DIALECT, 'anthropic-text.json'));
    const result = await passThrough(passRequest('m', false), {
      baseUrl: `${upstream.origin}/`,
      upstreamModel: 'm',
      clientHeaders: { 'anthropic-version': '2026-10-21', 'anthropic-beta': ['a-2025-01-01', 'b-2025-02-02'], 'x-api-key': 'client-key' },
    });
    await drain(result);
    const sent = upstream.requests.at(-1)!;
    expect(sent.url).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe(TEST_API_KEY);
    expect(sent.headers['anthropic-version']).toBe('2026-10-21');
    expect(sent.headers['anthropic-beta']).toBe('a-2025-01-01,b-2025-02-02');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers.authorization).toBeUndefined();
  });

  it('forwards every anthropic-* header unchanged and nothing else of the client', async () => {
    upstream.reply(jsonReply(DIALECT, 'anthropic-text.json'));
    const beta = 'claude-code-20250219,interleaved-thinking-2025-05-14, context-management-2025-06-27';
    const clientHeaders = {
      'anthropic-version': 'latest',
      'anthropic-beta': beta,
      'anthropic-workspace-id': 'wrkspc_1',
      'x-claude-code-session-id': 'session-1',
      'x-app': 'cli',
      authorization: 'Bearer client-token',
    };
    await drain(await passThrough(passRequest('m', false), { baseUrl: upstream.origin, upstreamModel: 'm', clientHeaders }));
    const headers = upstream.requests.at(-1)!.headers;
    expect(headers['anthropic-version']).toBe('latest');
    expect(headers['anthropic-beta']).toBe(beta);
    expect(headers['anthropic-workspace-id']).toBe('wrkspc_1');
    expect(headers['x-claude-code-session-id']).toBeUndefined();
    expect(headers['x-app']).toBeUndefined();
    expect(headers.authorization).toBeUndefined();
    expect(headers['x-api-key']).toBe(TEST_API_KEY);
  });

  it('sends anthropic-version 2023-06-01 when the client sent none', async () => {
    upstream.reply(jsonReply(DIALECT, 'anthropic-text.json'));
    await drain(await passThrough(passRequest('m', false), { baseUrl: upstream.origin, upstreamModel: 'm', clientHeaders: {} }));
    expect(upstream.requests.at(-1)!.headers['anthropic-version']).toBe('2023-06-01');
    expect(upstream.requests.at(-1)!.headers['anthropic-beta']).toBeUndefined();
  });

  it('turns a non-2xx answer into a thrown GatewayError before returning', async () => {
    upstream.reply({
      status: 529,
      body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    });
    await expect(passThrough(passRequest('m', true), { baseUrl: upstream.origin, upstreamModel: 'm' })).rejects.toMatchObject({
      name: 'GatewayError',
      kind: 'overloaded',
      status: 529,
      retryable: true,
      message: 'Overloaded',
    });
  });
});
