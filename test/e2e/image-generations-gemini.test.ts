/**
 * OpenAI image requests on a `gemini` channel, translated: the official
 * client's `images.generate` and `images.edit` against a loopback fake of
 * the Gemini API, on SQLite and PostgreSQL: one `generateContent` per image
 * with `responseModalities: ['IMAGE']` and the size's aspect ratio, an
 * edit's image and mask as inline data, the inline image answered as
 * `b64_json` or a gateway URL, the summed token usage logged and billed, and
 * an answer without an image an upstream error.
 */
import OpenAI, { toFile } from 'openai';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';

const KEY = 'sk-client-gemini-images-01';
const png = PNG.sync.write(new PNG({ width: 6, height: 4 }));

const imageAnswer = {
  candidates: [{ content: { role: 'model', parts: [{ inlineData: { mimeType: 'image/png', data: png.toString('base64') } }] }, finishReason: 'STOP' }],
  usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 1290, totalTokenCount: 1302 },
};
const textAnswer = { candidates: [{ content: { role: 'model', parts: [{ text: 'I only write words.' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 5 } };

describe.each(ENGINES)('image generations on gemini channels on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;
  let upstream: FakeUpstream;
  let client: OpenAI;

  const logsFor = async (model: string) => {
    await gw.gateway.ctx.recorder.flush();
    return (await gw.admin('GET', `/logs?model=${model}`)).body.data as any[];
  };

  beforeAll(async () => {
    upstream = await startFakeUpstream((request) => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request.url.includes('text-only') ? textAnswer : imageAnswer),
    }));
    place = await createPlace(engine);
    gw = await place.start({
      config: {
        channels: [{ name: 'gemini', type: 'gemini', baseUrl: upstream.origin, apiKey: 'gm-upstream-key', models: ['gemini-2.5-flash-image', 'gemini-text-only'] }],
        keys: [{ name: 'client', key: KEY }],
        prices: { 'gemini-2.5-flash-image': { input: 0.3, output: 30 } },
      },
    });
    client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: KEY, maxRetries: 0 });
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
    await upstream?.close();
  });

  it('makes one generateContent call per image, asks for images in the nearest aspect ratio, and bills the summed tokens', async () => {
    const before = upstream.requests.length;
    const answer = await client.images.generate({ model: 'gemini-2.5-flash-image', prompt: 'a lighthouse', n: 2, size: '1536x1024', response_format: 'b64_json' });
    expect(answer.data).toHaveLength(2);
    expect(Buffer.from(answer.data![0].b64_json!, 'base64').equals(png)).toBe(true);
    expect(answer.usage).toMatchObject({ input_tokens: 24, output_tokens: 2580 });
    const sent = upstream.requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[0].url).toBe('/v1beta/models/gemini-2.5-flash-image:generateContent');
    expect(sent[0].headers['x-goog-api-key']).toBe('gm-upstream-key');
    expect(sent[0].json()).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'a lighthouse' }] }],
      generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '3:2' } },
    });
    const [row] = await logsFor('gemini-2.5-flash-image');
    expect(row).toMatchObject({ family: 'image-generations', httpStatus: 200, inputTokens: 24, outputTokens: 2580 });
    expect(row.cost).toBeCloseTo((24 * 0.3 + 2580 * 30) / 1_000_000, 10);
  });

  it('sends an edit as inline data with its mask, and answers a URL the gateway serves', async () => {
    const image = await toFile(png, 'in.png', { type: 'image/png' });
    const mask = await toFile(png, 'mask.png', { type: 'image/png' });
    const answer = await client.images.edit({ model: 'gemini-2.5-flash-image', image, mask, prompt: 'add a moon', response_format: 'url' });
    const fetched = await fetch(answer.data![0].url!);
    expect(fetched.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await fetched.arrayBuffer()).equals(png)).toBe(true);
    const parts = (upstream.requests.at(-1)!.json() as any).contents[0].parts;
    expect(parts).toHaveLength(3);
    expect(parts[0].inlineData).toEqual({ mimeType: 'image/png', data: png.toString('base64') });
    expect(parts[1].inlineData.data).toBe(png.toString('base64'));
    expect(parts[2].text).toMatch(/^add a moon\n\nThe last image is a mask/);
  });

  it('answers a model that returns no image with an upstream error in the OpenAI shape', async () => {
    const error = await client.images.generate({ model: 'gemini-text-only', prompt: 'a lighthouse' }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error.status).toBeGreaterThanOrEqual(500);
    expect(error.message).toMatch(/no image/);
    const [row] = await logsFor('gemini-text-only');
    expect(row).toMatchObject({ family: 'image-generations', cost: 0 });
  });
});
