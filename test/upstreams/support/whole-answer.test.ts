/**
 * A plain answer gathered by a dispatch handler (src/upstreams/whole-answer.ts)
 * keeps the contract `requestOk` followed by a bounded read had: the bytes and headers of a
 * success, the error a non-2xx answer describes, the body bound, cut bodies,
 * the caller's abort, and the connection kept alive for the next exchange.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallAbort } from '../../../src/core/call-signal.js';
import { requestWholeOk } from '../../../src/upstreams/whole-answer.js';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.js';
import { rejection } from './rejection.js';

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());

function exchange(signal = new CallAbort().signal) {
  return { url: `${upstream.origin}/v1/answer`, headers: { 'content-type': 'application/json' }, body: '{}', signal, timeoutMs: 5_000, secrets: ['sk-secret-upstream'] };
}

describe('requestWholeOk', () => {
  it('answers the bytes, status and headers of a success, as request() names them', async () => {
    upstream.reply({ status: 200, headers: { 'content-type': 'application/json', 'x-Mixed-Case': 'v' }, chunks: ['{"a":', '1}'] });
    const answer = await requestWholeOk(exchange(), 1_000);
    expect(answer.status).toBe(200);
    expect(answer.bytes.toString('utf8')).toBe('{"a":1}');
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['x-mixed-case']).toBe('v');
  });

  it('keeps the connection for the next exchange', async () => {
    upstream.reply({ status: 200, body: '{}' });
    const before = upstream.connections;
    for (let i = 0; i < 5; i++) await requestWholeOk(exchange(), 1_000);
    expect(upstream.connections - before).toBeLessThanOrEqual(1);
  });

  it('throws the error a non-2xx answer describes, with its credentials masked', async () => {
    upstream.reply({ status: 429, headers: { 'retry-after': '7' }, body: '{"error":{"message":"slow down, sk-secret-upstream"}}' });
    const error = await rejection(requestWholeOk(exchange(), 1_000));
    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfterSeconds).toBe(7);
    expect(error.message).toContain('slow down');
    expect(error.message).not.toContain('sk-secret-upstream');
  });

  it('reads a non-2xx answer over the bound as far as the bound, and still throws its error', async () => {
    upstream.reply({ status: 500, chunks: ['{"error":{"message":"broken"}}', 'x'.repeat(5_000)] });
    const error = await rejection(requestWholeOk(exchange(), 1_000));
    expect(error.message).toContain('broken');
    expect(error.retryable).toBe(true);
  });

  it('refuses a success over the bound with a retryable error', async () => {
    upstream.reply({ status: 200, chunks: ['x'.repeat(600), 'y'.repeat(600)] });
    const error = await rejection(requestWholeOk(exchange(), 1_000));
    expect(error.message).toMatch(/larger than|too large|exceed/i);
    expect(error.retryable).toBe(true);
  });

  it('turns a body cut short into a retryable upstream error', async () => {
    upstream.reply({ status: 200, headers: { 'content-length': '100' }, chunks: ['{"partial":'], cutAfterChunks: 1 });
    const error = await rejection(requestWholeOk(exchange(), 1_000));
    expect(error.retryable).toBe(true);
  });

  it('fails with a timeout when the headers or the body keep silent too long', async () => {
    upstream.reply({ status: 200, body: '{}', headersDelayMs: 5_000 });
    expect((await rejection(requestWholeOk({ ...exchange(), timeoutMs: 100 }, 1_000))).kind).toBe('timeout');
    upstream.reply({ status: 200, chunks: ['{"a":', '1}'], chunkDelayMs: 5_000 });
    expect((await rejection(requestWholeOk({ ...exchange(), bodyTimeoutMs: 100 }, 1_000))).message).toBe('upstream went silent while sending its answer');
  });

  it('stops when the caller aborts, before or during the exchange', async () => {
    const early = new CallAbort();
    early.abort();
    upstream.reply({ status: 200, body: '{}' });
    expect((await rejection(requestWholeOk(exchange(early.signal), 1_000))).message).toContain('aborted');

    const late = new CallAbort();
    upstream.reply({ status: 200, body: '{}', headersDelayMs: 2_000 });
    const pending = requestWholeOk(exchange(late.signal), 1_000);
    setTimeout(() => late.abort(), 50);
    expect((await rejection(pending)).message).toContain('aborted');
  });
});
