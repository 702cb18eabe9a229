/** The shared upstream HTTP plumbing (src/upstreams/http.ts). */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readErrorBody, throwForStatus } from '../../../src/upstreams/error-answer.js';
import { retryAfterFromHeaders } from '../../../src/upstreams/headers.js';
import { joinUrl, requestOk, toUpstreamError } from '../../../src/upstreams/http.js';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.js';

const bodyOf = (text: string) => Readable.from([Buffer.from(text)]);

describe('joinUrl', () => {
  it('tolerates a trailing slash on the base and a missing slash on the path', () => {
    expect(joinUrl('https://api.example.com/v1', '/chat/completions')).toBe('https://api.example.com/v1/chat/completions');
    expect(joinUrl('https://api.example.com/v1/', '/chat/completions')).toBe('https://api.example.com/v1/chat/completions');
    expect(joinUrl('https://api.example.com', 'v1/messages')).toBe('https://api.example.com/v1/messages');
  });
});

describe('readErrorBody', () => {
  it('reads the common error shapes', async () => {
    expect(await readErrorBody(bodyOf('{"type":"error","error":{"type":"x","message":"nested"}}'))).toEqual({ message: 'nested' });
    expect((await readErrorBody(bodyOf('{"error":"flat"}'))).message).toBe('flat');
    expect((await readErrorBody(bodyOf('{"message":"top"}'))).message).toBe('top');
    expect((await readErrorBody(bodyOf('[{"error":{"code":400,"message":"in an array"}}]'))).message).toBe('in an array');
    expect((await readErrorBody(bodyOf('  plain text  '))).message).toBe('plain text');
    expect((await readErrorBody(bodyOf(''))).message).toBe('');
  });

  it('reads a Gemini RetryInfo delay', async () => {
    const body = JSON.stringify({
      error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.4s' }] },
    });
    expect(await readErrorBody(bodyOf(body))).toEqual({ message: 'quota', retryAfterSeconds: 35 });
  });

  it('keeps at most 64 KiB of a huge body', async () => {
    const huge = Readable.from(
      (function* () {
        for (let i = 0; i < 100; i++) yield Buffer.alloc(16 * 1024, 0x61);
      })(),
    );
    const { message } = await readErrorBody(huge);
    expect(message.length).toBeLessThanOrEqual(501);
  });
});

describe('retryAfterFromHeaders', () => {
  it('reads seconds, HTTP dates and retry-after-ms', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterFromHeaders({ 'retry-after': '12' }, now)).toBe(12);
    expect(retryAfterFromHeaders({ 'retry-after': 'Thu, 01 Jan 2026 00:00:20 GMT' }, now)).toBe(20);
    expect(retryAfterFromHeaders({ 'retry-after-ms': '250' }, now)).toBe(1);
    expect(retryAfterFromHeaders({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(retryAfterFromHeaders({}, now)).toBeUndefined();
  });
});

describe('throwForStatus', () => {
  it('prefers the header retry-after over the body and masks secrets', async () => {
    const body = bodyOf('{"error":{"message":"key sk-live-abcdefgh1234 over quota","details":[{"retryDelay":"5s"}]}}');
    await expect(throwForStatus(429, { 'retry-after': '9' }, body, ['sk-live-abcdefgh1234'])).rejects.toMatchObject({
      kind: 'rate_limited',
      retryAfterSeconds: 9,
      message: 'key [redacted] over quota',
    });
  });
});

describe('toUpstreamError', () => {
  it('maps undici codes and aborts', () => {
    const coded = (code: string) => Object.assign(new Error(code), { code });
    expect(toUpstreamError(coded('UND_ERR_HEADERS_TIMEOUT'))).toMatchObject({ kind: 'timeout', retryable: true });
    expect(toUpstreamError(coded('UND_ERR_BODY_TIMEOUT'))).toMatchObject({ kind: 'timeout' });
    expect(toUpstreamError(coded('ECONNREFUSED'))).toMatchObject({ kind: 'unavailable', message: 'upstream connection failed (ECONNREFUSED)' });
    expect(toUpstreamError(coded('UND_ERR_CONNECT_TIMEOUT'))).toMatchObject({ kind: 'unavailable' });
    expect(toUpstreamError(coded('UND_ERR_SOCKET'))).toMatchObject({ kind: 'upstream_error', retryable: true });
    const timedOut = new AbortController();
    timedOut.abort(new DOMException('deadline', 'TimeoutError'));
    expect(toUpstreamError(new Error('aborted'), timedOut.signal)).toMatchObject({ kind: 'timeout' });
  });
});

describe('requestOk', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterAll(() => upstream.close());

  it('reuses the keep-alive connection for consecutive requests', async () => {
    upstream.reply({ body: '{"ok":true}' });
    const before = upstream.connections;
    for (let i = 0; i < 6; i++) {
      const res = await requestOk({ url: `${upstream.origin}/x`, headers: {}, body: '{}', signal: new AbortController().signal, timeoutMs: 2000, secrets: [] });
      expect(res.status).toBe(200);
      await res.body.text();
    }
    // undici may open a second connection while the first is still being marked idle; never one per request.
    expect(upstream.connections - before).toBeLessThanOrEqual(2);
  });

  it('a body that goes silent longer than the body timeout fails with a timeout', async () => {
    upstream.reply({ chunks: ['data: 1\n\n', 'data: 2\n\n'], chunkDelayMs: 4_000 });
    const res = await requestOk({
      url: `${upstream.origin}/x`,
      headers: {},
      signal: new AbortController().signal,
      timeoutMs: 2000,
      bodyTimeoutMs: 100,
      secrets: [],
    });
    const read = (async () => {
      try {
        for await (const _ of res.body);
      } catch (error) {
        throw toUpstreamError(error);
      }
    })();
    await expect(read).rejects.toMatchObject({ kind: 'timeout', message: 'upstream went silent while sending its answer' });
  });
});
