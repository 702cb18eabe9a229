/** Upstream failures seen through the anthropic adapter: statuses, retry-after, cut streams, timeouts. */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat.js';
import { GatewayError } from '../../../src/core/errors.js';
import { anthropicAdapter } from '../../../src/upstreams/anthropic/index.js';
import { TEST_API_KEY, testCall, sendChat } from '../support/call.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { sseFrames, sseReply } from '../support/fixtures.js';
import { collect } from '../support/fold-events.js';

const DIALECT = 'anthropic-messages';
let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());

const request = (stream: boolean): ChatRequest => ({
  model: 'claude-test',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  stream,
});

const anthropicError = (type: string, message: string) => JSON.stringify({ type: 'error', error: { type, message } });

async function chatError(stream = false, options: Partial<Parameters<typeof testCall>[0]> = {}): Promise<GatewayError> {
  try {
    const result = await sendChat(anthropicAdapter, request(stream), testCall({ baseUrl: upstream.origin, ...options }));
    if (result.stream) await collect(result.events);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('expected the call to fail');
}

describe('anthropic upstream errors', () => {
  it('429 → rate_limited, retryable, with the upstream message and retry-after', async () => {
    upstream.reply({ status: 429, headers: { 'retry-after': '7' }, body: anthropicError('rate_limit_error', 'Too many tokens per minute') });
    const error = await chatError();
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429, retryable: true, upstreamStatus: 429, retryAfterSeconds: 7 });
    expect(error.message).toBe('Too many tokens per minute');
  });

  it('retry-after as an HTTP date and retry-after-ms are honoured', async () => {
    upstream.reply({ status: 429, headers: { 'retry-after': new Date(Date.now() + 30_000).toUTCString() }, body: '{}' });
    const byDate = await chatError();
    expect(byDate.retryAfterSeconds).toBeGreaterThanOrEqual(28);
    expect(byDate.retryAfterSeconds).toBeLessThanOrEqual(31);
    upstream.reply({ status: 429, headers: { 'retry-after-ms': '1500', 'retry-after': '9' }, body: '{}' });
    expect((await chatError()).retryAfterSeconds).toBe(2);
  });

  it('529 → overloaded, retryable', async () => {
    upstream.reply({ status: 529, body: anthropicError('overloaded_error', 'Overloaded') });
    expect(await chatError(true)).toMatchObject({ kind: 'overloaded', status: 529, retryable: true, message: 'Overloaded' });
  });

  it('400 → invalid_request, not retryable, upstream message kept', async () => {
    upstream.reply({ status: 400, body: anthropicError('invalid_request_error', 'max_tokens: Field required') });
    expect(await chatError()).toMatchObject({ kind: 'invalid_request', status: 400, retryable: false, message: 'max_tokens: Field required' });
  });

  it('401 → gateway-side upstream_error, and an echoed key is masked', async () => {
    upstream.reply({ status: 401, body: anthropicError('authentication_error', `invalid x-api-key ${TEST_API_KEY}`) });
    const error = await chatError();
    expect(error).toMatchObject({ kind: 'upstream_error', status: 502, retryable: true, upstreamStatus: 401 });
    expect(error.message).toBe('invalid x-api-key [redacted]');
  });

  it('500 with a plain-text body keeps the text; an empty body names the status', async () => {
    upstream.reply({ status: 500, headers: { 'content-type': 'text/plain' }, body: 'upstream exploded' });
    expect(await chatError()).toMatchObject({ kind: 'upstream_error', status: 502, retryable: true, message: 'upstream exploded' });
    upstream.reply({ status: 503, body: '' });
    expect(await chatError()).toMatchObject({ kind: 'unavailable', message: 'upstream answered HTTP 503' });
  });

  it('a stream cut half way makes the event iterator throw a GatewayError', async () => {
    upstream.reply(sseReply(DIALECT, 'anthropic-text.chunks.txt', { cutAfterChunks: 5 }));
    const result = await sendChat(anthropicAdapter, request(true), testCall({ baseUrl: upstream.origin }));
    if (!result.stream) throw new Error('expected a stream');
    const seen: string[] = [];
    const failure = await (async () => {
      try {
        for await (const event of result.events) seen.push(event.type);
      } catch (error) {
        return error;
      }
    })();
    expect(seen).toContain('text_delta');
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure).toMatchObject({ kind: 'upstream_error', retryable: true });
  });

  it('a pass-through stream cut half way throws from the byte iterator', async () => {
    upstream.reply(sseReply(DIALECT, 'anthropic-text.chunks.txt', { cutAfterChunks: 4 }));
    const raw = Buffer.from('{"model":"m","max_tokens":5,"stream":true,"messages":[]}');
    const result = await anthropicAdapter.passThrough!({ rawBody: raw, body: JSON.parse(raw.toString()), stream: true }, testCall({ baseUrl: upstream.origin, upstreamModel: 'm' }));
    let received = '';
    await expect(
      (async () => {
        for await (const piece of result.body) received += Buffer.from(piece).toString('utf8');
      })(),
    ).rejects.toBeInstanceOf(GatewayError);
    expect(received).toBe(sseFrames(DIALECT, 'anthropic-text.chunks.txt').slice(0, 4).join(''));
  });

  it('a stream that ends cleanly without message_stop is an error', async () => {
    const frames = sseFrames(DIALECT, 'anthropic-text.chunks.txt');
    upstream.reply({ chunks: frames.slice(0, -1) });
    expect(await chatError(true)).toMatchObject({ kind: 'upstream_error', message: 'upstream stream ended before message_stop' });
  });

  it('an error event inside the stream is thrown with its kind', async () => {
    const frames = sseFrames(DIALECT, 'anthropic-text.chunks.txt').slice(0, 3);
    frames.push(`event: error\ndata: ${anthropicError('overloaded_error', 'Overloaded mid-stream')}\n\n`);
    upstream.reply({ chunks: frames });
    expect(await chatError(true)).toMatchObject({ kind: 'overloaded', message: 'Overloaded mid-stream' });
  });

  it('headers later than timeoutMs → timeout, retryable', async () => {
    // undici checks header timeouts on a coarse clock (about 0.5-1 s), so the delay is generous.
    upstream.reply({ headersDelayMs: 4_000, body: '{}' });
    const started = Date.now();
    const error = await chatError(false, { timeoutMs: 100 });
    expect(error).toMatchObject({ kind: 'timeout', status: 504, retryable: true });
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('a refused connection → unavailable, retryable, and the message names no URL', async () => {
    const port = await closedPort();
    const error = await chatError(false, { baseUrl: `http://user:secret@127.0.0.1:${port}` });
    expect(error).toMatchObject({ kind: 'unavailable', status: 503, retryable: true });
    expect(error.message).not.toContain('secret');
    expect(error.message).not.toContain(String(port));
  });

  it('an aborted call rejects with a GatewayError', async () => {
    upstream.reply({ headersDelayMs: 300, body: '{}' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect(await chatError(false, { signal: controller.signal })).toMatchObject({ kind: 'unavailable', retryable: true });
  });

  it('a success body that is not JSON is an upstream_error', async () => {
    upstream.reply({ body: 'not json' });
    expect(await chatError()).toMatchObject({ kind: 'upstream_error', status: 502 });
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
