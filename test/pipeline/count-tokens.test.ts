/**
 * The token-counting path, pinned without a server through the same services
 * and output as the chat pipeline: a count is never charged (no quota hold,
 * no settlement of usage, one count row); a native channel's answer goes back
 * as it is; anywhere else, or when the native channel has no counting
 * endpoint, the gateway counts and says so; failover before any byte; a
 * refusal calls no upstream.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError, upstreamStatusError } from '../../src/core/errors.js';
import { ESTIMATED_HEADER, serveCountTokens, type CountCall, type CountCodec } from '../../src/pipeline/count-tokens.js';
import type { ClientKey } from '../../src/http/auth.js';
import type { CountTokensResult, UpstreamAdapter } from '../../src/upstreams/types.js';
import { channel, recordingOutput, services } from './fakes.js';

interface CountScript {
  type: string;
  calls: number;
  /** Absent: an upstream of another dialect (the gateway counts). */
  count?: () => Promise<CountTokensResult>;
}

const script = (type: string, count?: CountScript['count']): CountScript => ({ type, calls: 0, count });

function counter(s: CountScript): UpstreamAdapter {
  return {
    type: s.type,
    nativeDialect: s.count ? 'messages' : 'generate',
    countTokens: s.count
      ? () => {
          s.calls++;
          return s.count!();
        }
      : undefined,
  } as unknown as UpstreamAdapter;
}

const codec: CountCodec = {
  family: 'messages.count_tokens',
  dialect: 'messages',
  renderCount: (inputTokens) => ({ input_tokens: inputTokens }),
  renderError: (error) => ({ status: error.status, body: { error: error.message } }),
};

function countCall(): CountCall {
  const body = { model: 'm', messages: [{ role: 'user', content: 'hello' }] };
  return {
    requestId: 'req_c',
    key: { record: { id: 'key_1', quota: 10 } } as unknown as ClientKey,
    clientIp: '127.0.0.1',
    headers: {},
    model: 'm',
    startedAt: Date.now(),
    nativeRequest: () => ({ rawBody: Buffer.from(JSON.stringify(body)), body, stream: false }),
    toCore: () => ({ model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }], stream: false }),
  };
}

const answer = (inputTokens: number): CountTokensResult => ({ status: 200, contentType: 'application/json', body: Buffer.from(`{"input_tokens":${inputTokens}}`), inputTokens });

describe('the token-counting path', () => {
  it('hands a native channel’s answer back as it is, holds no quota, and records one uncharged count', async () => {
    const a = script('a', async () => answer(11));
    const run = services([channel('a')], [counter(a)], { quota: true });
    const output = recordingOutput();
    await serveCountTokens(run.services, countCall(), codec, output);
    expect(output.status).toBe(200);
    expect(output.body).toBe('{"input_tokens":11}');
    expect(output.headers[ESTIMATED_HEADER]).toBeUndefined();
    expect(run.settled).toEqual([]);
    expect(run.released).toEqual([]);
    expect(run.counted).toHaveLength(1);
    expect(run.counted[0]).toMatchObject({ family: 'messages.count_tokens', httpStatus: 200, estimated: false, channelId: 'ch_a', error: undefined });
  });

  it('counts with the gateway’s tokenizer on a channel of another dialect, and says so', async () => {
    const a = script('a');
    const run = services([channel('a')], [counter(a)]);
    const output = recordingOutput();
    await serveCountTokens(run.services, countCall(), codec, output);
    expect(output.status).toBe(200);
    expect(output.headers[ESTIMATED_HEADER]).toBe('true');
    expect(JSON.parse(output.body!).input_tokens).toBeGreaterThan(0);
    expect(run.counted).toHaveLength(1);
    expect(run.counted[0]).toMatchObject({ estimated: true, channelId: 'ch_a' });
  });

  it('counts itself when the native channel has no counting endpoint (404), without trying another channel', async () => {
    const a = script('a', async () => Promise.reject(upstreamStatusError(404, 'not found')));
    const b = script('b', async () => answer(3));
    const run = services([channel('a'), channel('b')], [counter(a), counter(b)]);
    const output = recordingOutput();
    await serveCountTokens(run.services, countCall(), codec, output);
    expect([a.calls, b.calls]).toEqual([1, 0]);
    expect(output.headers[ESTIMATED_HEADER]).toBe('true');
    expect(run.counted[0]).toMatchObject({ estimated: true, channelId: 'ch_a' });
  });

  it('fails over to the next channel before anything is sent', async () => {
    const a = script('a', async () => Promise.reject(upstreamStatusError(503, 'down')));
    const b = script('b', async () => answer(3));
    const run = services([channel('a'), channel('b')], [counter(a), counter(b)]);
    const output = recordingOutput();
    await serveCountTokens(run.services, countCall(), codec, output);
    expect([a.calls, b.calls]).toEqual([1, 1]);
    expect(output.body).toBe('{"input_tokens":3}');
    expect(run.counted).toHaveLength(1);
    expect(run.counted[0].channelId).toBe('ch_b');
    expect(run.counted[0].attempts.map((attempt) => attempt.channelId)).toEqual(['ch_a', 'ch_b']);
  });

  it('calls no upstream when the key is refused, and records the refusal once', async () => {
    const a = script('a', async () => Promise.reject(new Error('must not be called')));
    const run = services([channel('a')], [counter(a)], {
      authorize: () => {
        throw new GatewayError('permission', 'API key may not use model "m"');
      },
    });
    const output = recordingOutput();
    await serveCountTokens(run.services, countCall(), codec, output);
    expect(output.status).toBe(403);
    expect(a.calls).toBe(0);
    expect(run.counted).toHaveLength(1);
    expect(run.counted[0]).toMatchObject({ httpStatus: 403, estimated: false, channelId: undefined, attempts: [] });
    expect(run.counted[0].error?.kind).toBe('permission');
  });

  it('records a count over its limits once, with the limit’s refusal', async () => {
    const a = script('a', async () => Promise.reject(new Error('must not be called')));
    const run = services([channel('a')], [counter(a)], { admit: () => Promise.reject(new GatewayError('rate_limited', 'too many requests')) });
    const output = recordingOutput();
    await serveCountTokens(run.services, countCall(), codec, output);
    expect(output.status).toBe(429);
    expect(a.calls).toBe(0);
    expect(run.counted).toHaveLength(1);
    expect(run.counted[0].httpStatus).toBe(429);
  });
});
