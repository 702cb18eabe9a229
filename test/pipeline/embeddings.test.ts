/**
 * The embeddings path's money rules, pinned without a server through the same
 * services and output as the chat pipeline: settled exactly once; charged
 * per input token as the upstream reported it (else as counted); nothing
 * charged when no upstream answered; failover before any byte; a refusal
 * calls no upstream; the quota hold is released at settlement; token-array
 * inputs go only to channels that take the client's body as it is.
 */
import { describe, expect, it } from 'vitest';
import type { EmbeddingRequest, EmbeddingResponse } from '../../src/core/embedding.js';
import { GatewayError, upstreamStatusError } from '../../src/core/errors.js';
import { completeUsage } from '../../src/pipeline/settle.js';
import { serveEmbeddings, type EmbeddingCall, type EmbeddingCodec } from '../../src/pipeline/embeddings.js';
import type { ClientKey } from '../../src/http/auth.js';
import type { EmbeddingPassThroughResult, UpstreamAdapter } from '../../src/upstreams/types.js';
import { channel, recordingOutput, services } from './fakes.js';

interface EmbedScript {
  type: string;
  calls: number;
  embed?: (request: EmbeddingRequest) => Promise<EmbeddingResponse>;
  passThrough?: () => Promise<EmbeddingPassThroughResult>;
}

const script = (type: string, parts: Partial<EmbedScript> = {}): EmbedScript => ({ type, calls: 0, ...parts });

function embedder(s: EmbedScript): UpstreamAdapter {
  return {
    type: s.type,
    embed: s.embed
      ? (request: EmbeddingRequest) => {
          s.calls++;
          return s.embed!(request);
        }
      : undefined,
    embedPassThrough: s.passThrough
      ? () => {
          s.calls++;
          return s.passThrough!();
        }
      : undefined,
  } as unknown as UpstreamAdapter;
}

const codec: EmbeddingCodec = {
  family: 'embeddings',
  render: (response, inputTokens) => ({ vectors: response.vectors, inputTokens }),
  renderError: (error) => ({ status: error.status, body: { error: error.message } }),
};

function embeddingCall(options: { tokenInput?: boolean } = {}): EmbeddingCall {
  const body = { model: 'm', input: options.tokenInput ? [[1, 2, 3]] : ['hello world'] };
  return {
    requestId: 'req_e',
    key: { record: { id: 'key_1', quota: 10 } } as unknown as ClientKey,
    clientIp: '127.0.0.1',
    headers: {},
    model: 'm',
    startedAt: Date.now(),
    request: { model: 'm', inputs: options.tokenInput ? [] : ['hello world'] },
    openAiBody: { rawBody: Buffer.from(JSON.stringify(body)), body, stream: false },
    needsPassThrough: options.tokenInput,
    countInput: () => 2,
  };
}

const vectors = [[0.6, 0.8]];

