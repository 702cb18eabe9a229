/**
 * The chat pipeline's money rules, pinned without a server: every request is
 * settled exactly once; nothing is charged for an answer never produced; a
 * stream cut after it began (before its final usage) is charged for the text
 * written to the client, on both paths, never for a placeholder output
 * count; failover happens only
 * before the first byte; a refusal by plan calls no upstream; a quota hold
 * is released at settlement.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError, upstreamStatusError } from '../../src/core/errors.js';
import { countTokens } from '../../src/core/tokens.js';
import { serveChat } from '../../src/pipeline/chat-pipeline.js';
import { completeUsage } from '../../src/pipeline/settle.js';
import { DEFAULT_UPSTREAM_LIMITS } from '../../src/core/upstream-limits.js';
import { MessagesJsonUsageTap, MessagesStreamUsageTap } from '../../src/upstreams/protocols/messages/usage-tap.js';
import { WholeBody } from '../../src/upstreams/whole-body.js';
import { forwardEvents } from '../../src/upstreams/pass-through-stream.js';
import type { PassThroughResult } from '../../src/upstreams/types.js';
import { adapter, channel, chatCall, codec, events, recordingOutput, services, usage, type ScriptedAdapter } from './fakes.js';

const script = (type: string, parts: Partial<ScriptedAdapter> = {}): ScriptedAdapter => ({ type, calls: 0, ...parts });
const unavailable = () => upstreamStatusError(503, 'upstream down');

const START = `event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","usage":{"input_tokens":12,"output_tokens":1,"cache_read_input_tokens":3,"cache_creation_input_tokens":0}}}\n\n`;
const delta = (text: string) => `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":${JSON.stringify(text)}}}\n\n`;

/**
 * A Messages pass-through stream read by the real guard and tap: `written`
 * chunks one by one, then `after` (its write is where `beforeAfter` strikes),
 * then `fail` thrown, or the stream's end.
 */
function messagesStream(written: string[], after: string[] = [], fail?: GatewayError, beforeAfter?: () => void): PassThroughResult {
  const tap = new MessagesStreamUsageTap();
  async function* body() {
    for (const piece of written) yield Buffer.from(piece);
    beforeAfter?.();
    for (const piece of after) yield Buffer.from(piece);
    if (fail) throw fail;
  }
  return { status: 200, contentType: 'text/event-stream', body: forwardEvents(body(), tap, DEFAULT_UPSTREAM_LIMITS, undefined), delivered: tap.delivered, usage: () => tap.usage() };
}

