/** The same-dialect path of openai-responses: bytes in equal bytes out, usage read on the side, only the model rewritten when mapped. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors.js';
import { openAiResponsesAdapter } from '../../../src/upstreams/openai-responses/index.js';
import type { PassThroughRequest, PassThroughResult } from '../../../src/upstreams/types.js';
import { TEST_API_KEY, testCall } from '../support/call.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { fixtureText, jsonReply, sseFrames, sseReply } from '../support/fixtures.js';

const DIALECT = 'openai-responses';
let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());

/** Odd spacing and key order on purpose: an untouched body keeps them. */
const clientBytes = (model: string, stream: boolean) => Buffer.from(`{"model":"${model}",  "stream":${stream},\n "input":"hi","instructions":"be brief", "store":true}`);

function passRequest(model: string, stream: boolean): PassThroughRequest {
  const rawBody = clientBytes(model, stream);
  return { rawBody, body: JSON.parse(rawBody.toString('utf8')), stream };
}

async function drain(result: PassThroughResult): Promise<Buffer> {
  const pieces: Uint8Array[] = [];
  for await (const piece of result.body) pieces.push(piece);
  return Buffer.concat(pieces);
}

const passThrough = (request: PassThroughRequest, upstreamModel: string) => openAiResponsesAdapter.passThrough!(request, testCall({ baseUrl: `${upstream.origin}/v1`, upstreamModel }));

describe('openai-responses pass-through', () => {
  it('streams: upstream bytes come back unchanged and usage is tapped from the terminal event', async () => {
    const file = 'openai-file-search-tool.1.chunks.txt';
    upstream.reply(sseReply(DIALECT, file, { pieceBytes: 97 }));
    const request = passRequest('gpt-5-mini', true);
    const result = await passThrough(request, 'gpt-5-mini');
    expect(result.contentType).toBe('text/event-stream');
    const out = await drain(result);
    expect(out.equals(Buffer.from(sseFrames(DIALECT, file).join('')))).toBe(true);
    expect(result.usage()).toMatchObject({ cacheReadTokens: 2304 });
    expect(result.responseId?.()).toBe('resp_0459517ad68504ad0068cabfba22b88192836339640e9a765a');
    const seen = upstream.requests.at(-1)!;
    expect(seen.url).toBe('/v1/responses');
    expect(seen.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
    expect(seen.body.equals(request.rawBody)).toBe(true);
  });

  it('plain: the JSON body comes back unchanged, usage read after the last byte', async () => {
    const file = 'openai-reasoning-encrypted-content.1.json';
    upstream.reply(jsonReply(DIALECT, file));
    const result = await passThrough(passRequest('gpt-5-mini', false), 'gpt-5-mini');
    expect((await drain(result)).toString('utf8')).toBe(fixtureText(DIALECT, file));
    expect(result.usage()).toEqual({ inputTokens: 865, outputTokens: 163, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 128 });
  });

  it('rewrites only the model when the channel maps it', async () => {
    upstream.reply(jsonReply(DIALECT, 'openai-pdf-input-file.1.json'));
    const request = passRequest('alias', false);
    await drain(await passThrough(request, 'gpt-4.1-nano'));
    expect(upstream.requests.at(-1)!.json()).toEqual({ ...request.body, model: 'gpt-4.1-nano' });
  });

  it('fails before any byte on an error status, so the router can fail over', async () => {
    upstream.reply(jsonReply(DIALECT, 'openai-error.1.json', 429));
    const failure = await passThrough(passRequest('gpt-5-mini', false), 'gpt-5-mini').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure).toMatchObject({ kind: 'rate_limited', retryable: true });
  });

  it('passes an in-stream failure through as bytes (the family frames nothing on top)', async () => {
    upstream.reply(sseReply(DIALECT, 'openai-error.1.chunks.txt'));
    const result = await passThrough(passRequest('gpt-5-nano', true), 'gpt-5-nano');
    const text = (await drain(result)).toString('utf8');
    expect(text).toContain('event: error');
    expect(text).toContain('event: response.failed');
    expect(result.usage()).toBeUndefined();
  });

  it('uses the OpenAI address when the channel names none', async () => {
    const { responsesUrl } = await import('../../../src/upstreams/openai-responses/endpoint.js');
    expect(responsesUrl(testCall({ baseUrl: '' }))).toBe('https://api.openai.com/v1/responses');
  });
});
