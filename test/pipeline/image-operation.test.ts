/**
 * The image path's money rules, pinned without a server: the quota hold
 * carries the images at the model's per-image price; settled exactly once
 * with the images made and the tokens the upstream reported; a server's
 * answer kept byte for byte with its images counted; failover before any
 * byte; nothing charged when no upstream answered; channels whose adapter
 * does not offer the operation are never asked.
 */
import { describe, expect, it } from 'vitest';
import { upstreamStatusError } from '../../src/core/errors.js';
import type { ClientKey } from '../../src/http/auth.js';
import { serveImageOperation, type ImageCall, type ImageCodec } from '../../src/pipeline/image-operation.js';
import type { ImagePassThroughResult, ImageRequest, ImageResponse, ImageStreamResult } from '../../src/dialects/openai-images/wire.js';
import type { UpstreamAdapter } from '../../src/upstreams/types.js';
import { channel, recordingOutput, services } from './fakes.js';

interface Script {
  type: string;
  calls: number;
  offered?: boolean;
  serve?: (request: ImageRequest) => Promise<ImageResponse>;
  passThrough?: () => Promise<ImagePassThroughResult>;
  stream?: () => Promise<ImageStreamResult>;
}

const script = (type: string, parts: Partial<Script> = {}): Script => ({ type, calls: 0, ...parts });

function imager(s: Script): UpstreamAdapter {
  return {
    type: s.type,
    images: {
      offered: () => s.offered !== false,
      serve: s.serve
        ? (request: ImageRequest) => {
            s.calls++;
            return s.serve!(request);
          }
        : undefined,
      passThrough: s.passThrough
        ? () => {
            s.calls++;
            return s.passThrough!();
          }
        : undefined,
      passThroughStream: s.stream
        ? () => {
            s.calls++;
            return s.stream!();
          }
        : undefined,
    },
  } as unknown as UpstreamAdapter;
}

const codec: ImageCodec = {
  family: 'image-generations',
  perImageUsd: (model) => (model === 'priced' ? 0.04 : 0),
  render: async (response) => ({ data: response.images.map((image) => ({ b64_json: image.bytes?.toString('base64') })) }),
  renderError: (error) => ({ status: error.status, body: { error: error.message } }),
};

function imageCall(model = 'priced', n = 3, stream = false): ImageCall {
  return {
    requestId: 'req_i',
    key: { record: { id: 'key_1', quota: 10 } } as unknown as ClientKey,
    clientIp: '127.0.0.1',
    headers: {},
    startedAt: Date.now(),
    request: { operation: 'generations', model, prompt: 'a red kite over the sea', n, responseFormat: 'b64_json', outputFormat: 'png', images: [], stream },
    body: { withModel: (name) => ({ contentType: 'application/json', bytes: Buffer.from(JSON.stringify({ model: name, prompt: 'a red kite over the sea', n })) }) },
  };
}

const made = (n: number, tokens?: { inputTokens: number; outputTokens: number }): ImageResponse => ({
  images: Array.from({ length: n }, (_, i) => ({ bytes: Buffer.from(`img${i}`) })),
  ...tokens,
});