describe('the chat pipeline', () => {
  it('settles a plain answer once, with the upstream’s usage, and releases the quota hold', async () => {
    const a = script('a', { chat: async () => ({ stream: false, response: { id: 'r', model: 'm', content: [{ type: 'text', text: 'hi' }], finishReason: 'stop', usage } }) });
    const run = services([channel('a')], [adapter(a)], { quota: true });
    const output = recordingOutput();
    await serveChat(run.services, chatCall(false), codec, output);
    expect(output.status).toBe(200);
    expect(JSON.parse(output.body!)).toEqual({ text: 'hi' });
    expect(run.settled).toHaveLength(1);
    expect(run.settled[0]).toMatchObject({
      answered: true,
      reported: usage,
      httpStatus: 200,
      channelId: 'ch_a',
      attempts: [expect.objectContaining({ channel: 'a', channelId: 'ch_a', status: 200, errorKind: null })],
    });
    expect(run.released).toEqual([usage.outputTokens]);
  });

  it('charges nothing and calls no upstream when the key is refused before routing, and still settles once', async () => {
    const a = script('a', { chat: async () => Promise.reject(new Error('must not be called')) });
    const run = services([channel('a')], [adapter(a)], {
      authorize: () => {
        throw new GatewayError('permission', 'API key may not use model "m"');
      },
    });
    const output = recordingOutput();
    await serveChat(run.services, chatCall(false), codec, output);
    expect(output.status).toBe(403);
    expect(a.calls).toBe(0);
    expect(run.settled).toHaveLength(1);
    expect(run.settled[0].answered).toBe(false);
    expect(completeUsage(run.settled[0])).toMatchObject({ inputTokens: 0, outputTokens: 0 });
  });

  it('decides a refusal by plan before any upstream is called', async () => {
    const a = script('a', { refusal: new GatewayError('unsupported_feature', 'logprobs: cannot honour it', { param: 'logprobs' }), chat: async () => Promise.reject(new Error('must not be called')) });
    const run = services([channel('a')], [adapter(a)]);
    const output = recordingOutput();
    await serveChat(run.services, chatCall(false), codec, output);
    expect(output.status).toBe(400);
    expect(a.calls).toBe(0);
    expect(run.settled).toHaveLength(1);
    expect(run.settled[0].answered).toBe(false);
  });

  it('serves a request one channel refuses from the next candidate, with no attempt on the refusing one and no 400', async () => {
    const refusal = new GatewayError('unsupported_feature', 'media type video/mp4 is not supported', { param: 'media type video/mp4' });
    const a = script('a', { refusal, chat: async () => Promise.reject(new Error('must not be called')) });
    const b = script('b', { chat: async () => ({ stream: false, response: { id: 'r', model: 'm', content: [{ type: 'text', text: 'ok' }], finishReason: 'stop', usage } }) });
    const run = services([channel('a'), channel('b')], [adapter(a), adapter(b)]);
    const output = recordingOutput();
    await serveChat(run.services, chatCall(false), codec, output);
    expect(output.status).toBe(200);
    expect([a.calls, b.calls]).toEqual([0, 1]);
    // Each translated candidate is prepared once, before routing; the attempt only sends what was prepared.
    expect([a.prepared, b.prepared]).toEqual([1, 1]);
    expect(run.settled[0].attempts).toEqual([expect.objectContaining({ channel: 'b', status: 200 })]);
  });

  it('fails over before the first byte, and the log names both channels', async () => {
    const a = script('a', { chat: async () => Promise.reject(unavailable()) });
    const b = script('b', { chat: async () => ({ stream: true, events: events(['hel', 'lo']) }) });
    const run = services([channel('a'), channel('b')], [adapter(a), adapter(b)]);
    const output = recordingOutput();
    await serveChat(run.services, chatCall(true), codec, output);
    expect([a.calls, b.calls]).toEqual([1, 1]);
    expect(output.chunks.join('')).toContain('"text":"lo"');
    expect(run.settled).toHaveLength(1);
    expect(run.settled[0]).toMatchObject({
      attempts: [expect.objectContaining({ channel: 'a', errorKind: expect.any(String) }), expect.objectContaining({ channel: 'b', status: 200 })],
      channelId: 'ch_b',
      answered: true,
      reported: usage,
    });
  });

  it('never fails over once a byte was sent: a translated stream cut half way ends with an error frame and is charged for what was delivered', async () => {
    const a = script('a', { chat: async () => ({ stream: true, events: events(['one ', 'two ', 'three'], unavailable()) }) });
    const b = script('b', { chat: async () => Promise.reject(new Error('must not be called')) });
    const run = services([channel('a'), channel('b')], [adapter(a), adapter(b)]);
    const output = recordingOutput();
    await serveChat(run.services, chatCall(true), codec, output);
    expect(b.calls).toBe(0);
    expect(output.chunks.at(-1)).toBe('error unavailable\n');
    expect(output.ended).toBe(true);
    expect(run.settled).toHaveLength(1);
    const settled = run.settled[0];
    expect(settled.answered).toBe(true);
    expect(settled.deliveredText()).toBe('one two three');
    const charged = completeUsage(settled);
    expect(charged.outputTokens).toBe(countTokens('one two three'));
    expect(charged.estimatedParts).toEqual(['input', 'output']);
  });

  it('charges a pass-through stream cut before its final usage for the text written to the client, with the prompt as reported', async () => {
    const a = script('a', { passThrough: async () => messagesStream([START, delta('Hello'), delta(' world')], [delta(' never sent') + 'data: {cut\n\n']) });
    const run = services([channel('a')], [adapter(a)]);
    const output = recordingOutput();
    await serveChat(run.services, chatCall(true), codec, output);
    // The chunk with the broken event never went out, nor the delta before it in that chunk.
    expect(output.chunks.at(-1)).toBe('error upstream_error\n');
    expect(output.chunks.join('')).not.toContain('never sent');
    expect(run.settled).toHaveLength(1);
    // message_start's output_tokens (1) is a placeholder: only its prompt counters are reported.
    expect(run.settled[0].reported).toEqual({ inputTokens: 12, cacheReadTokens: 3, cacheWriteTokens: 0 });
    expect(run.settled[0].deliveredText()).toBe('Hello world');
    const charged = completeUsage(run.settled[0]);
    expect(charged).toMatchObject({ inputTokens: 12, cacheReadTokens: 3, outputTokens: countTokens('Hello world'), estimatedParts: ['output'] });
  });

  it('does not count a pass-through chunk whose write failed (the client was gone)', async () => {
    const output = recordingOutput();
    const a = script('a', { passThrough: async () => messagesStream([START, delta('kept')], [delta(' lost')], undefined, () => output.disconnect()) });
    const run = services([channel('a')], [adapter(a)]);
    await serveChat(run.services, chatCall(true), codec, output);
    expect(run.settled).toHaveLength(1);
    expect(run.settled[0].deliveredText()).toBe('kept');
    expect(completeUsage(run.settled[0])).toMatchObject({ outputTokens: countTokens('kept'), estimatedParts: ['output'] });
  });

  it('takes a pass-through stream’s final usage as reported', async () => {
    const final = `event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":42}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n`;
    const a = script('a', { passThrough: async () => messagesStream([START, delta('Hello'), final]) });
    const run = services([channel('a')], [adapter(a)]);
    await serveChat(run.services, chatCall(true), codec, recordingOutput());
    expect(completeUsage(run.settled[0])).toMatchObject({ inputTokens: 12, outputTokens: 42, cacheReadTokens: 3, estimatedParts: [] });
  });

  it('never takes a translated stream’s message_start output count as final when the client leaves', async () => {
    const output = recordingOutput();
    async function* started() {
      yield { type: 'message_start' as const, id: 'msg_1', model: 'm', usage: { inputTokens: 9, outputTokens: 1 } };
      yield { type: 'block_start' as const, index: 0, block: { type: 'text' as const } };
      yield { type: 'text_delta' as const, index: 0, text: 'one two' };
      output.disconnect();
      yield { type: 'text_delta' as const, index: 0, text: ' three' };
    }
    const a = script('a', { chat: async () => ({ stream: true, events: started() }) });
    const run = services([channel('a')], [adapter(a)]);
    await serveChat(run.services, chatCall(true), codec, output);
    expect(completeUsage(run.settled[0])).toMatchObject({ inputTokens: 9, outputTokens: countTokens('one two'), estimatedParts: ['output'] });
  });

  it('charges a plain pass-through answer that carries no usage for its text', async () => {
    const tap = new MessagesJsonUsageTap();
    const answer = { id: 'msg_1', content: [{ type: 'text', text: 'a whole answer' }] };
    tap.read(answer);
    const a = script('a', {
      passThrough: async () => ({
        status: 200,
        contentType: 'application/json',
        body: new WholeBody(Buffer.from(JSON.stringify(answer))),
        delivered: { commit() {}, text: () => tap.answerText() },
        usage: () => tap.usage(),
      }),
    });
    const run = services([channel('a')], [adapter(a)]);
    await serveChat(run.services, chatCall(false), codec, recordingOutput());
    expect(completeUsage(run.settled[0])).toMatchObject({ outputTokens: countTokens('a whole answer'), estimatedParts: ['input', 'output'] });
  });

  it('counts what a translated stream delivered when its upstream reported no usage at all (zeros are no counts)', async () => {
    async function* unreported() {
      yield { type: 'message_start' as const, id: 'msg_1' };
      yield { type: 'block_start' as const, index: 0, block: { type: 'text' as const } };
      yield { type: 'text_delta' as const, index: 0, text: 'an answer without usage' };
      yield { type: 'block_stop' as const, index: 0 };
      yield { type: 'finish' as const, reason: 'stop' as const, usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, unreported: true as const };
    }
    const a = script('a', { chat: async () => ({ stream: true, events: unreported() }) });
    const run = services([channel('a')], [adapter(a)]);
    await serveChat(run.services, chatCall(true), codec, recordingOutput());
    expect(completeUsage(run.settled[0])).toMatchObject({ outputTokens: countTokens('an answer without usage'), estimatedParts: ['input', 'output'] });
  });

  it('counts a translated plain answer whose upstream reported no usage from its content (zeros are no counts)', async () => {
    const zero = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
    const content = [
      { type: 'text' as const, text: 'a plain answer without usage' },
      { type: 'tool_call' as const, id: 'call_1', name: 'lookup', input: { city: 'Oslo' } },
    ];
    const a = script('a', { chat: async () => ({ stream: false, response: { id: 'r', model: 'm', content, finishReason: 'stop', usage: zero, usageUnreported: true } }) });
    const run = services([channel('a')], [adapter(a)]);
    await serveChat(run.services, chatCall(false), codec, recordingOutput());
    expect(completeUsage(run.settled[0])).toMatchObject({
      outputTokens: countTokens('a plain answer without usage' + JSON.stringify({ city: 'Oslo' })),
      estimatedParts: ['input', 'output'],
    });
  });

  it('settles once when the client goes away mid-stream, charging what it received', async () => {
    const output = recordingOutput();
    async function* slow() {
      yield* events(['first ']);
      output.disconnect();
      yield { type: 'text_delta' as const, index: 0, text: 'never read' };
    }
    const a = script('a', { chat: async () => ({ stream: true, events: slow() }) });
    const run = services([channel('a')], [adapter(a)]);
    await serveChat(run.services, chatCall(true), codec, output);
    expect(run.settled).toHaveLength(1);
    expect(run.settled[0].answered).toBe(true);
    expect(run.settled[0].deliveredText()).toContain('first ');
  });

  it('answers the last error when every channel failed before a byte, charging nothing', async () => {
    const a = script('a', { chat: async () => Promise.reject(unavailable()) });
    const b = script('b', { chat: async () => Promise.reject(upstreamStatusError(500, 'broken')) });
    const run = services([channel('a'), channel('b')], [adapter(a), adapter(b)], { quota: true });
    const output = recordingOutput();
    await serveChat(run.services, chatCall(false), codec, output);
    expect(output.status).toBeGreaterThanOrEqual(500);
    expect(run.settled).toHaveLength(1);
    expect(run.settled[0]).toMatchObject({ answered: false, attempts: [expect.objectContaining({ channel: 'a' }), expect.objectContaining({ channel: 'b' })] });
    expect(run.released).toEqual([0]);
  });
});
