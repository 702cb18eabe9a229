/**
 * OpenAI audio requests on a `gemini` channel, translated: the official
 * client's `audio.speech.create`, `audio.transcriptions.create` and
 * `audio.translations.create` against a loopback fake of the Gemini API
 * answering in the documented shape (the hand-made TTS fixture), on SQLite
 * and PostgreSQL. Speech is one `generateContent` asking for audio in the
 * voice the table maps, its PCM given back as WAV or pcm and billed by the
 * tokens and the seconds; a transcription sends the file inline with the
 * instruction, the language and the prompt, billed by tokens. What Gemini
 * cannot make is a 400 naming the field before any call, unless another
 * channel of the model can make it. Speech asked as `stream_format: sse`
 * (pcm) is one `streamGenerateContent`, each chunk's audio an OpenAI
 * `speech.audio.delta` event. A `vertex` channel does the same for
 * Google's models.
 */
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toneWav } from '../../src/dialects/openai-audio/wav.js';
import { startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { fixtureJson } from '../upstreams/support/fixtures.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { startFakeVertex, type FakeVertex } from '../support/fake-vertex.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';

const KEY = 'sk-client-gemini-audio-01';
const TTS = 'gemini-2.5-flash-preview-tts';
const ttsAnswer = fixtureJson('gemini', 'gemini-tts.json');
const pcm = Buffer.from(ttsAnswer.candidates[0].content.parts[0].inlineData.data, 'base64');
const transcriptAnswer = {
  candidates: [{ content: { role: 'model', parts: [{ text: ' hello from gemini\n' }] }, finishReason: 'STOP' }],
  usageMetadata: { promptTokenCount: 120, candidatesTokenCount: 4 },
};
const openaiMp3 = Buffer.from('ID3 pretend mp3 bytes');
// The TTS answer streamed: its samples in two chunks, the usage on the last (as streamGenerateContent reports it).
const ttsPart = (data: Buffer) => ({ inlineData: { mimeType: ttsAnswer.candidates[0].content.parts[0].inlineData.mimeType, data: data.toString('base64') } });
const ttsChunks = [
  { candidates: [{ content: { role: 'model', parts: [ttsPart(pcm.subarray(0, 2400))] } }] },
  { candidates: [{ content: { role: 'model', parts: [ttsPart(pcm.subarray(2400))] }, finishReason: 'STOP' }], usageMetadata: ttsAnswer.usageMetadata },
];

const wavFields = (bytes: Buffer) => ({ riff: bytes.toString('latin1', 0, 4), wave: bytes.toString('latin1', 8, 12), rate: bytes.readUInt32LE(24), dataBytes: bytes.readUInt32LE(40) });

describe.each(ENGINES)('audio on gemini channels on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;
  let upstream: FakeUpstream;
  let client: OpenAI;

  const logsFor = async (model: string) => {
    await gw.gateway.ctx.recorder.flush();
    return (await gw.admin('GET', `/logs?model=${model}`)).body.data as any[];
  };
  const refused = async (run: Promise<unknown>, param: string) => {
    const before = upstream.requests.length;
    const error: any = await run.catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.error.param).toBe(param);
    expect(upstream.requests.length).toBe(before);
  };

  beforeAll(async () => {
    upstream = await startFakeUpstream((request) => {
      if (request.url === '/v1/audio/speech') return { status: 200, headers: { 'content-type': 'audio/mpeg' }, body: openaiMp3 };
      if (request.url.includes(':streamGenerateContent')) {
        const chunks = request.url.includes('-tts:') ? ttsChunks : [transcriptAnswer];
        return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join('') };
      }
      if (request.url.includes('-tts:')) return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(ttsAnswer) };
      return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(transcriptAnswer) };
    });
    place = await createPlace(engine);
    gw = await place.start({
      config: {
        channels: [
          { name: 'gemini', type: 'gemini', baseUrl: upstream.origin, apiKey: 'gm-upstream-key', models: [TTS, 'gemini-2.5-flash', 'gemini-text-only', 'shared-tts'], priority: 10 },
          // Another channel of one model, with OpenAI's endpoint: what Gemini cannot make goes there.
          { name: 'openai', type: 'openai-chat', baseUrl: `${upstream.origin}/v1`, apiKey: 'sk-upstream-openai', models: ['shared-tts'], priority: 1, settings: { audioEndpoint: true } },
        ],
        keys: [{ name: 'client', key: KEY }],
        prices: { [TTS]: { input: 0.5, output: 10, perSecond: 0.01 }, 'gemini-2.5-flash': { input: 1, output: 2.5 } },
      },
    });
    client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: KEY, maxRetries: 0 });
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
    await upstream?.close();
  });

  it('speaks a WAV: one generateContent asking for audio in the mapped voice, the instructions as a style direction, billed by tokens and seconds', async () => {
    const response = await client.audio.speech.create({ model: TTS, input: 'Have a wonderful day!', voice: 'alloy', instructions: 'Say cheerfully.', response_format: 'wav' });
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(wavFields(bytes)).toEqual({ riff: 'RIFF', wave: 'WAVE', rate: 24_000, dataBytes: pcm.length });
    expect(bytes.subarray(44).equals(pcm)).toBe(true);
    const sent = upstream.requests.at(-1)!;
    expect(sent.url).toBe(`/v1beta/models/${TTS}:generateContent`);
    expect(sent.headers['x-goog-api-key']).toBe('gm-upstream-key');
    expect(sent.json()).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Say cheerfully: Have a wonderful day!' }] }],
      generationConfig: { responseModalities: ['AUDIO'], speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } } },
    });
    const [row] = await logsFor(TTS);
    expect(row).toMatchObject({ family: 'audio-speech', httpStatus: 200, inputTokens: 9, outputTokens: 3 });
    // 4800 bytes of 24 kHz 16-bit samples are 0.1 s.
    expect(row.cost).toBeCloseTo((9 * 0.5 + 3 * 10) / 1_000_000 + 0.1 * 0.01, 10);
  });

  it('answers pcm as the samples themselves, and takes a Gemini voice by its own name', async () => {
    const response = await client.audio.speech.create({ model: TTS, input: 'hi', voice: 'puck' as never, response_format: 'pcm' });
    expect(response.headers.get('content-type')).toBe('audio/pcm');
    expect(Buffer.from(await response.arrayBuffer()).equals(pcm)).toBe(true);
    const body = upstream.requests.at(-1)!.json() as any;
    expect(body.generationConfig.speechConfig.voiceConfig.prebuiltVoiceConfig.voiceName).toBe('Puck');
    expect(body.contents[0].parts[0].text).toBe('hi');
  });

  it('refuses before any call what Gemini speech cannot make, naming the field', async () => {
    await refused(client.audio.speech.create({ model: TTS, input: 'hi', voice: 'alloy' }), 'response_format');
    await refused(client.audio.speech.create({ model: TTS, input: 'hi', voice: 'alloy', response_format: 'wav', speed: 1.5 }), 'speed');
    await refused(client.audio.speech.create({ model: TTS, input: 'hi', voice: 'nobody' as never, response_format: 'wav' }), 'voice');
    await refused(client.audio.speech.create({ model: TTS, input: 'hi', voice: 'alloy', response_format: 'wav', stream_format: 'sse' }), 'stream_format');
  });

  it('streams pcm speech asked as sse: a speech.audio.delta per chunk of streamGenerateContent, then speech.audio.done with the usage', async () => {
    const response = await client.audio.speech.create({ model: TTS, input: 'Have a wonderful day!', voice: 'alloy', response_format: 'pcm', stream_format: 'sse' });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await response.text())
      .split('\n\n')
      .filter((frame) => frame !== '')
      .map((frame) => JSON.parse(frame.replace(/^data: /, '')));
    expect(events.map((event) => event.type)).toEqual(['speech.audio.delta', 'speech.audio.delta', 'speech.audio.done']);
    expect(Buffer.concat(events.slice(0, 2).map((event) => Buffer.from(event.audio, 'base64'))).equals(pcm)).toBe(true);
    expect(events[2]).toEqual({ type: 'speech.audio.done', usage: { input_tokens: 9, output_tokens: 3, total_tokens: 12 } });
    const sent = upstream.requests.at(-1)!;
    expect(sent.url).toBe(`/v1beta/models/${TTS}:streamGenerateContent?alt=sse`);
    expect((sent.json() as any).generationConfig.responseModalities).toEqual(['AUDIO']);
    const [row] = await logsFor(TTS);
    expect(row).toMatchObject({ family: 'audio-speech', httpStatus: 200, inputTokens: 9, outputTokens: 3 });
    expect(row.cost).toBeCloseTo((9 * 0.5 + 3 * 10) / 1_000_000 + 0.1 * 0.01, 10);

    const error = await client.audio.speech.create({ model: 'gemini-text-only', input: 'hi', voice: 'alloy', response_format: 'pcm', stream_format: 'sse' }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error.status).toBeGreaterThanOrEqual(500);
    expect(error.message).toMatch(/no audio/);
  });

  it('sends what Gemini cannot make to another channel of the model that can', async () => {
    const mp3 = await client.audio.speech.create({ model: 'shared-tts', input: 'hi', voice: 'alloy', response_format: 'mp3' });
    expect(Buffer.from(await mp3.arrayBuffer()).equals(openaiMp3)).toBe(true);
    expect(upstream.requests.at(-1)!.url).toBe('/v1/audio/speech');
    await client.audio.speech.create({ model: 'shared-tts', input: 'hi', voice: 'alloy', response_format: 'wav' }).then((r) => r.arrayBuffer());
    expect(upstream.requests.at(-1)!.url).toBe('/v1beta/models/shared-tts:generateContent');
  });

  it('transcribes: the file inline with its type, the instruction with the language and the prompt, billed by the tokens reported', async () => {
    const wav = toneWav(2);
    const answer = await client.audio.transcriptions.create({ model: 'gemini-2.5-flash', file: await toFile(wav, 'speech.wav', { type: 'audio/wav' }), language: 'de', prompt: 'Names: Ada Lovelace' });
    expect(answer).toEqual({ text: 'hello from gemini', usage: { type: 'tokens', input_tokens: 120, output_tokens: 4, total_tokens: 124 } });
    const sent = upstream.requests.at(-1)!;
    expect(sent.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    const [audio, instruction] = (sent.json() as any).contents[0].parts;
    expect(audio.inlineData).toEqual({ mimeType: 'audio/wav', data: wav.toString('base64') });
    expect(instruction.text).toMatch(/^Transcribe the speech in this audio verbatim/);
    expect(instruction.text).toContain('"de"');
    expect(instruction.text).toContain('Names: Ada Lovelace');
    const [row] = await logsFor('gemini-2.5-flash');
    expect(row).toMatchObject({ family: 'audio-transcriptions', httpStatus: 200, inputTokens: 120, outputTokens: 4 });
    expect(row.cost).toBeCloseTo((120 * 1 + 4 * 2.5) / 1_000_000, 12);
  });

  it('answers text, streams the transcript, and translates to English; a file without a declared type is read by its name or bytes', async () => {
    const text = await client.audio.transcriptions.create({ model: 'gemini-2.5-flash', file: await toFile(Buffer.from('fLaC and more'), 'clip.bin'), response_format: 'text' });
    expect(text).toBe('hello from gemini\n');
    expect((upstream.requests.at(-1)!.json() as any).contents[0].parts[0].inlineData.mimeType).toBe('audio/flac');
    const stream = await client.audio.transcriptions.create({ model: 'gemini-2.5-flash', file: await toFile(Buffer.from('x'), 'a.mp3'), stream: true });
    const events: any[] = [];
    for await (const event of stream) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'transcript.text.done', text: 'hello from gemini', usage: { type: 'tokens', input_tokens: 120 } });
    const translated = await client.audio.translations.create({ model: 'gemini-2.5-flash', file: await toFile(Buffer.from('x'), 'a.ogg') });
    expect(translated.text).toBe('hello from gemini');
    const parts = (upstream.requests.at(-1)!.json() as any).contents[0].parts;
    expect(parts[0].inlineData.mimeType).toBe('audio/ogg');
    expect(parts[1].text).toMatch(/^Translate the speech in this audio into English/);
    const [row] = await logsFor('gemini-2.5-flash');
    expect(row).toMatchObject({ family: 'audio-translations', inputTokens: 120 });
  });

  it('refuses before any call the timestamps and files Gemini cannot take, naming the field', async () => {
    const wav = () => toFile(toneWav(1), 'a.wav', { type: 'audio/wav' });
    for (const format of ['verbose_json', 'srt', 'vtt'] as const) {
      await refused(client.audio.transcriptions.create({ model: 'gemini-2.5-flash', file: await wav(), response_format: format }), 'response_format');
    }
    await refused(client.audio.transcriptions.create({ model: 'gemini-2.5-flash', file: await wav(), timestamp_granularities: ['word'] }), 'timestamp_granularities');
    await refused(client.audio.transcriptions.create({ model: 'gemini-2.5-flash', file: await toFile(Buffer.from('webm bytes'), 'a.webm', { type: 'audio/webm' }) }), 'file');
  });

  it('answers a model that returns no audio with an upstream error in the OpenAI shape, and charges nothing', async () => {
    const error = await client.audio.speech.create({ model: 'gemini-text-only', input: 'hi', voice: 'alloy', response_format: 'wav' }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error.status).toBeGreaterThanOrEqual(500);
    expect(error.message).toMatch(/no audio/);
    const [row] = await logsFor('gemini-text-only');
    expect(row).toMatchObject({ family: 'audio-speech', cost: 0 });
  });
});

