/**
 * OpenAI image and audio requests on `azure-openai` channels, through the
 * official client, against the loopback Azure resource (azure-fake.ts,
 * azure-fake-media.ts): the body passed as it is to the deployment's route
 * in both styles (`/openai/v1/…` naming the deployment in the body or form,
 * `/openai/deployments/{deployment}/…?api-version=…`), with the `api-key`
 * or an Entra ID token, the answers kept and billed; moderations and
 * rerank, which Azure OpenAI does not offer, answered as a model no channel
 * serves for them.
 */
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toneWav } from '../../src/dialects/openai-audio/wav.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { AZURE_API_KEY, CLIENT_ID, CLIENT_SECRET, startAzureFake, TENANT_ID, type AzureFake } from './azure-fake.js';
import { AZURE_MP3, AZURE_PNG, AZURE_WAV } from './azure-fake-media.js';

const CLIENT_KEY = 'sk-client-azure-media-01';
let fake: AzureFake;
let gw: TestGateway;
let client: OpenAI;

const deployments = { 'gpt-image-1': 'image-deploy', 'gpt-4o-mini-tts': 'tts-deploy', 'gpt-4o-transcribe': 'stt-deploy', 'whisper-1': 'whisper-deploy' };
const dated = Object.fromEntries(Object.entries(deployments).map(([model, deployment]) => [`dated-${model}`, deployment]));

const logsFor = async (model: string) => {
  await gw.gateway.ctx.recorder.flush();
  return (await gw.admin('GET', `/logs?model=${model}`)).body.data as any[];
};
const lastRequest = () => fake.resource.requests.at(-1)!;

beforeAll(async () => {
  fake = await startAzureFake(Object.values(deployments));
  const resource = fake.resource.origin;
  gw = await startGateway({
    config: {
      channels: [
        { name: 'azure', type: 'azure-openai', baseUrl: resource, apiKey: AZURE_API_KEY, models: Object.keys(deployments), modelMapping: deployments },
        {
          name: 'azure-dated',
          type: 'azure-openai',
          baseUrl: `${resource}/openai`,
          apiKey: AZURE_API_KEY,
          models: Object.keys(dated),
          modelMapping: dated,
          settings: { routes: 'dated', apiVersion: '2025-04-01-preview' },
        },
        {
          name: 'azure-entra',
          type: 'azure-openai',
          baseUrl: resource,
          apiKey: CLIENT_SECRET,
          models: ['entra-tts', 'omni-moderation-latest', 'rerank-v3'],
          modelMapping: { 'entra-tts': 'tts-deploy' },
          settings: { auth: 'entra-id', tenantId: TENANT_ID, clientId: CLIENT_ID, tokenEndpoint: `${fake.login.origin}/${TENANT_ID}/oauth2/v2.0/token` },
        },
      ],
      keys: [{ name: 'client', key: CLIENT_KEY }],
      prices: { 'gpt-image-1': { input: 5, output: 40 }, 'gpt-4o-transcribe': { input: 2.5, output: 10 }, 'dated-whisper-1': { perSecond: 0.0001 } },
    },
  });
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: CLIENT_KEY, maxRetries: 0 });
});
afterAll(async () => {
  await gw?.close();
  await fake?.close();
});

describe('images on azure-openai channels', () => {
  it('generates at the v1 route, the deployment as the body model, the answer kept and billed by its tokens', async () => {
    const answer = await client.images.generate({ model: 'gpt-image-1', prompt: 'a lighthouse', n: 2, size: '1024x1024' });
    expect(answer.data).toHaveLength(2);
    expect(Buffer.from(answer.data![0].b64_json!, 'base64').equals(AZURE_PNG)).toBe(true);
    expect((answer.data![0] as any).content_filter_results).toBeDefined();
    const sent = lastRequest();
    expect(sent.url).toBe('/openai/v1/images/generations');
    expect(sent.headers['api-key']).toBe(AZURE_API_KEY);
    expect(sent.json()).toEqual({ model: 'image-deploy', prompt: 'a lighthouse', n: 2, size: '1024x1024' });
    const [row] = await logsFor('gpt-image-1');
    expect(row).toMatchObject({ family: 'image-generations', httpStatus: 200, inputTokens: 24, outputTokens: 544 });
    expect(row.cost).toBeCloseTo((24 * 5 + 544 * 40) / 1_000_000, 10);
  });

  it('edits at the dated route, the deployment in the path and the api-version after it', async () => {
    const answer = await client.images.edit({ model: 'dated-gpt-image-1', image: await toFile(AZURE_PNG, 'in.png', { type: 'image/png' }), prompt: 'add a moon' });
    expect(answer.data).toHaveLength(1);
    const sent = lastRequest();
    expect(sent.url).toBe('/openai/deployments/image-deploy/images/edits?api-version=2025-04-01-preview');
    expect(sent.body.toString('latin1')).toContain('name="prompt"\r\n\r\nadd a moon\r\n');
    const [row] = await logsFor('dated-gpt-image-1');
    expect(row).toMatchObject({ family: 'image-generations', httpStatus: 200, inputTokens: 12 });
  });
});

