/**
 * Bedrock's stream framing and error answers: AWS event-stream messages cut
 * out of the bytes however they arrive (the codec checks the checksums), a
 * bounded message size, a stream cut inside a message; InvokeModel's `chunk`
 * events re-framed as the Messages dialect's server-sent events and its
 * stream exceptions as the dialect's error event; the HTTP error names that
 * the status alone reads wrongly.
 */
import { describe, expect, it } from 'vitest';
import type { GatewayError } from '../../../src/core/errors.js';
import { DEFAULT_UPSTREAM_LIMITS } from '../../../src/core/upstream-limits.js';
import { readEventStream, streamExceptionError } from '../../../src/upstreams/aws-event-stream.js';
import { throwBedrockStatus } from '../../../src/upstreams/bedrock/errors.js';
import { invokeStreamAsSse } from '../../../src/upstreams/bedrock/invoke-stream.js';
import type { UpstreamCall } from '../../../src/upstreams/types.js';
import { chunk, frame } from '../../support/fake-bedrock.js';

async function* pieces(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

const joined = (...frames: Uint8Array[]) => Buffer.concat(frames);

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

async function failure(source: AsyncIterable<unknown>): Promise<GatewayError> {
  try {
    await collect(source);
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('the stream did not fail');
}

const call = { limits: DEFAULT_UPSTREAM_LIMITS } as unknown as UpstreamCall;

describe('readEventStream', () => {
  const stream = joined(frame({ type: 'messageStart', payload: { role: 'assistant' } }), frame({ type: 'contentBlockDelta', payload: { delta: { text: 'hé' }, contentBlockIndex: 0 } }));

  it('yields the same messages whether they come whole or a byte at a time', async () => {
    for (const size of [stream.length, 7, 1]) {
      const messages = await collect(readEventStream(pieces(stream, size)));
      expect(messages.map((message) => [message.messageType, message.type, Buffer.from(message.payload).toString('utf8')])).toEqual([
        ['event', 'messageStart', '{"role":"assistant"}'],
        ['event', 'contentBlockDelta', '{"delta":{"text":"hé"},"contentBlockIndex":0}'],
      ]);
    }
  });

  it('refuses a message whose checksum does not hold', async () => {
    const bad = Buffer.from(stream);
    bad[20] = bad[20]! ^ 0xff;
    expect((await failure(readEventStream(pieces(bad, 5)))).message).toBe('upstream sent a malformed event-stream message');
  });

  it('refuses a message over the event bound before buffering it, and a stream cut inside a message', async () => {
    const huge = Buffer.alloc(8);
    huge.writeUInt32BE(DEFAULT_UPSTREAM_LIMITS.maxEventBytes + 1, 0);
    const tooLarge = await failure(readEventStream(pieces(huge, 8)));
    expect(tooLarge.kind).toBe('upstream_error');
    expect(tooLarge.message).toMatch(/event/);
    const cut = await failure(readEventStream(pieces(stream.subarray(0, stream.length - 3), 64)));
    expect(cut).toMatchObject({ kind: 'upstream_error', retryable: true, message: 'upstream stream ended inside an event' });
  });

  it('reads stream exceptions by type', async () => {
    const [throttled] = await collect(readEventStream(pieces(frame({ type: 'throttlingException', payload: { message: 'slow down' }, exception: true }), 100)));
    expect(throttled!.messageType).toBe('exception');
    expect(streamExceptionError(throttled!)).toMatchObject({ kind: 'rate_limited', status: 429, retryable: true, message: 'throttlingException: slow down' });
    expect(streamExceptionError({ messageType: 'exception', type: 'validationException', payload: Buffer.from('{"message":"bad"}') })).toMatchObject({ kind: 'invalid_request', status: 400 });
    expect(streamExceptionError({ messageType: 'exception', type: 'modelStreamErrorException', payload: Buffer.from('not json') })).toMatchObject({ kind: 'upstream_error', retryable: true });
  });
});

describe('invokeStreamAsSse', () => {
  it('turns chunk events into the Messages dialect’s events, byte for byte', async () => {
    const event = { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } };
    const bytes = joined(frame(chunk(event)), frame({ type: 'somethingNew', payload: {} }));
    const text = Buffer.concat(await collect(invokeStreamAsSse(pieces(bytes, 3), call))).toString('utf8');
    expect(text).toBe(`event: content_block_delta\ndata: ${JSON.stringify(event)}\n\n`);
  });

  it('ends with the dialect’s error event on a stream exception', async () => {
    const bytes = frame({ type: 'serviceUnavailableException', payload: { message: 'Bedrock is unable to process your request.' }, exception: true });
    const text = Buffer.concat(await collect(invokeStreamAsSse(pieces(bytes, 100), call))).toString('utf8');
    expect(text).toBe('event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"serviceUnavailableException: Bedrock is unable to process your request."}}\n\n');
  });

  it('refuses a chunk that carries no event', async () => {
    const error = await failure(invokeStreamAsSse(pieces(frame({ type: 'chunk', payload: { bytes: Buffer.from('[1]').toString('base64') } }), 100), call));
    expect(error.message).toBe('upstream sent a malformed chunk event');
  });
});

describe('throwBedrockStatus', () => {
  async function thrown(status: number, name: string, message: string): Promise<GatewayError> {
    try {
      await throwBedrockStatus(status, { 'x-amzn-errortype': `${name}:http://internal.amazon.com/coral/com.amazon.bedrock/` }, pieces(Buffer.from(JSON.stringify({ message })), 100), ['SECRETKEY123']);
    } catch (error) {
      return error as GatewayError;
    }
    throw new Error('did not throw');
  }

  it('reads the error name where the status alone misleads', async () => {
    expect(await thrown(424, 'ModelErrorException', 'The model failed')).toMatchObject({ kind: 'upstream_error', retryable: true, upstreamStatus: 424 });
    expect(await thrown(429, 'ModelNotReadyException', 'warming up')).toMatchObject({ kind: 'upstream_error', retryable: true });
    expect(await thrown(400, 'ServiceQuotaExceededException', 'quota')).toMatchObject({ kind: 'rate_limited', status: 429 });
    expect(await thrown(400, 'ValidationException', 'max_tokens: 0 is below 1')).toMatchObject({ kind: 'invalid_request', status: 400, message: 'max_tokens: 0 is below 1' });
    expect(await thrown(403, 'AccessDeniedException', 'key SECRETKEY123 denied')).toMatchObject({ upstreamStatus: 403, message: 'key [redacted] denied' });
  });
});
