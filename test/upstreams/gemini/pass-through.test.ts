/** The same-dialect path: bytes in equal bytes out, the model only in the URL, usage read on the side. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geminiAdapter } from '../../../src/upstreams/gemini/index.js';
import type { PassThroughRequest, PassThroughResult } from '../../../src/upstreams/types.js';
import { TEST_API_KEY, testCall } from '../support/call.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { fixtureChunks, fixtureText, jsonReply, sseFrames, sseReply } from '../support/fixtures.js';

const DIALECT = 'gemini';
let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());

/** Odd spacing and snake_case on purpose: an untouched body keeps them. */
const rawBody = Buffer.from('{"contents":[{"role":"user","parts":[{"text":"hi"}]}],  "generation_config":{"temperature":0.5}}');

function passRequest(method: string): PassThroughRequest {
  return { rawBody, body: JSON.parse(rawBody.toString('utf8')), stream: method !== 'generateContent', method };
}

async function drain(result: PassThroughResult): Promise<Buffer> {
  const pieces: Uint8Array[] = [];
  for await (const piece of result.body) pieces.push(piece);
  return Buffer.concat(pieces);
}

function passThrough(method: string, options: { upstreamModel?: string; baseUrl?: string } = {}) {
  return geminiAdapter.passThrough!(passRequest(method), testCall({ baseUrl: options.baseUrl ?? upstream.origin, upstreamModel: options.upstreamModel ?? 'gemini-3-pro-preview', type: 'gemini' }));
}

describe('gemini pass-through', () => {
  it('plain answers: the body goes up and comes back byte for byte; usage and id are read at the end', async () => {
    upstream.reply(jsonReply(DIALECT, 'google-text.json'));
    const result = await passThrough('generateContent', { upstreamModel: 'mapped-model' });
    expect(result.status).toBe(200);
    expect(result.contentType).toBe('application/json');
    expect((await drain(result)).toString('utf8')).toBe(fixtureText(DIALECT, 'google-text.json'));
    expect(result.usage()).toEqual({ inputTokens: 9, outputTokens: 272, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 244 });
    expect(result.responseId?.()).toBe('Un6LacrVMcjUxs0PmJfWoQc');
    const seen = upstream.requests.at(-1)!;
    expect(seen.url).toBe('/v1beta/models/mapped-model:generateContent');
    expect(seen.headers['x-goog-api-key']).toBe(TEST_API_KEY);
    expect(seen.body.equals(rawBody)).toBe(true);
  });

  it('SSE streams: bytes unchanged (split anywhere), usage from the last chunk', async () => {
    const file = 'google-stream-no-args-tool-call.chunks.txt';
    upstream.reply(sseReply(DIALECT, file, { lineEnding: '\r\n', pieceBytes: 13 }));
    const result = await passThrough('streamGenerateContent?alt=sse');
    expect(result.contentType).toBe('text/event-stream');
    const out = await drain(result);
    expect(out.toString('utf8')).toBe(sseFrames(DIALECT, file, '\r\n').join(''));
    expect(result.usage()).toEqual({ inputTokens: 249, outputTokens: 241, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 183 });
    expect(result.responseId?.()).toBe('_vr4aYiWEJnYodAPkujX0QM');
    expect(upstream.requests.at(-1)!.url).toBe('/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse');
  });

  it('the JSON-array stream form passes through too, its usage read from the last element', async () => {
    const array = `[${fixtureChunks(DIALECT, 'google-text.chunks.txt').join(',\r\n')}]`;
    upstream.reply({ status: 200, headers: { 'content-type': 'application/json; charset=UTF-8' }, chunks: [array.slice(0, 100), array.slice(100)] });
    const result = await passThrough('streamGenerateContent');
    expect((await drain(result)).toString('utf8')).toBe(array);
    expect(result.usage()).toMatchObject({ inputTokens: 9, outputTokens: 208 });
    expect(upstream.requests.at(-1)!.url).toBe('/v1beta/models/gemini-3-pro-preview:streamGenerateContent');
  });

  it('uses the channel apiVersion setting and strips a models/ prefix', async () => {
    upstream.reply(jsonReply(DIALECT, 'google-text.json'));
    await geminiAdapter.passThrough!(passRequest('generateContent'), testCall({ baseUrl: upstream.origin, upstreamModel: 'models/gemini-x', type: 'gemini', settings: { apiVersion: 'v1' } }));
    expect(upstream.requests.at(-1)!.url).toBe('/v1/models/gemini-x:generateContent');
  });

  it('fails before any byte on an upstream error, keeping the status word and the retry delay', async () => {
    upstream.reply(jsonReply(DIALECT, 'google-429-retry-info.json', 429));
    const failure = await passThrough('generateContent').catch((error) => error);
    expect(failure).toMatchObject({ kind: 'rate_limited', retryable: true, retryAfterSeconds: 35, detail: { dialect: 'generate', code: 'RESOURCE_EXHAUSTED' } });
  });

  it('a stream cut half way fails the body iteration after the bytes that arrived', async () => {
    upstream.reply(sseReply(DIALECT, 'google-text.chunks.txt', { cutAfterChunks: 1 }));
    const result = await passThrough('streamGenerateContent?alt=sse');
    const pieces: Uint8Array[] = [];
    const failure = await (async () => {
      for await (const piece of result.body) pieces.push(piece);
    })().catch((error) => error);
    expect(failure).toMatchObject({ kind: 'upstream_error' });
    expect(Buffer.concat(pieces).toString('utf8')).toBe(sseFrames(DIALECT, 'google-text.chunks.txt')[0]);
  });

  it('a JSON-array stream cut short fails once its bytes went out, so the family can close the array with an error', async () => {
    const array = `[${fixtureChunks(DIALECT, 'google-text.chunks.txt').join(',\r\n')}]`;
    upstream.reply({ status: 200, headers: { 'content-type': 'application/json' }, chunks: [array.slice(0, 100), array.slice(100, 200)] });
    const result = await passThrough('streamGenerateContent');
    const pieces: Uint8Array[] = [];
    const failure = await (async () => {
      for await (const piece of result.body) pieces.push(piece);
    })().catch((error) => error);
    expect(failure).toMatchObject({ kind: 'upstream_error', retryable: true });
    expect(failure.message).toContain('not valid JSON');
    expect(Buffer.concat(pieces).toString('utf8')).toBe(array.slice(0, 200));
  });

  it('a plain answer that is cut short, or JSON of the wrong shape, fails before any byte', async () => {
    const text = fixtureText(DIALECT, 'google-text.json');
    upstream.reply({ status: 200, headers: { 'content-type': 'application/json' }, body: text.slice(0, 50) });
    await expect(passThrough('generateContent')).rejects.toMatchObject({ kind: 'upstream_error', retryable: true });
    upstream.reply({ status: 200, headers: { 'content-type': 'application/json' }, body: '[1, 2]' });
    await expect(passThrough('generateContent')).rejects.toThrow('not an object');
  });
});
