/**
 * The gemini adapter's translation path against a loopback server replaying
 * the recorded real responses: plain answers, streams (thought signatures,
 * whole and streamed function-call arguments), the 429 body, a stream cut
 * half way and one that ends without a finishReason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat.js';
import { GatewayError } from '../../../src/core/errors.js';
import { geminiAdapter } from '../../../src/upstreams/gemini/index.js';
import type { ChatResult } from '../../../src/upstreams/types.js';
import { TEST_API_KEY, testCall, sendChat } from '../support/call.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { fixtureJson, jsonReply, sseFrames, sseReply } from '../support/fixtures.js';
import { collect, foldEvents } from '../support/fold-events.js';

const DIALECT = 'gemini';
let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());

const ask = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'client-model',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'How many r in strawberry?' }] }],
  stream: false,
  ...overrides,
});

function call(upstreamModel = 'gemini-3-pro-preview') {
  return testCall({ baseUrl: upstream.origin, upstreamModel, type: 'gemini' });
}

async function plain(request: ChatRequest) {
  const result = await sendChat(geminiAdapter, request, call());
  if (result.stream) throw new Error('expected a plain answer');
  return result.response;
}

async function streamed(request: ChatRequest) {
  const result: ChatResult = await sendChat(geminiAdapter, { ...request, stream: true }, call());
  if (!result.stream) throw new Error('expected a stream');
  return foldEvents(await collect(result.events));
}

describe('plain answers', () => {
  it('reads text, usage with thoughts, the response id and the model version', async () => {
    upstream.reply(jsonReply(DIALECT, 'google-text.json'));
    const response = await plain(ask());
    expect(response.content).toEqual([{ type: 'text', text: "There are **3** r's in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y." }]);
    expect(response.finishReason).toBe('stop');
    expect(response.id).toBe('Un6LacrVMcjUxs0PmJfWoQc');
    expect(response.model).toBe('gemini-3-pro-preview');
    expect(response.usage).toEqual({ inputTokens: 9, outputTokens: 28 + 244, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 244 });
    const seen = upstream.requests.at(-1)!;
    expect(seen.url).toBe('/v1beta/models/gemini-3-pro-preview:generateContent');
    expect(seen.headers['x-goog-api-key']).toBe(TEST_API_KEY);
    expect(seen.json()).toEqual({ contents: [{ role: 'user', parts: [{ text: 'How many r in strawberry?' }] }] });
  });

  it('keeps the text signature as a signed thinking part when the client asked for thinking', async () => {
    upstream.reply(jsonReply(DIALECT, 'google-reasoning.json'));
    const response = await plain(ask({ thinking: { enabled: true, budgetTokens: 2048 } }));
    const signature = fixtureJson(DIALECT, 'google-reasoning.json').candidates[0].content.parts[0].thoughtSignature;
    expect(response.content[0]).toEqual({ type: 'thinking', text: '', signature });
    expect(response.content[1].type).toBe('text');
    expect(response.usage.reasoningTokens).toBe(282);
  });

  it('reads a function call with its thought signature; the finish reason becomes tool_use', async () => {
    upstream.reply(jsonReply(DIALECT, 'google-tool-call.json'));
    const response = await plain(ask());
    const signature = fixtureJson(DIALECT, 'google-tool-call.json').candidates[0].content.parts[0].thoughtSignature;
    expect(response.content[0]).toEqual({ type: 'thinking', text: '', signature });
    expect(response.content[1]).toMatchObject({ type: 'tool_call', name: 'weather', input: { location: 'San Francisco' } });
    expect((response.content[1] as { id: string }).id).toMatch(/^call_/);
    expect(response.finishReason).toBe('tool_use');
  });
});

describe('streams', () => {
  it('streams text split across chunks and bytes, with CRLF endings', async () => {
    upstream.reply(sseReply(DIALECT, 'google-text.chunks.txt', { lineEnding: '\r\n', pieceBytes: 7 }));
    const folded = await streamed(ask());
    expect(folded.content).toEqual([{ type: 'text', text: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y' }]);
    expect(folded.finishReason).toBe('stop');
    expect(folded.id).toBe('bH6LaZW8Fp_3nsEPqtaSwQ4');
    expect(folded.usage).toMatchObject({ inputTokens: 9, outputTokens: 23 + 185, reasoningTokens: 185 });
    expect(upstream.requests.at(-1)!.url).toBe('/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse');
  });

  it('streams a whole function call with its signature', async () => {
    upstream.reply(sseReply(DIALECT, 'google-tool-call.chunks.txt'));
    const folded = await streamed(ask());
    expect(folded.content.map((part) => part.type)).toEqual(['thinking', 'tool_call']);
    expect((folded.content[0] as { signature?: string }).signature?.length).toBeGreaterThan(100);
    expect(folded.content[1]).toMatchObject({ name: 'weather', input: { location: 'San Francisco' } });
    expect(folded.finishReason).toBe('tool_use');
  });

  it('rebuilds streamed function-call arguments of two parallel calls', async () => {
    upstream.reply(sseReply(DIALECT, 'google-stream-tool-call-arguments.chunks.txt', { pieceBytes: 61 }));
    const folded = await streamed(ask());
    expect(folded.content.map((part) => part.type)).toEqual(['thinking', 'tool_call', 'tool_call']);
    expect(folded.content[1]).toMatchObject({ name: 'getWeather', input: { location: 'Boston' } });
    expect(folded.content[2]).toMatchObject({ name: 'getWeather', input: { location: 'San Francisco' } });
    expect(folded.finishReason).toBe('tool_use');
    expect(folded.usage).toMatchObject({ inputTokens: 26, outputTokens: 23 + 132, reasoningTokens: 132 });
  });

  it('streams a thought summary, a call without arguments and three streamed calls', async () => {
    upstream.reply(sseReply(DIALECT, 'google-stream-no-args-tool-call.chunks.txt'));
    const folded = await streamed(ask());
    expect(folded.content.map((part) => part.type)).toEqual(['thinking', 'thinking', 'tool_call', 'tool_call', 'tool_call', 'tool_call']);
    expect((folded.content[0] as { text: string }).text).toContain('Processing User Requests');
    expect(folded.content[1]).toMatchObject({ text: '', signature: expect.stringMatching(/^AY89/) });
    expect(folded.content.slice(2)).toMatchObject([
      { name: 'read_theme', input: {} },
      { name: 'read_screen', input: { id: 'A' } },
      { name: 'read_screen', input: { id: 'B' } },
      { name: 'read_screen', input: { id: 'C' } },
    ]);
    // Early chunks carry only the traffic type: the usage is the final one.
    expect(folded.usage).toMatchObject({ inputTokens: 249, outputTokens: 58 + 183, reasoningTokens: 183 });
  });

  it('fails a stream cut half way, after the events already delivered', async () => {
    upstream.reply(sseReply(DIALECT, 'google-text.chunks.txt', { cutAfterChunks: 2 }));
    const result = await sendChat(geminiAdapter, ask({ stream: true }), call());
    if (!result.stream) throw new Error('expected a stream');
    const events: unknown[] = [];
    const failure = await (async () => {
      for await (const event of result.events) events.push(event);
    })().catch((error) => error);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure.kind).toBe('upstream_error');
    expect(events.some((event) => (event as { type: string }).type === 'text_delta')).toBe(true);
  });

  it('fails a stream that ends cleanly without a finishReason', async () => {
    upstream.reply({ chunks: sseFrames(DIALECT, 'google-text.chunks.txt').slice(0, 2) });
    const result = await sendChat(geminiAdapter, ask({ stream: true }), call());
    if (!result.stream) throw new Error('expected a stream');
    await expect(collect(result.events)).rejects.toMatchObject({ kind: 'upstream_error', message: expect.stringContaining('finishReason') });
  });

  it('fails on an error chunk inside the stream, with its status', async () => {
    upstream.reply({ chunks: [sseFrames(DIALECT, 'google-text.chunks.txt')[0], 'data: {"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}\n\n'] });
    const result = await sendChat(geminiAdapter, ask({ stream: true }), call());
    if (!result.stream) throw new Error('expected a stream');
    await expect(collect(result.events)).rejects.toMatchObject({ kind: 'unavailable', message: 'overloaded' });
  });
});

describe('errors', () => {
  it('maps the recorded 429 body to a retryable rate limit with its RetryInfo delay', async () => {
    upstream.reply(jsonReply(DIALECT, 'google-429-retry-info.json', 429));
    const failure = await sendChat(geminiAdapter, ask(), call()).catch((error) => error);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure).toMatchObject({ kind: 'rate_limited', status: 429, retryable: true, retryAfterSeconds: 35, upstreamStatus: 429 });
    expect(failure.message).toBe('You exceeded your current quota, please check your plan.');
    expect(failure.detail).toEqual({ dialect: 'generate', code: 'RESOURCE_EXHAUSTED' });
  });

  it('treats a refused channel key (400 API_KEY_INVALID) as the channel credential failing', async () => {
    upstream.reply({
      status: 400,
      body: JSON.stringify({
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
          details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }],
        },
      }),
    });
    const failure = await sendChat(geminiAdapter, ask(), call()).catch((error) => error);
    expect(failure).toMatchObject({ kind: 'upstream_error', upstreamStatus: 401, retryable: true });
  });

  it('keeps the status word of a precondition failure and never retries it', async () => {
    upstream.reply({ status: 400, body: JSON.stringify({ error: { code: 400, message: 'User location is not supported', status: 'FAILED_PRECONDITION' } }) });
    const failure = await sendChat(geminiAdapter, ask(), call()).catch((error) => error);
    expect(failure).toMatchObject({ kind: 'invalid_request', status: 400, retryable: false, detail: { dialect: 'generate', code: 'FAILED_PRECONDITION' } });
  });

  it('masks the channel key if an error echoes it', async () => {
    upstream.reply({ status: 500, body: JSON.stringify({ error: { code: 500, message: `bad key ${TEST_API_KEY}`, status: 'INTERNAL' } }) });
    const failure = await sendChat(geminiAdapter, ask(), call()).catch((error) => error);
    expect(failure.message).toBe('bad key [redacted]');
    expect(failure.retryable).toBe(true);
  });
});