describe('the image path', () => {
  it('holds the images at the per-image price, and settles once with the images made and the reported tokens', async () => {
    const sim = script('sim', { serve: async (request) => made(request.n, { inputTokens: 7, outputTokens: 300 }) });
    const recorded = services([channel('sim')], [imager(sim)], { quota: true });
    const holds: unknown[] = [];
    const hold = recorded.services.holdQuota;
    recorded.services.holdQuota = (key, model, request) => {
      holds.push(request);
      return hold(key, model, request);
    };
    const out = recordingOutput();
    await serveImageOperation(recorded.services, imageCall(), codec, out);
    expect(out.status).toBe(200);
    expect(JSON.parse(out.body!).data).toHaveLength(3);
    expect(holds).toEqual([expect.objectContaining({ perUnitUsd: expect.closeTo(0.12, 10), outputTokens: 0 })]);
    expect(recorded.settled).toHaveLength(1);
    expect(recorded.settled[0]).toMatchObject({ family: 'image-generations', images: 3, answered: true, reported: { inputTokens: 7, outputTokens: 300 } });
    expect(recorded.released).toHaveLength(1);
  });

  it('keeps a server answer byte for byte and counts its images; an upstream without tokens is charged no output tokens', async () => {
    const body = Buffer.from('{"created":1,"data":[{"url":"https://example.com/a.png"},{"url":"https://example.com/b.png"}]}');
    const openai = script('openai', { passThrough: async () => ({ status: 200, contentType: 'application/json', body, images: 2 }) });
    const recorded = services([channel('openai')], [imager(openai)]);
    const out = recordingOutput();
    await serveImageOperation(recorded.services, imageCall('dall-e-3', 2), codec, out);
    expect(out.body).toBe(body.toString());
    expect(recorded.settled[0]).toMatchObject({ images: 2, reported: { inputTokens: undefined, outputTokens: 0 } });
  });

  it('fails over before any byte, and never asks a channel whose adapter does not offer images', async () => {
    const off = script('off', { offered: false, serve: async () => made(1) });
    const down = script('down', { serve: async () => Promise.reject(upstreamStatusError(503, 'down')) });
    const sim = script('sim', { serve: async (request) => made(request.n) });
    const recorded = services([channel('off'), channel('down'), channel('sim')], [imager(off), imager(down), imager(sim)]);
    const out = recordingOutput();
    await serveImageOperation(recorded.services, imageCall('free', 1), codec, out);
    expect(out.status).toBe(200);
    expect([off.calls, down.calls, sim.calls]).toEqual([0, 1, 1]);
    expect(recorded.settled[0].attempts).toHaveLength(2);
    expect(recorded.settled[0].channelId).toBe('ch_sim');
  });

  it('charges nothing when no upstream answered', async () => {
    const down = script('down', { serve: async () => Promise.reject(upstreamStatusError(500, 'down')) });
    const recorded = services([channel('down')], [imager(down)], { quota: true });
    const out = recordingOutput();
    await serveImageOperation(recorded.services, imageCall(), codec, out);
    expect(out.status).toBeGreaterThanOrEqual(500);
    expect(recorded.settled).toHaveLength(1);
    expect(recorded.settled[0]).toMatchObject({ answered: false, images: 0 });
    expect(recorded.released).toEqual([0]);
  });

  it('streams events as they come; a stream cut after a completed image ends with an error event and is charged for that image', async () => {
    let completed = 0;
    async function* chunks() {
      yield Buffer.from('event: image_generation.partial_image\ndata: {}\n\n');
      completed = 1;
      yield Buffer.from('event: image_generation.completed\ndata: {}\n\n');
      throw upstreamStatusError(502, 'cut');
    }
    const openai = script('openai', { stream: async () => ({ contentType: 'text/event-stream', chunks: chunks(), read: () => ({ images: completed, inputTokens: 4, outputTokens: 100 }) }) });
    const sim = script('sim', { serve: async (request) => made(request.n) });
    const recorded = services([channel('openai'), channel('sim')], [imager(openai), imager(sim)]);
    const out = recordingOutput();
    await serveImageOperation(recorded.services, imageCall('priced', 2, true), codec, out);
    expect(sim.calls).toBe(0);
    expect(out.chunks).toHaveLength(3);
    expect(out.chunks[2]).toMatch(/^event: error\ndata: \{"type":"error"/);
    expect(out.ended).toBe(true);
    expect(recorded.settled[0]).toMatchObject({ stream: true, answered: true, images: 1, reported: { inputTokens: 4, outputTokens: 100 } });
    expect(recorded.settled[0].error).toBeDefined();
  });
});
