/**
 * The audio path's money rules, pinned without a server: the quota hold
 * carries a WAV upload's seconds at the model's per-second price; settled
 * once with the seconds (the upload's own over what the upstream reports)
 * and the reported tokens; a server's answer streamed on chunk by chunk;
 * failover before any byte; a channel that refuses the request skipped
 * before routing, the first refusal answered when all do; nothing charged
 * when no upstream answered.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError, upstreamStatusError } from '../../src/core/errors.js';
import type { ClientKey } from '../../src/http/auth.js';
import { serveAudioOperation, type AudioCall, type AudioCodec } from '../../src/pipeline/audio-operation.js';
import type { AudioPassThroughResult, AudioResponse } from '../../src/dialects/openai-audio/wire.js';
import type { UpstreamAdapter } from '../../src/upstreams/types.js';
import { channel, recordingOutput, services } from './fakes.js';

function audio(type: string, parts: { serve?: () => Promise<AudioResponse>; passThrough?: () => Promise<AudioPassThroughResult>; offered?: boolean }, calls: string[]): UpstreamAdapter {
  const counted = <T>(run?: () => Promise<T>) =>
    run
      ? () => {
          calls.push(type);
          return run();
        }
      : undefined;
  return { type, audio: { offered: () => parts.offered !== false, serve: counted(parts.serve), passThrough: counted(parts.passThrough) } } as unknown as UpstreamAdapter;
}

const codec: AudioCodec = {
  family: 'audio-transcriptions',
  perSecondUsd: (model) => (model === 'priced' ? 0.01 : 0),
  render: (response) => ({ contentType: 'application/json', body: JSON.stringify(response.kind === 'transcript' ? { text: response.text } : {}) }),
  renderError: (error) => ({ status: error.status, body: { error: error.message } }),
};

function transcriptionCall(uploadSeconds?: number): AudioCall {
  return {
    requestId: 'req_a',
    key: { record: { id: 'key_1', quota: 10 } } as unknown as ClientKey,
    clientIp: '127.0.0.1',
    headers: {},
    startedAt: Date.now(),
    request: { operation: 'transcriptions', model: 'priced', file: { bytes: Buffer.from('audio') }, responseFormat: 'json', stream: false },
    body: { withModel: () => ({ contentType: 'multipart/form-data; boundary=x', bytes: Buffer.from('form') }) },
    uploadSeconds,
  };
}

const transcript: AudioResponse = { kind: 'transcript', text: 'hi', language: 'english', duration: 9, segments: [], seconds: 9 };

describe('the audio path', () => {
  it("holds the upload's seconds at the per-second price and settles them over the upstream's report", async () => {
    const calls: string[] = [];
    const recorded = services([channel('sim')], [audio('sim', { serve: async () => transcript }, calls)], { quota: true });
    const holds: unknown[] = [];
    const hold = recorded.services.holdQuota;
    recorded.services.holdQuota = (key, model, request) => {
      holds.push(request);
      return hold(key, model, request);
    };
    const out = recordingOutput();
    await serveAudioOperation(recorded.services, transcriptionCall(4), codec, out);
    expect(out.status).toBe(200);
    expect(JSON.parse(out.body!)).toEqual({ text: 'hi' });
    expect(holds).toEqual([expect.objectContaining({ perUnitUsd: expect.closeTo(0.04, 10) })]);
    expect(recorded.settled).toHaveLength(1);
    expect(recorded.settled[0]).toMatchObject({ family: 'audio-transcriptions', audioSeconds: 4, answered: true, stream: false });
    expect(recorded.released).toHaveLength(1);
  });

  it("streams a server's answer chunk by chunk and settles the seconds and tokens it read, after failing over", async () => {
    const calls: string[] = [];
    async function* chunks() {
      yield Buffer.from('{"text":');
      yield Buffer.from('"hi"}');
    }
    const down = audio('down', { serve: async () => Promise.reject(upstreamStatusError(503, 'down')) }, calls);
    const off = audio('off', { offered: false, serve: async () => transcript }, calls);
    const openai = audio(
      'openai',
      { passThrough: async () => ({ status: 200, contentType: 'application/json', chunks: chunks(), read: () => ({ seconds: 3, inputTokens: 5, outputTokens: 1 }) }) },
      calls,
    );
    const recorded = services([channel('off'), channel('down'), channel('openai')], [off, down, openai]);
    const out = recordingOutput();
    await serveAudioOperation(recorded.services, transcriptionCall(), codec, out);
    expect(calls).toEqual(['down', 'openai']);
    expect(out.chunks.map(String)).toEqual(['{"text":', '"hi"}']);
    expect(out.ended).toBe(true);
    expect(recorded.settled[0]).toMatchObject({ audioSeconds: 3, reported: { inputTokens: 5, outputTokens: 1 }, channelId: 'ch_openai' });
  });

  it('holds speech at its likely seconds (15 characters a second, divided by the speed)', async () => {
    const speech: AudioResponse = { kind: 'speech', contentType: 'audio/wav', bytes: Buffer.from('RIFF'), seconds: 2 };
    const recorded = services([channel('sim')], [audio('sim', { serve: async () => speech }, [])], { quota: true });
    const holds: unknown[] = [];
    const hold = recorded.services.holdQuota;
    recorded.services.holdQuota = (key, model, request) => {
      holds.push(request);
      return hold(key, model, request);
    };
    const call: AudioCall = {
      ...transcriptionCall(),
      request: { operation: 'speech', model: 'priced', input: 'x'.repeat(60), voice: 'alloy', responseFormat: 'wav', speed: 2, streamFormat: 'audio' },
    };
    const out = recordingOutput();
    await serveAudioOperation(recorded.services, call, { ...codec, family: 'audio-speech' }, out);
    expect(out.status).toBe(200);
    expect(holds).toEqual([expect.objectContaining({ inputBytes: 60, perUnitUsd: expect.closeTo(0.02, 10) })]);
    expect(recorded.settled[0]).toMatchObject({ family: 'audio-speech', audioSeconds: 2 });
  });

  it('skips a channel that refuses the request before routing, and answers the first refusal when every channel refuses', async () => {
    const calls: string[] = [];
    const refusing = (type: string) => {
      const adapter = audio(type, { serve: async () => transcript }, calls);
      adapter.audio!.refusal = () => new GatewayError('invalid_request', `Invalid 'response_format': ${type} cannot`, { param: 'response_format' });
      return adapter;
    };
    const served = services([channel('gemini'), channel('sim')], [refusing('gemini'), audio('sim', { serve: async () => transcript }, calls)]);
    const out = recordingOutput();
    await serveAudioOperation(served.services, transcriptionCall(), codec, out);
    expect(out.status).toBe(200);
    expect(calls).toEqual(['sim']);

    const none = services([channel('gemini'), channel('other')], [refusing('gemini'), refusing('other')]);
    const refused = recordingOutput();
    await serveAudioOperation(none.services, transcriptionCall(), codec, refused);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body!)).toEqual({ error: "Invalid 'response_format': gemini cannot" });
    expect(calls).toEqual(['sim']);
    expect(none.settled[0]).toMatchObject({ answered: false, httpStatus: 400 });
  });

  it('charges nothing when no upstream answered', async () => {
    const recorded = services([channel('down')], [audio('down', { serve: async () => Promise.reject(upstreamStatusError(500, 'down')) }, [])], { quota: true });
    const out = recordingOutput();
    await serveAudioOperation(recorded.services, transcriptionCall(2), codec, out);
    expect(out.status).toBeGreaterThanOrEqual(500);
    expect(recorded.settled[0]).toMatchObject({ answered: false });
    expect(recorded.released).toEqual([0]);
  });
});