describe('the embeddings path', () => {
  it('settles an answer once, charged for the input tokens the upstream reported, and releases the quota hold', async () => {
    const a = script('a', { embed: async () => ({ vectors, inputTokens: 5 }) });
    const run = services([channel('a')], [embedder(a)], { quota: true });
    const output = recordingOutput();
    await serveEmbeddings(run.services, embeddingCall(), codec, output);
    expect(output.status).toBe(200);
    expect(JSON.parse(output.body!)).toEqual({ vectors, inputTokens: 5 });
    expect(run.settled).toHaveLength(1);
    expect(run.settled[0]).toMatchObject({ family: 'embeddings', answered: true, httpStatus: 200, channelId: 'ch_a', stream: false, reported: { inputTokens: 5, outputTokens: 0 } });
    expect(completeUsage(run.settled[0])).toMatchObject({ inputTokens: 5, outputTokens: 0 });
    expect(run.released).toEqual([0]);
  });

  it('charges the gateway’s count of the input when the upstream reports none', async () => {
    const a = script('a', { embed: async () => ({ vectors }) });
    const run = services([channel('a')], [embedder(a)]);
    const output = recordingOutput();
    await serveEmbeddings(run.services, embeddingCall(), codec, output);
    expect(JSON.parse(output.body!)).toEqual({ vectors, inputTokens: 2 });
    expect(completeUsage(run.settled[0])).toMatchObject({ inputTokens: 2, outputTokens: 0 });
  });

  it('fails over to the next channel before anything is sent, and settles once for the one that answered', async () => {
    const a = script('a', { embed: async () => Promise.reject(upstreamStatusError(503, 'down')) });
    const b = script('b', { embed: async () => ({ vectors, inputTokens: 4 }) });
    const run = services([channel('a'), channel('b')], [embedder(a), embedder(b)]);
    const output = recordingOutput();
    await serveEmbeddings(run.services, embeddingCall(), codec, output);
    expect([a.calls, b.calls]).toEqual([1, 1]);
    expect(output.status).toBe(200);
    expect(run.settled).toHaveLength(1);
    expect(run.settled[0].channelId).toBe('ch_b');
    expect(run.settled[0].attempts.map((attempt) => attempt.channelId)).toEqual(['ch_a', 'ch_b']);
  });

  it('charges nothing and calls no upstream when the key is refused, and still settles once', async () => {
    const a = script('a', { embed: async () => Promise.reject(new Error('must not be called')) });
    const run = services([channel('a')], [embedder(a)], {
      quota: true,
      authorize: () => {
        throw new GatewayError('permission', 'API key may not use model "m"');
      },
    });
    const output = recordingOutput();
    await serveEmbeddings(run.services, embeddingCall(), codec, output);
    expect(output.status).toBe(403);
    expect(a.calls).toBe(0);
    expect(run.settled).toHaveLength(1);
    expect(run.settled[0]).toMatchObject({ answered: false, httpStatus: 403, channelId: undefined, hold: undefined });
    expect(completeUsage(run.settled[0])).toMatchObject({ inputTokens: 0, outputTokens: 0 });
  });

  it('charges nothing when every channel fails, sends the error once and releases the hold', async () => {
    const a = script('a', { embed: async () => Promise.reject(upstreamStatusError(503, 'down')) });
    const run = services([channel('a')], [embedder(a)], { quota: true });
    const output = recordingOutput();
    await serveEmbeddings(run.services, embeddingCall(), codec, output);
    expect(output.status).toBe(503);
    expect(run.settled).toHaveLength(1);
    expect(run.settled[0].answered).toBe(false);
    expect(completeUsage(run.settled[0])).toMatchObject({ inputTokens: 0, outputTokens: 0 });
    expect(run.released).toEqual([0]);
  });

  it('routes token-array inputs only to a channel that takes the client’s body as it is, and sends its answer untouched', async () => {
    const a = script('a', { embed: async () => Promise.reject(new Error('must not be called')) });
    const raw = Buffer.from('{"data":[{"embedding":[1]}]}');
    const b = script('b', { passThrough: async () => ({ status: 200, contentType: 'application/json', body: raw, inputTokens: 3 }) });
    const run = services([channel('a'), channel('b')], [embedder(a), embedder(b)]);
    const output = recordingOutput();
    await serveEmbeddings(run.services, embeddingCall({ tokenInput: true }), codec, output);
    expect([a.calls, b.calls]).toEqual([0, 1]);
    expect(output.body).toBe(raw.toString());
    expect(run.settled[0]).toMatchObject({ channelId: 'ch_b', reported: { inputTokens: 3, outputTokens: 0 } });
  });

  it('refuses token-array inputs before routing when no channel takes them as they are', async () => {
    const a = script('a', { embed: async () => Promise.reject(new Error('must not be called')) });
    const run = services([channel('a')], [embedder(a)]);
    const output = recordingOutput();
    await serveEmbeddings(run.services, embeddingCall({ tokenInput: true }), codec, output);
    expect(output.status).toBe(400);
    expect(a.calls).toBe(0);
    expect(run.settled).toHaveLength(1);
    expect(run.settled[0]).toMatchObject({ answered: false, attempts: [] });
  });

  it('sends nothing to a client that went away, and still settles once', async () => {
    const output = recordingOutput();
    const a = script('a', {
      embed: async () => {
        output.disconnect();
        throw upstreamStatusError(503, 'down');
      },
    });
    const run = services([channel('a')], [embedder(a)]);
    await serveEmbeddings(run.services, embeddingCall(), codec, output);
    expect(output.status).toBeUndefined();
    expect(run.settled).toHaveLength(1);
    expect(run.settled[0].answered).toBe(false);
  });
});
