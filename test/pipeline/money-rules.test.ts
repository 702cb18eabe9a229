/**
 * The chat pipeline's money rules, pinned without a server: every request is
 * settled exactly once; nothing is charged for an answer never produced; a
 * stream cut after it began is charged for what was delivered (translated)
 * or by the bytes that went through (pass-through); failover happens only
 * before the first byte; a refusal by plan calls no upstream; a quota hold
 * is released at settlement.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError, upstreamStatusError } from '../../src/core/errors.js';
import { countTokens } from '../../src/core/tokens.js';
import { serveChat } from '../../src/pipeline/chat-pipeline.js';
import { completeUsage } from '../../src/pipeline/settle.js';
import { adapter, channel, chatCall, codec, events, recordingOutput, services, usage, type ScriptedAdapter } from './fakes.js';

const script = (type: string, parts: Partial<ScriptedAdapter> = {}): ScriptedAdapter => ({ type, calls: 0, ...parts });
const unavailable = () => upstreamStatusError(503, 'upstream down');

describe('the chat pipeline', () => {
  it('settles a plain answer once, with the upstream’s usage, and releases the quota hold', async () => {
    const a = script('a', { chat: async () => ({ stream: false, response: { id: 'r', model: 'm', content: [{ type: 'text', text: 'hi' }], finishReason: 'stop', usage } }) });
    const run = services([channel('a')], [adapter(a)], { quota: true });
    const output = recordingOutput();
    await serveChat(run.services, chatCall(false), codec, output);
    expect(output.status).toBe(200);
    expect(JSON.parse(output.body!)).toEqual({ text: 'hi' });
    expect(run.settled).toHaveLength(1);
    expect(run.settled[0]).toMatchObject({ answered: true, reported: usage, httpStatus: 200, channelId: 'ch_a', attempts: [expect.objectContaining({ channel: 'a', channelId: 'ch_a', status: 200, errorKind: null })] });
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

  it('fails over before the first byte, and the log names both channels', async () => {
    const a = script('a', { chat: async () => Promise.reject(unavailable()) });
    const b = script('b', { chat: async () => ({ stream: true, events: events(['hel', 'lo']) }) });
    const run = services([channel('a'), channel('b')], [adapter(a), adapter(b)]);
    const output = recordingOutput();
    await serveChat(run.services, chatCall(true), codec, output);
    expect([a.calls, b.calls]).toEqual([1, 1]);
    expect(output.chunks.join('')).toContain('"text":"lo"');
    expect(run.settled).toHaveLength(1);
    expect(run.settled[0]).toMatchObject({ attempts: [expect.objectContaining({ channel: 'a', errorKind: expect.any(String) }), expect.objectContaining({ channel: 'b', status: 200 })], channelId: 'ch_b', answered: true, reported: usage });
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
    expect(charged.estimated).toBe(true);
  });

  it('charges a cut pass-through stream by the bytes that went through', async () => {
    const chunk = new Uint8Array(800).fill(97);
    const a = script('a', {
      passThrough: async () => ({
        status: 200,
        contentType: 'text/event-stream',
        usage: () => ({ inputTokens: 5 }),
        body: (async function* () {
          yield chunk;
          yield chunk;
          throw unavailable();
        })(),
      }),
    });
    const run = services([channel('a')], [adapter(a)]);
    const output = recordingOutput();
    await serveChat(run.services, chatCall(true), codec, output);
    expect(output.chunks.at(-1)).toBe('error unavailable\n');
    expect(run.settled).toHaveLength(1);
    // About four bytes a token, halved for the framing: 1,600 bytes are 200 tokens.
    expect(run.settled[0].reported).toEqual({ inputTokens: 5, outputTokens: 200 });
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
