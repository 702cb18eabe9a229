import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatEvent, ChatRequest } from '../../../src/core/chat.js';
import { GatewayError } from '../../../src/core/errors.js';
import { simulatorAdapter } from '../../../src/upstreams/simulator/index.js';
import { collect, fold, makeCall, plain, streamed, userRequest, weatherTool } from './helpers.js';
import { sendChat } from '../support/call.js';

const isDelta = (event: ChatEvent) => event.type === 'text_delta' || event.type === 'thinking_delta' || event.type === 'signature_delta' || event.type === 'tool_input_delta';

const variety: Array<[string, ChatRequest]> = [
  ['plain text', userRequest('Hello there, simulator!')],
  ['long word', userRequest('supercalifragilisticexpialidocious-and-then-some 🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂')],
  ['max tokens', userRequest('cut me short', { maxTokens: 7 })],
  ['stop sequence', userRequest('stop soon', { stopSequences: [' the '] })],
  ['thinking + tool', userRequest('use get_weather in Rome', { tools: [weatherTool], thinking: { enabled: true } })],
  ['json schema', userRequest('structured', { responseFormat: { type: 'json_schema', schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } } })],
];

describe('simulator streaming', () => {
  it.each(variety)('folds to the same answer as the plain call (%s)', async (_name, request) => {
    const events = await collect(await streamed(request));
    expect(fold(events)).toEqual(await plain(request));
  });

  it('starts with input usage and sends small chunks', async () => {
    const events = await collect(await streamed(userRequest('Hello there, simulator!')));
    const start = events[0];
    if (start.type !== 'message_start') throw new Error('expected message_start first');
    expect(start.usage?.inputTokens).toBeGreaterThan(0);
    expect(start.usage?.outputTokens).toBe(0);
    const texts = events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : []));
    expect(texts.length).toBeGreaterThan(10);
    for (const text of texts) expect([...text.trim()].length).toBeLessThanOrEqual(12);
  });

  it('streams a thinking block with its signature before the text', async () => {
    const events = await collect(await streamed(userRequest('why?', { thinking: { enabled: true } })));
    const types = events.map((event) => event.type);
    const signatureAt = types.indexOf('signature_delta');
    expect(types.indexOf('thinking_delta')).toBeLessThan(signatureAt);
    expect(signatureAt).toBeLessThan(types.indexOf('text_delta'));
  });
});

describe('simulator timing', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('uses no timers at all when latency and token delay are 0', async () => {
    vi.useFakeTimers();
    const request = userRequest('no waiting', { thinking: { enabled: true } });
    // With fake timers, any awaited timer would hang this test.
    const events = await collect(await streamed(request));
    expect(events.at(-1)?.type).toBe('finish');
    expect((await plain(request)).content.length).toBe(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('waits latencyMs before the first event', async () => {
    const started = performance.now();
    const events = await streamed(userRequest('slow start'), makeCall({ latencyMs: 80 }));
    const iterator = events[Symbol.asyncIterator]();
    await iterator.next();
    expect(performance.now() - started).toBeGreaterThanOrEqual(70);
  });

  it('waits tokenDelayMs between chunks', async () => {
    const request = userRequest('paced');
    const events = await collect(await streamed(request, makeCall({ tokenDelayMs: 5 })));
    const deltas = events.filter(isDelta).length;
    const started = performance.now();
    await collect(await streamed(request, makeCall({ tokenDelayMs: 5 })));
    expect(performance.now() - started).toBeGreaterThanOrEqual((deltas - 1) * 5 * 0.8);
  });

  it('makes a plain answer wait for the whole simulated generation', async () => {
    const started = performance.now();
    await plain(userRequest('paced plain'), makeCall({ latencyMs: 20, tokenDelayMs: 3 }));
    expect(performance.now() - started).toBeGreaterThanOrEqual(20 + 10 * 3);
  });

  it('fails with a retryable timeout when latency exceeds the call timeout', async () => {
    const started = performance.now();
    await expect(plain(userRequest('too slow'), makeCall({ latencyMs: 5_000 }, { timeoutMs: 30 }))).rejects.toMatchObject({
      kind: 'timeout',
      retryable: true,
    });
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('simulator failures', () => {
  it('rejects every call with failStatus before producing anything', async () => {
    for (const stream of [false, true]) {
      const failing = sendChat(simulatorAdapter, { ...userRequest('x'), stream }, makeCall({ failStatus: 503 }));
      await expect(failing).rejects.toBeInstanceOf(GatewayError);
      await expect(failing).rejects.toMatchObject({ kind: 'unavailable', upstreamStatus: 503, retryable: true, message: 'simulated upstream failure' });
    }
    await expect(plain(userRequest('x'), makeCall({ failStatus: 400 }))).rejects.toMatchObject({ kind: 'invalid_request', status: 400 });
  });

  it('breaks the stream after failAfterChunks chunks', async () => {
    const events = await streamed(userRequest('break me'), makeCall({ failAfterChunks: 3 }));
    const seen: ChatEvent[] = [];
    const error = await (async () => {
      try {
        for await (const event of events) seen.push(event);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ kind: 'upstream_error', retryable: false });
    expect(seen.filter(isDelta)).toHaveLength(3);
    expect(seen.some((event) => event.type === 'finish')).toBe(false);
  });

  it('completes streams shorter than failAfterChunks, and fails plain answers longer than it', async () => {
    const events = await collect(await streamed(userRequest('fine'), makeCall({ failAfterChunks: 1_000 })));
    expect(events.at(-1)?.type).toBe('finish');
    await expect(plain(userRequest('broken'), makeCall({ failAfterChunks: 2 }))).rejects.toMatchObject({ kind: 'upstream_error', retryable: false });
  });

  it('reports invalid settings by name', async () => {
    await expect(plain(userRequest('x'), makeCall({ failStatus: 200 }))).rejects.toThrow(/failStatus/);
    await expect(plain(userRequest('x'), makeCall({ latencyMs: -1 }))).rejects.toThrow(/latencyMs/);
  });
});

describe('simulator abort', () => {
  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(plain(userRequest('x'), makeCall({}, { signal: controller.signal }))).rejects.toBeInstanceOf(GatewayError);
  });

  it('stops waiting for latency when aborted', async () => {
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 20);
    await expect(streamed(userRequest('x'), makeCall({ latencyMs: 5_000 }, { signal: controller.signal }))).rejects.toBeInstanceOf(GatewayError);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('stops a stream promptly, during a token delay', async () => {
    const controller = new AbortController();
    const events = await streamed(userRequest('abort me midway'), makeCall({ tokenDelayMs: 2_000 }, { signal: controller.signal }));
    const iterator = events[Symbol.asyncIterator]();
    let result = await iterator.next();
    while (!result.done && !isDelta(result.value)) result = await iterator.next();
    const started = performance.now();
    setTimeout(() => controller.abort(), 20);
    await expect(iterator.next()).rejects.toBeInstanceOf(GatewayError);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('stops a stream with no delays at the next event', async () => {
    const controller = new AbortController();
    const events = await streamed(userRequest('abort me'), makeCall({}, { signal: controller.signal }));
    const iterator = events[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.next();
    controller.abort();
    await expect(iterator.next()).rejects.toBeInstanceOf(GatewayError);
  });
});
