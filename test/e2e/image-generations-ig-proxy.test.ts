/**
 * `POST /v1/images/generations` served by `ig-proxy` channels while the
 * client waits, through the official OpenAI client, on SQLite and
 * PostgreSQL, against loopback image-task services: one imagine task per
 * image, the size as an aspect ratio, `b64_json` and `url` answers, billing
 * per image with the count in the log row, failover on a 5xx, the 504 past
 * the channel’s wait (nothing charged), a failed task and a refused prompt, and the 400s of what
 * such a channel cannot do (edits, streams).
 */
import OpenAI, { toFile } from 'openai';
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';
import { startFakeImageService, type FakeImageService } from '../upstreams/ig-proxy/fake-service.js';

const KEY = 'sk-client-ig-images-01';
const vendorSettings = { pathPrefix: '/vend', secretHeader: 'vend-api-secret', botTypes: { MID_GEN: 'VEND_BOT', NIJI_GEN: 'VEND_NIJI' }, customIdPrefix: 'VEND' };
const channel = (name: string, service: FakeImageService, models: string[], priority: number, settings: Record<string, unknown> = {}) => ({
  name,
  type: 'ig-proxy',
  baseUrl: service.origin,
  apiKey: 'upstream-secret-0001',
  models,
  priority,
  settings: { ...vendorSettings, ...settings },
});

describe.each(ENGINES)('image generations on ig-proxy channels on %s', (engine) => {
  let primary: FakeImageService;
  let secondary: FakeImageService;
  let slow: FakeImageService;
  let place: Place;
  let gw: TestGateway;
  let client: OpenAI;

  const logsFor = async (model: string) => {
    await gw.gateway.ctx.recorder.flush();
    return (await gw.admin('GET', `/logs?model=${model}`)).body.data as any[];
  };
  const used = async () => (await gw.admin('GET', '/keys')).body.data.find((k: any) => k.name === 'client').used as number;
  const imagines = (service: FakeImageService) => service.requests.filter((request) => request.path === '/vend/submit/imagine');

  beforeAll(async () => {
    primary = await startFakeImageService({ stepMs: 30 });
    secondary = await startFakeImageService({ stepMs: 30 });
    slow = await startFakeImageService({ stepMs: 60_000 });
    place = await createPlace(engine);
    gw = await place.start({
      config: {
        channels: [channel('vendor-a', primary, ['mj-image'], 10), channel('vendor-b', secondary, ['mj-image'], 5), channel('vendor-slow', slow, ['mj-slow'], 1, { imageWaitMs: 700 })],
        keys: [{ name: 'client', key: KEY, quota: 50 }],
        prices: { 'mj-*': { perImage: 0.05 } },
      },
    });
    client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: KEY, maxRetries: 0, timeout: 60_000 });
  });
  afterEach(() => {
    primary.troubleNext(0, {});
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
    await primary?.close();
    await secondary?.close();
    await slow?.close();
  });

  it('makes one imagine task per image, the size as an aspect ratio, answered as b64 PNGs and billed per image', async () => {
    const before = imagines(primary).length;
    const answer = await client.images.generate({ model: 'mj-image', prompt: 'a tram in fog', n: 2, size: '1792x1024', response_format: 'b64_json' });
    expect(answer.data).toHaveLength(2);
    for (const image of answer.data!) {
      const png = PNG.sync.read(Buffer.from(image.b64_json!, 'base64'));
      expect([png.width, png.height]).toEqual([16, 16]);
      expect(image.revised_prompt).toBe('a tram in fog --ar 7:4 --v 6.1');
    }
    const sent = imagines(primary).slice(before);
    expect(sent.map((request) => request.body)).toEqual([
      { botType: 'VEND_BOT', prompt: 'a tram in fog --ar 7:4', base64Array: [] },
      { botType: 'VEND_BOT', prompt: 'a tram in fog --ar 7:4', base64Array: [] },
    ]);
    expect(sent[0].headers['vend-api-secret']).toBe('upstream-secret-0001');
    const [row] = await logsFor('mj-image');
    expect(row).toMatchObject({ family: 'image-generations', httpStatus: 200, images: 2, triedChannels: ['vendor-a'] });
    expect(row.cost).toBeCloseTo(0.1, 10);
  });

  it("answers a url the gateway serves, never the service's own address, and keeps a prompt's own ratio", async () => {
    const answer = await client.images.generate({ model: 'mj-image', prompt: 'a kite --ar 2:3', size: '1024x1024', response_format: 'url' });
    const url = answer.data![0].url!;
    expect(url.startsWith(`${gw.url}/ig/image/`)).toBe(true);
    expect(JSON.stringify(answer)).not.toContain(primary.origin);
    expect(imagines(primary).at(-1)!.body.prompt).toBe('a kite --ar 2:3');
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(PNG.sync.read(Buffer.from(await fetched.arrayBuffer())).width).toBe(16);
  });

  it('fails over to the next channel when the service answers a 5xx', async () => {
    primary.troubleNext(1, { status: 502 });
    const answer = await client.images.generate({ model: 'mj-image', prompt: 'failover', response_format: 'b64_json' });
    expect(answer.data).toHaveLength(1);
    expect(imagines(secondary).at(-1)!.body.prompt).toBe('failover');
    const [row] = await logsFor('mj-image');
    expect(row).toMatchObject({ httpStatus: 200, images: 1, triedChannels: ['vendor-a', 'vendor-b'] });
  });

  it('answers 504 when the image is not ready within the channel’s wait, and charges nothing', async () => {
    const before = await used();
    const late = await client.images.generate({ model: 'mj-slow', prompt: 'a slow painting', response_format: 'b64_json' }).catch((e) => e);
    expect(late).toBeInstanceOf(OpenAI.APIError);
    expect(late.status).toBe(504);
    expect(late.error.message).toMatch(/not ready within/);
    expect(JSON.stringify(late.error)).not.toContain(slow.origin);
    const [row] = await logsFor('mj-slow');
    expect(row).toMatchObject({ httpStatus: 504, images: 0, cost: 0 });
    expect(await used()).toBeCloseTo(before, 10);
  });

  it('reports a task the service failed and a prompt it refused, and charges nothing', async () => {
    primary.failPrompt('doomed');
    const before = await used();
    const failed = await client.images.generate({ model: 'mj-image', prompt: 'doomed ship', response_format: 'b64_json' }).catch((e) => e);
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(failed.error.message).toMatch(/upstream says no/);
    const banned = await client.images.generate({ model: 'mj-image', prompt: 'banned words', response_format: 'b64_json' }).catch((e) => e);
    expect(banned.status).toBe(403);
    expect(banned.error.message).toMatch(/banned word/);
    expect(await used()).toBeCloseTo(before, 10);
  });

  it('refuses edits and streams, which image-task channels cannot serve, before calling the service', async () => {
    const before = primary.requests.length + secondary.requests.length;
    const image = await toFile(PNG.sync.write(new PNG({ width: 8, height: 8 })), 'a.png', { type: 'image/png' });
    const edit = await client.images.edit({ model: 'mj-image', image, prompt: 'make it blue' }).catch((e) => e);
    expect(edit.status).toBe(400);
    expect(edit.error.param).toBe('image');
    expect(edit.error.message).toMatch(/edits/);
    const stream = await client.images.generate({ model: 'mj-image', prompt: 'x', stream: true }).catch((e) => e);
    expect(stream.status).toBe(400);
    expect(stream.error.param).toBe('stream');
    expect(primary.requests.length + secondary.requests.length).toBe(before);
  });
});
