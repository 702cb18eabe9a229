/**
 * `POST /v1/images/generations` and `POST /v1/images/edits` through the
 * official OpenAI client's `images.generate` and `images.edit`, on SQLite
 * and PostgreSQL: b64 and url answers on the simulator (the URL fetched, a
 * PNG of the asked size), an edit with a mask keeping the input's size, the
 * body passed as it is to a loopback fake of OpenAI's image endpoints (JSON
 * and the multipart form, the model mapped), 400s naming the field, the 404
 * of a model no image channel serves, failover, and the log rows with their
 * cost per image and per token.
 */
import OpenAI, { toFile } from 'openai';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';

const KEY = 'sk-client-images-01';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const pngOf = (width: number, height: number): Buffer => PNG.sync.write(new PNG({ width, height }));
const sizeOf = (bytes: Buffer) => ({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

const upstreamAnswer = {
  created: 1_700_000_000,
  data: [{ b64_json: pngOf(4, 4).toString('base64') }, { b64_json: pngOf(4, 4).toString('base64') }],
  usage: { input_tokens: 50, output_tokens: 4000, total_tokens: 4050, input_tokens_details: { text_tokens: 50, image_tokens: 0 } },
};

const event = (data: Record<string, unknown>) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
const streamEvents = [
  event({
    type: 'image_generation.partial_image',
    b64_json: pngOf(2, 2).toString('base64'),
    partial_image_index: 0,
    created_at: 1,
    size: '1024x1024',
    quality: 'low',
    background: 'opaque',
    output_format: 'png',
  }),
  event({
    type: 'image_generation.completed',
    b64_json: pngOf(4, 4).toString('base64'),
    created_at: 1,
    size: '1024x1024',
    quality: 'low',
    background: 'opaque',
    output_format: 'png',
    usage: { input_tokens: 9, output_tokens: 272, total_tokens: 281, input_tokens_details: { text_tokens: 9, image_tokens: 0 } },
  }),
];

describe.each(ENGINES)('image generations on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;
  let upstream: FakeUpstream;
  let client: OpenAI;

  const logsFor = async (model: string) => {
    await gw.gateway.ctx.recorder.flush();
    return (await gw.admin('GET', `/logs?model=${model}`)).body.data as any[];
  };

  beforeAll(async () => {
    upstream = await startFakeUpstream((request) =>
      request.body.includes('"stream":true')
        ? { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: streamEvents }
        : { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(upstreamAnswer) },
    );
    place = await createPlace(engine);
    gw = await place.start({
      config: {
        channels: [
          { name: 'openai', type: 'openai-chat', baseUrl: `${upstream.origin}/v1`, apiKey: 'sk-upstream-openai', models: ['gpt-image-1'], settings: { imagesEndpoint: true } },
          {
            name: 'responses',
            type: 'openai-responses',
            baseUrl: `${upstream.origin}/v1`,
            apiKey: 'sk-upstream-resp',
            models: ['my-image'],
            modelMapping: { 'my-image': 'gpt-image-1' },
            settings: { imagesEndpoint: true },
          },
          // Not OpenAI's address and no setting: this server is not asked for images.
          { name: 'local', type: 'openai-chat', baseUrl: `${upstream.origin}/v1`, models: ['local-image'] },
          { name: 'down', type: 'simulator', models: ['image-failover'], priority: 10, settings: { failStatus: 500 } },
          { name: 'sim', type: 'simulator', models: ['dall-e-2', 'dall-e-3', 'sim-image-1', 'gpt-image-sim', 'image-failover'], priority: 1 },
        ],
        keys: [{ name: 'client', key: KEY }],
        prices: { 'dall-e-3': { perImage: 0.04 }, 'gpt-image-1': { input: 5, output: 40 } },
      },
    });
    client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: KEY, maxRetries: 0 });
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
    await upstream?.close();
  });

  it('generates b64 PNGs of the asked size on the simulator, the same for the same request', async () => {
    const answer = await client.images.generate({ model: 'sim-image-1', prompt: 'a lighthouse at dusk', n: 2, size: '256x128', response_format: 'b64_json' });
    expect(answer.data).toHaveLength(2);
    const bytes = Buffer.from(answer.data![0].b64_json!, 'base64');
    expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(sizeOf(bytes)).toEqual({ width: 256, height: 128 });
    expect(answer.data![1].b64_json).not.toBe(answer.data![0].b64_json);
    const again = await client.images.generate({ model: 'sim-image-1', prompt: 'a lighthouse at dusk', n: 2, size: '256x128', response_format: 'b64_json' });
    expect(again.data).toEqual(answer.data);
  });

  it('answers a URL the gateway serves (dall-e-2 by default), and prices dall-e-3 per image', async () => {
    const answer = await client.images.generate({ prompt: 'a red kite', size: '256x256' });
    const url = answer.data![0].url!;
    expect(url).toMatch(/\/ig\/image\/[0-9a-f]{32}-[0-9a-z]+\.png$/);
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await fetched.arrayBuffer());
    expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(sizeOf(bytes)).toEqual({ width: 256, height: 256 });
    const [row] = await logsFor('dall-e-2');
    expect(row).toMatchObject({ family: 'image-generations', httpStatus: 200, channelId: expect.any(String), outputTokens: 0, images: 1 });

    const priced = await client.images.generate({ model: 'dall-e-3', prompt: 'a red kite', n: 3, size: '64x64', response_format: 'b64_json' });
    expect(priced.data![0].revised_prompt).toBe('a red kite');
    const [pricedRow] = await logsFor('dall-e-3');
    expect(pricedRow.cost).toBeCloseTo(0.12, 10);
    expect(pricedRow.images).toBe(3);
    expect((await gw.admin('GET', `/logs/${pricedRow.id}`)).body.images).toBe(3);
  });

  it('edits with a mask on the simulator, keeping the input size, and reports tokens for gpt-image models', async () => {
    const image = await toFile(pngOf(96, 64), 'input.png', { type: 'image/png' });
    const mask = await toFile(pngOf(96, 64), 'mask.png', { type: 'image/png' });
    const answer = await client.images.edit({ model: 'gpt-image-sim', image, mask, prompt: 'add a moon' });
    const bytes = Buffer.from(answer.data![0].b64_json!, 'base64');
    expect(sizeOf(bytes)).toEqual({ width: 96, height: 64 });
    expect(answer.usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: expect.any(Number) });
    expect(answer.usage!.output_tokens).toBeGreaterThan(0);
    const [row] = await logsFor('gpt-image-sim');
    expect(row).toMatchObject({ family: 'image-generations', httpStatus: 200, outputTokens: answer.usage!.output_tokens });
  });

  it("passes the JSON body as it is to OpenAI's image endpoint, keeps the answer's bytes and bills its tokens", async () => {
    const answer = await client.images.generate({ model: 'gpt-image-1', prompt: 'a fox', n: 2, quality: 'low', background: 'transparent' });
    expect(answer).toEqual(upstreamAnswer);
    const seen = upstream.requests.at(-1)!;
    expect(seen.url).toBe('/v1/images/generations');
    expect(seen.headers.authorization).toBe('Bearer sk-upstream-openai');
    expect(seen.json()).toEqual({ model: 'gpt-image-1', prompt: 'a fox', n: 2, quality: 'low', background: 'transparent' });
    const [row] = await logsFor('gpt-image-1');
    expect(row).toMatchObject({ family: 'image-generations', inputTokens: 50, outputTokens: 4000, images: 2 });
    expect(row.cost).toBeCloseTo((50 * 5 + 4000 * 40) / 1_000_000, 10);
  });

  it('streams partial images from a server that streams them, events as they come, billed by the completed image', async () => {
    const stream = await client.images.generate({ model: 'gpt-image-1', prompt: 'a heron', stream: true, partial_images: 1 });
    const types: string[] = [];
    for await (const piece of stream) types.push(piece.type);
    expect(types).toEqual(['image_generation.partial_image', 'image_generation.completed']);
    expect(upstream.requests.at(-1)!.json()).toEqual({ model: 'gpt-image-1', prompt: 'a heron', stream: true, partial_images: 1 });
    const [row] = await logsFor('gpt-image-1');
    expect(row).toMatchObject({ family: 'image-generations', stream: true, httpStatus: 200, inputTokens: 9, outputTokens: 272, images: 1 });
    const simulated = await client.images.generate({ model: 'sim-image-1', prompt: 'x', stream: true }).catch((e) => e);
    expect(simulated.status).toBe(400);
    expect(simulated.error.param).toBe('stream');
  });

  it('passes an edit as a multipart form with the same parts, the model mapped, on an openai-responses channel', async () => {
    const image = await toFile(pngOf(8, 8), 'a.png', { type: 'image/png' });
    const second = await toFile(pngOf(8, 8), 'b.png', { type: 'image/png' });
    const mask = await toFile(pngOf(8, 8), 'mask.png', { type: 'image/png' });
    const answer = await client.images.edit({ model: 'my-image', image: [image, second], mask, prompt: 'make it blue' });
    expect(answer.data).toHaveLength(2);
    const seen = upstream.requests.at(-1)!;
    expect(seen.url).toBe('/v1/images/edits');
    expect(seen.headers.authorization).toBe('Bearer sk-upstream-resp');
    expect(String(seen.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    const text = seen.body.toString('latin1');
    expect(text).toContain('name="model"\r\n\r\ngpt-image-1\r\n');
    expect(text).toContain('name="prompt"\r\n\r\nmake it blue\r\n');
    expect(text.match(/name="image\[\]"; filename="(a|b)\.png"/g)).toHaveLength(2);
    expect(text).toContain('name="mask"; filename="mask.png"');
  });

  it('answers bad input with a 400 naming the field, and 404 for a model no image channel serves', async () => {
    const n = await client.images.generate({ model: 'sim-image-1', prompt: 'x', n: 11 }).catch((e) => e);
    expect(n.status).toBe(400);
    expect(n.error.param).toBe('n');
    const size = await client.images.generate({ model: 'sim-image-1', prompt: 'x', size: 'huge' as never }).catch((e) => e);
    expect(size.status).toBe(400);
    expect(size.error.param).toBe('size');
    const big = await client.images.generate({ model: 'sim-image-1', prompt: 'x', n: 5, size: '2048x2048' }).catch((e) => e);
    expect(big.status).toBe(400);
    expect(big.error.param).toBe('n');
    const prompt = await client.images.generate({ model: 'sim-image-1' } as never).catch((e) => e);
    expect(prompt.status).toBe(400);
    expect(prompt.error.param).toBe('prompt');
    const noImage = await fetch(`${gw.url}/v1/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: formWith({ prompt: 'x' }) });
    expect(noImage.status).toBe(400);
    expect(((await noImage.json()) as any).error.param).toBe('image');
    const before = upstream.requests.length;
    const missing = await client.images.generate({ model: 'local-image', prompt: 'x' }).catch((e) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect(upstream.requests.length).toBe(before);
  });

  it('fails over from a failing channel to the next', async () => {
    const answer = await client.images.generate({ model: 'image-failover', prompt: 'x', size: '32x32', response_format: 'b64_json' });
    expect(answer.data).toHaveLength(1);
    const [row] = await logsFor('image-failover');
    expect(row).toMatchObject({ family: 'image-generations', httpStatus: 200, triedChannels: ['down', 'sim'] });
  });
});

function formWith(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}