describe('audio on vertex channels', () => {
  let fake: FakeVertex;
  let gw: TestGateway;
  let client: OpenAI;

  beforeAll(async () => {
    fake = await startFakeVertex();
    gw = await startGateway({
      config: {
        channels: [
          {
            name: 'vertex',
            type: 'vertex',
            apiKey: fake.serviceAccountKey(),
            models: ['vertex-tts', 'vertex-flash', 'vertex-claude'],
            modelMapping: { 'vertex-tts': TTS, 'vertex-flash': 'gemini-2.5-flash', 'vertex-claude': 'claude-sonnet-4-5@20250929' },
            settings: { project: fake.project, location: fake.location, endpoint: fake.origin },
          },
        ],
        keys: [{ name: 'client', key: KEY }],
      },
    });
    client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: KEY, maxRetries: 0 });
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  it("speaks and transcribes with Google's models by content generation, with the channel's token", async () => {
    fake.script({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(ttsAnswer) });
    const speech = await client.audio.speech.create({ model: 'vertex-tts', input: 'hi', voice: 'nova', response_format: 'pcm' });
    expect(Buffer.from(await speech.arrayBuffer()).equals(pcm)).toBe(true);
    expect(fake.requests.at(-1)).toMatchObject({ publisher: 'google', model: TTS, verb: 'generateContent' });
    expect(fake.requests.at(-1)!.headers.authorization).toMatch(/^Bearer /);
    expect(fake.requests.at(-1)!.body.generationConfig.speechConfig.voiceConfig.prebuiltVoiceConfig.voiceName).toBe('Leda');
    const transcript = await client.audio.transcriptions.create({ model: 'vertex-flash', file: await toFile(toneWav(1), 'a.wav', { type: 'audio/wav' }), response_format: 'text' });
    expect(transcript).toBe('I see an image.\n');
    expect(fake.requests.at(-1)!.body.contents[0].parts[0].inlineData.mimeType).toBe('audio/wav');
  });

  it('streams pcm speech asked as sse by streamGenerateContent', async () => {
    fake.script({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: ttsChunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') });
    const speech = await client.audio.speech.create({ model: 'vertex-tts', input: 'hi', voice: 'nova', response_format: 'pcm', stream_format: 'sse' });
    const events = (await speech.text())
      .split('\n\n')
      .filter((frame) => frame !== '')
      .map((frame) => JSON.parse(frame.replace(/^data: /, '')));
    expect(Buffer.concat(events.filter((event) => event.type === 'speech.audio.delta').map((event) => Buffer.from(event.audio, 'base64'))).equals(pcm)).toBe(true);
    expect(events.at(-1)).toEqual({ type: 'speech.audio.done', usage: { input_tokens: 9, output_tokens: 3, total_tokens: 12 } });
    expect(fake.requests.at(-1)).toMatchObject({ publisher: 'google', model: TTS, verb: 'streamGenerateContent?alt=sse' });
  });

  it("answers an upstream error for a model that is not Google's, calling nothing", async () => {
    const before = fake.requests.length;
    const error = await client.audio.speech.create({ model: 'vertex-claude', input: 'hi', voice: 'alloy', response_format: 'wav' }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error.status).toBeGreaterThanOrEqual(500);
    expect(fake.requests.length).toBe(before);
  });
});