describe('audio on azure-openai channels', () => {
  it("speaks at both routes, the answer's bytes kept", async () => {
    const mp3 = await client.audio.speech.create({ model: 'gpt-4o-mini-tts', input: 'hello', voice: 'coral' });
    expect(Buffer.from(await mp3.arrayBuffer()).equals(AZURE_MP3)).toBe(true);
    expect(lastRequest().url).toBe('/openai/v1/audio/speech');
    expect(lastRequest().json()).toEqual({ model: 'tts-deploy', input: 'hello', voice: 'coral' });
    const wav = await client.audio.speech.create({ model: 'dated-gpt-4o-mini-tts', input: 'hello', voice: 'coral', response_format: 'wav' });
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await wav.arrayBuffer()).equals(AZURE_WAV)).toBe(true);
    expect(lastRequest().url).toBe('/openai/deployments/tts-deploy/audio/speech?api-version=2025-04-01-preview');
  });

  it('speaks with an Entra ID token', async () => {
    const before = fake.tokenRequests;
    const mp3 = await client.audio.speech.create({ model: 'entra-tts', input: 'hello', voice: 'alloy' });
    expect(Buffer.from(await mp3.arrayBuffer()).equals(AZURE_MP3)).toBe(true);
    expect(lastRequest().headers.authorization).toMatch(/^Bearer /);
    expect(lastRequest().headers['api-key']).toBeUndefined();
    expect(fake.tokenRequests).toBeGreaterThan(before);
  });

  it('transcribes at the v1 route, the deployment as the form model, billed by the tokens reported', async () => {
    const answer = await client.audio.transcriptions.create({ model: 'gpt-4o-transcribe', file: await toFile(toneWav(1), 'a.wav', { type: 'audio/wav' }) });
    expect(answer).toEqual({ text: 'azure heard you', usage: { type: 'tokens', input_tokens: 30, output_tokens: 4, total_tokens: 34 } });
    const sent = lastRequest();
    expect(sent.url).toBe('/openai/v1/audio/transcriptions');
    expect(sent.body.toString('latin1')).toContain('name="model"\r\n\r\nstt-deploy\r\n');
    const [row] = await logsFor('gpt-4o-transcribe');
    expect(row).toMatchObject({ family: 'audio-transcriptions', httpStatus: 200, inputTokens: 30, outputTokens: 4 });
    expect(row.cost).toBeCloseTo((30 * 2.5 + 4 * 10) / 1_000_000, 12);
    const text = await client.audio.transcriptions.create({ model: 'gpt-4o-transcribe', file: await toFile(toneWav(1), 'a.wav'), response_format: 'text' });
    expect(text).toBe('azure heard you\n');
  });

  it("translates at the dated route, billed by the WAV's seconds", async () => {
    const answer = await client.audio.translations.create({ model: 'dated-whisper-1', file: await toFile(toneWav(3), 'a.wav', { type: 'audio/wav' }) });
    expect(answer.text).toBe('azure translated you');
    expect(lastRequest().url).toBe('/openai/deployments/whisper-deploy/audio/translations?api-version=2025-04-01-preview');
    const [row] = await logsFor('dated-whisper-1');
    expect(row).toMatchObject({ family: 'audio-translations', httpStatus: 200 });
    expect(row.cost).toBeCloseTo(0.0003, 10);
  });
});

describe('what Azure OpenAI does not offer', () => {
  it('answers moderations and rerank of a model only azure channels serve as a model no channel serves, calling nothing', async () => {
    const before = fake.resource.requests.length;
    const moderation = await client.moderations.create({ model: 'omni-moderation-latest', input: 'hello' }).catch((e) => e);
    expect(moderation).toBeInstanceOf(OpenAI.NotFoundError);
    expect(moderation.message).toMatch(/not served by any channel/);
    const rerank = await fetch(`${gw.url}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CLIENT_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rerank-v3', query: 'q', documents: ['a', 'b'] }),
    });
    expect(rerank.status).toBe(404);
    expect(JSON.stringify(await rerank.json())).toMatch(/not served by any channel/);
    expect(fake.resource.requests.length).toBe(before);
  });
});
