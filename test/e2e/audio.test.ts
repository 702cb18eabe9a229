/**
 * `POST /v1/audio/speech`, `/v1/audio/transcriptions` and
 * `/v1/audio/translations` through the official OpenAI client, on SQLite and
 * PostgreSQL: WAV and pcm speech on the simulator (the header read, the
 * length from the input), transcripts in every response_format and as
 * streamed events, the body
 * passed as it is to a loopback fake of OpenAI's audio endpoints (JSON and
 * the multipart form, the model mapped, the answer's bytes kept), 400s
 * naming the field, the 404 of a model no audio channel serves, failover,
 * and the log rows with their cost per second and per token.
 */
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toneWav } from '../../src/dialects/openai-audio/wav.js';
import { startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';

const KEY = 'sk-client-audio-01';
const upstreamWav = toneWav(0.5);
const transcribed = { text: 'hello from upstream', usage: { type: 'tokens', input_tokens: 20, output_tokens: 5, total_tokens: 25 } };
const translated = { task: 'translate', language: 'english', duration: 3.5, text: 'hello', segments: [] };

const sse = (data: object) => `data: ${JSON.stringify(data)}\n\n`;
const streamedEvents = [
  sse({ type: 'transcript.text.delta', delta: 'hello', logprobs: [] }),
  sse({ type: 'transcript.text.delta', delta: ' world', logprobs: [] }),
  sse({ type: 'transcript.text.done', text: 'hello world', usage: { type: 'tokens', input_tokens: 40, output_tokens: 2, total_tokens: 42 } }),
];

const wavFields = (bytes: Buffer) => ({ riff: bytes.toString('latin1', 0, 4), wave: bytes.toString('latin1', 8, 12), rate: bytes.readUInt32LE(24), dataBytes: bytes.readUInt32LE(40) });

describe.each(ENGINES)('audio on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;
  let upstream: FakeUpstream;
  let client: OpenAI;

  const logsFor = async (model: string) => {
    await gw.gateway.ctx.recorder.flush();
    return (await gw.admin('GET', `/logs?model=${model}`)).body.data as any[];
  };

  beforeAll(async () => {
    upstream = await startFakeUpstream((request) => {
      if (request.url.endsWith('/audio/speech')) return { status: 200, headers: { 'content-type': 'audio/wav' }, chunks: [upstreamWav.subarray(0, 100), upstreamWav.subarray(100)] };
      if (request.body.includes('name="stream"\r\n\r\ntrue')) return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: streamedEvents };
      if (request.url.endsWith('/audio/translations')) return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(translated) };
      return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(transcribed) };
    });
    place = await createPlace(engine);
    gw = await place.start({
      config: {
        channels: [
          { name: 'openai', type: 'openai-chat', baseUrl: `${upstream.origin}/v1`, apiKey: 'sk-upstream-openai', models: ['gpt-4o-mini-tts', 'whisper-1'], settings: { audioEndpoint: true } },
          {
            name: 'responses',
            type: 'openai-responses',
            baseUrl: `${upstream.origin}/v1`,
            apiKey: 'sk-upstream-resp',
            models: ['my-transcribe'],
            modelMapping: { 'my-transcribe': 'gpt-4o-transcribe' },
            settings: { audioEndpoint: true },
          },
          // Not OpenAI's address and no setting: this server is not asked for audio.
          { name: 'local', type: 'openai-chat', baseUrl: `${upstream.origin}/v1`, models: ['local-tts'] },
          { name: 'down', type: 'simulator', models: ['audio-failover'], priority: 10, settings: { failStatus: 500 } },
          { name: 'sim', type: 'simulator', models: ['sim-tts', 'sim-whisper', 'audio-failover'], priority: 1 },
        ],
        keys: [{ name: 'client', key: KEY }],
        prices: {
          'sim-tts': { perSecond: 0.001 },
          'sim-whisper': { perSecond: 0.0001 },
          'whisper-1': { perSecond: 0.0001 },
          'my-transcribe': { input: 2.5, output: 10 },
          'gpt-4o-mini-tts': { input: 1 },
        },
      },
    });
    client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: KEY, maxRetries: 0 });
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
    await upstream?.close();
  });

  it('speaks a WAV on the simulator as long as the input takes to read, billed per second', async () => {
    const input = 'x'.repeat(45);
    const response = await client.audio.speech.create({ model: 'sim-tts', input, voice: 'alloy', response_format: 'wav' });
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const bytes = Buffer.from(await response.arrayBuffer());
    const header = wavFields(bytes);
    expect(header).toMatchObject({ riff: 'RIFF', wave: 'WAVE', rate: 24_000 });
    expect(header.dataBytes / 48_000).toBeCloseTo(3, 3);
    const [row] = await logsFor('sim-tts');
    expect(row).toMatchObject({ family: 'audio-speech', httpStatus: 200 });
    expect(row.cost).toBeCloseTo(0.003, 8);

    const pcm = await client.audio.speech.create({ model: 'sim-tts', input, voice: { id: 'voice_1' } as never, response_format: 'pcm', speed: 2 });
    expect(pcm.headers.get('content-type')).toBe('audio/pcm');
    expect((await pcm.arrayBuffer()).byteLength).toBe(1.5 * 48_000);
  });

  it('refuses mp3 on the simulator naming response_format, and bad input naming the field', async () => {
    const mp3 = await client.audio.speech.create({ model: 'sim-tts', input: 'hi', voice: 'alloy' }).catch((e) => e);
    expect(mp3.status).toBe(400);
    expect(mp3.error.param).toBe('response_format');
    const sse = await client.audio.speech.create({ model: 'sim-tts', input: 'hi', voice: 'alloy', response_format: 'wav', stream_format: 'sse' }).catch((e) => e);
    expect(sse.status).toBe(400);
    expect(sse.error.param).toBe('stream_format');
    const long = await client.audio.speech.create({ model: 'sim-tts', input: 'x'.repeat(4097), voice: 'alloy', response_format: 'wav' }).catch((e) => e);
    expect(long.status).toBe(400);
    expect(long.error.param).toBe('input');
    const voice = await client.audio.speech.create({ model: 'sim-tts', input: 'hi', response_format: 'wav' } as never).catch((e) => e);
    expect(voice.status).toBe(400);
    expect(voice.error.param).toBe('voice');
    const format = await client.audio.transcriptions.create({ model: 'sim-whisper', file: await toFile(toneWav(1), 'a.wav'), response_format: 'ogg' as never }).catch((e) => e);
    expect(format.status).toBe(400);
    expect(format.error.param).toBe('response_format');
    const noFile = await fetch(`${gw.url}/v1/audio/transcriptions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: formWith({ model: 'sim-whisper' }) });
    expect(noFile.status).toBe(400);
    expect(((await noFile.json()) as any).error.param).toBe('file');
    const before = upstream.requests.length;
    const missing = await client.audio.speech.create({ model: 'local-tts', input: 'hi', voice: 'alloy' }).catch((e) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect(upstream.requests.length).toBe(before);
  });

  it('transcribes a WAV on the simulator in every response_format, billed by its seconds', async () => {
    const file = () => toFile(toneWav(7), 'speech.wav', { type: 'audio/wav' });
    const json = await client.audio.transcriptions.create({ model: 'sim-whisper', file: await file() });
    expect(json.text).toMatch(/^Simulated transcript of 7 seconds of audio [0-9a-f]{8}: /);
    const again = await client.audio.transcriptions.create({ model: 'sim-whisper', file: await file() });
    expect(again.text).toBe(json.text);
    const text = await client.audio.transcriptions.create({ model: 'sim-whisper', file: await file(), response_format: 'text' });
    expect(text).toBe(`${json.text}\n`);
    const verbose = await client.audio.transcriptions.create({ model: 'sim-whisper', file: await file(), response_format: 'verbose_json', timestamp_granularities: ['segment'] });
    expect(verbose).toMatchObject({ language: 'english', duration: 7, text: json.text });
    expect(verbose.segments!.map((s) => [s.start, s.end])).toEqual([
      [0, 5],
      [5, 7],
    ]);
    const srt = await client.audio.transcriptions.create({ model: 'sim-whisper', file: await file(), response_format: 'srt' });
    expect(srt).toMatch(/^1\n00:00:00,000 --> 00:00:05,000\nSimulated cue 1 of audio [0-9a-f]{8}\.\n\n2\n00:00:05,000 --> 00:00:07,000\n/);
    const vtt = await client.audio.transcriptions.create({ model: 'sim-whisper', file: await file(), response_format: 'vtt' });
    expect(vtt).toMatch(/^WEBVTT\n\n00:00:00\.000 --> 00:00:05\.000\n/);
    const rows = await logsFor('sim-whisper');
    expect(rows[0]).toMatchObject({ family: 'audio-transcriptions', httpStatus: 200 });
    expect(rows[0].cost).toBeCloseTo(0.0007, 10);
  });

  it('translates on the simulator', async () => {
    const answer = await client.audio.translations.create({ model: 'sim-whisper', file: await toFile(Buffer.alloc(32_000, 1), 'speech.mp3') });
    expect(answer.text).toMatch(/^Simulated translation of 2 seconds of audio /);
    const [row] = await logsFor('sim-whisper');
    expect(row).toMatchObject({ family: 'audio-translations', httpStatus: 200 });
  });

  it("passes speech's JSON as it is to OpenAI's audio endpoint and streams the answer's bytes back", async () => {
    const response = await client.audio.speech.create({ model: 'gpt-4o-mini-tts', input: 'hello there', voice: 'coral', instructions: 'cheerful', response_format: 'wav' });
    expect(Buffer.from(await response.arrayBuffer()).equals(upstreamWav)).toBe(true);
    const seen = upstream.requests.at(-1)!;
    expect(seen.url).toBe('/v1/audio/speech');
    expect(seen.headers.authorization).toBe('Bearer sk-upstream-openai');
    expect(seen.json()).toEqual({ model: 'gpt-4o-mini-tts', input: 'hello there', voice: 'coral', instructions: 'cheerful', response_format: 'wav' });
    const [row] = await logsFor('gpt-4o-mini-tts');
    expect(row).toMatchObject({ family: 'audio-speech', httpStatus: 200, inputTokens: expect.any(Number) });
    expect(row.inputTokens).toBeGreaterThan(0);
    expect(row.cost).toBeCloseTo(row.inputTokens / 1_000_000, 12);
  });

  it('passes a transcription as a multipart form, the model mapped, and bills the tokens the server reports', async () => {
    const answer = await client.audio.transcriptions.create({
      model: 'my-transcribe',
      file: await toFile(Buffer.from('not a wav'), 'a.mp3', { type: 'audio/mpeg' }),
      language: 'de',
      timestamp_granularities: ['word', 'segment'],
      response_format: 'json',
    });
    expect(answer).toEqual(transcribed);
    const seen = upstream.requests.at(-1)!;
    expect(seen.url).toBe('/v1/audio/transcriptions');
    expect(seen.headers.authorization).toBe('Bearer sk-upstream-resp');
    const text = seen.body.toString('latin1');
    expect(text).toContain('name="model"\r\n\r\ngpt-4o-transcribe\r\n');
    expect(text).toContain('name="language"\r\n\r\nde\r\n');
    expect(text.match(/name="timestamp_granularities\[\]"/g)).toHaveLength(2);
    expect(text).toContain('name="file"; filename="a.mp3"\r\nContent-Type: audio/mpeg\r\n\r\nnot a wav\r\n');
    const [row] = await logsFor('my-transcribe');
    expect(row).toMatchObject({ family: 'audio-transcriptions', inputTokens: 20, outputTokens: 5 });
    expect(row.cost).toBeCloseTo((20 * 2.5 + 5 * 10) / 1_000_000, 12);
  });

  it("bills a translation by the duration the server's verbose answer reports", async () => {
    const answer = await client.audio.translations.create({ model: 'whisper-1', file: await toFile(Buffer.from('opaque'), 'a.ogg'), response_format: 'verbose_json' });
    expect(answer).toEqual(translated);
    const [row] = await logsFor('whisper-1');
    expect(row).toMatchObject({ family: 'audio-translations', httpStatus: 200 });
    expect(row.cost).toBeCloseTo(0.00035, 10);
  });

  it('streams transcript events on the simulator, the deltas making the done text', async () => {
    const stream = await client.audio.transcriptions.create({ model: 'sim-whisper', file: await toFile(toneWav(6), 'a.wav'), stream: true });
    let text = '';
    let done: any;
    for await (const event of stream) {
      if (event.type === 'transcript.text.delta') text += event.delta;
      else done = event;
    }
    expect(done).toMatchObject({ type: 'transcript.text.done', usage: { type: 'duration', seconds: 6 } });
    expect(text).toBe(done.text);
    expect(text).toMatch(/^Simulated transcript of 6 seconds/);
    const [row] = await logsFor('sim-whisper');
    expect(row).toMatchObject({ family: 'audio-transcriptions', stream: true, httpStatus: 200 });
    const translated = await client.audio.translations.create({ model: 'sim-whisper', file: await toFile(toneWav(1), 'a.wav'), stream: true } as never).catch((e) => e);
    expect(translated.status).toBe(400);
    expect(translated.error.param).toBe('stream');
  });

  it("passes a streamed transcription on and forwards the server's events, billed by the done event's usage", async () => {
    const stream = await client.audio.transcriptions.create({ model: 'my-transcribe', file: await toFile(Buffer.from('x'), 'a.mp3'), stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual(['transcript.text.delta', 'transcript.text.delta', 'transcript.text.done']);
    const [row] = await logsFor('my-transcribe');
    expect(row).toMatchObject({ family: 'audio-transcriptions', stream: true, inputTokens: 40, outputTokens: 2 });
  });

  it('fails over from a failing channel to the next', async () => {
    const response = await client.audio.speech.create({ model: 'audio-failover', input: 'hi', voice: 'alloy', response_format: 'wav' });
    expect(wavFields(Buffer.from(await response.arrayBuffer())).riff).toBe('RIFF');
    const [row] = await logsFor('audio-failover');
    expect(row).toMatchObject({ family: 'audio-speech', httpStatus: 200, triedChannels: ['down', 'sim'] });
  });
});

function formWith(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}
