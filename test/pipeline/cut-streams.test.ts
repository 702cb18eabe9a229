/**
 * An upstream that goes silent mid-stream: undici's body timeout ends the
 * read, and the pipeline charges what the client received, as for any other
 * cut (test/e2e/delivered-usage.test.ts drives the same case over HTTP with a
 * short `limits.upstreamIdleMs`; here the body fails with undici's own timeout
 * error, without the wait). Every family's pass-through stream, read by its
 * real guard and tap.
 */
import { describe, expect, it } from 'vitest';
import { countTokens } from '../../src/core/tokens.js';
import { DEFAULT_UPSTREAM_LIMITS } from '../../src/core/upstream-limits.js';
import { serveChat } from '../../src/pipeline/chat-pipeline.js';
import { completeUsage } from '../../src/pipeline/settle.js';
import { MessagesStreamUsageTap } from '../../src/upstreams/protocols/messages/usage-tap.js';
import { GeminiSseUsageTap } from '../../src/upstreams/protocols/generate/usage-tap.js';
import { ChatCompletionStreamUsageTap } from '../../src/upstreams/protocols/chat-completions/usage-tap.js';
import { ResponsesStreamUsageTap } from '../../src/upstreams/protocols/responses/usage-tap.js';
import { forwardEvents, type StreamTap } from '../../src/upstreams/pass-through-stream.js';
import type { PassThroughResult } from '../../src/upstreams/types.js';
import { cutFamilies, framesOf, PROMPT_TOKENS, receivedText, type FamilyName } from '../support/cut-streams.js';
import { adapter, channel, chatCall, codec, recordingOutput, services } from './fakes.js';

const taps: Record<FamilyName, () => StreamTap> = {
  messages: () => new MessagesStreamUsageTap(),
  'chat-completions': () => new ChatCompletionStreamUsageTap(),
  responses: () => new ResponsesStreamUsageTap(),
  generate: () => new GeminiSseUsageTap(),
};

/** What undici throws when a streamed body stays silent past its bound. */
function bodyTimeout(): Error {
  return Object.assign(new Error('Body Timeout Error'), { code: 'UND_ERR_BODY_TIMEOUT' });
}

function silentAfter(frames: string[], tap: StreamTap): PassThroughResult {
  async function* body() {
    for (const frame of frames) yield Buffer.from(frame);
    throw bodyTimeout();
  }
  return { status: 200, contentType: 'text/event-stream', body: forwardEvents(body(), tap, DEFAULT_UPSTREAM_LIMITS, undefined), delivered: tap.delivered, usage: () => tap.usage() };
}

describe('an upstream silent mid-stream (body timeout)', () => {
  it.each(cutFamilies.map((family) => [family.name, family] as const))('%s: charged the tokens of the text the client received', async (name, family) => {
    const tap = taps[name]();
    const a = { type: 'a', calls: 0, passThrough: async () => silentAfter(framesOf(name, family.deltas), tap) };
    const run = services([channel('a')], [adapter(a)]);
    const output = recordingOutput();
    await serveChat(run.services, chatCall(true), codec, output);
    expect(output.chunks.at(-1)).toBe('error timeout\n');
    const received = receivedText(family, output.chunks.join(''));
    expect(received).toBe(family.deltas.join(''));
    expect(run.settled).toHaveLength(1);
    const charged = completeUsage(run.settled[0]);
    expect(charged.outputTokens).toBe(countTokens(received));
    expect(charged.estimatedParts).toEqual(family.promptReported ? ['output'] : ['input', 'output']);
    if (family.promptReported) expect(charged.inputTokens).toBe(PROMPT_TOKENS);
  });
});
