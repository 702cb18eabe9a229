/**
 * Family A through `ig-proxy` channels on loopback image-task services, on
 * SQLite and PostgreSQL: the whole flow with the services' own vendor words,
 * their ids and addresses never shown to clients, batched polling, failover
 * on 5xx and slow answers, and refusals mapped onto the envelope codes.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { startFakeImageService, type FakeImageService } from '../upstreams/ig-proxy/fake-service.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';
import { decodePng, igClient, pngDataUrl, type IgClient } from '../families/images/support.js';

const KEY = 'sk-images-proxy-0001';
const vendorSettings = {
  pathPrefix: '/vend',
  secretHeader: 'vend-api-secret',
  botTypes: { MID_GEN: 'VEND_BOT', NIJI_GEN: 'VEND_NIJI' },
  customIdPrefix: 'VEND',
};

describe.each(ENGINES)('image tasks through ig-proxy on %s', (engine) => {
  let primary: FakeImageService;
  let secondary: FakeImageService;
  let place: Place;
  let gw: TestGateway;
  let ig: IgClient;

  beforeAll(async () => {
    primary = await startFakeImageService({ stepMs: 40 });
    secondary = await startFakeImageService({ stepMs: 40 });
    place = await createPlace(engine);
    gw = await place.start({
      settings: { upstreamTimeoutMs: 600 },
      config: {
        channels: [
          { name: 'vendor-a', type: 'ig-proxy', baseUrl: primary.origin, apiKey: 'upstream-secret-0001', models: ['ig_*'], priority: 10, settings: vendorSettings },
          { name: 'vendor-b', type: 'ig-proxy', baseUrl: secondary.origin, apiKey: 'upstream-secret-0001', models: ['ig_*'], priority: 5, settings: vendorSettings },
        ],
        keys: [{ name: 'proxy', key: KEY, quota: 50 }],
        prices: { 'ig_*': { perCall: 0.1 } },
      },
    });
    ig = igClient(gw.url, KEY);
  });
  afterEach(() => {
    primary.troubleNext(0, {});
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
    await primary?.close();
    await secondary?.close();
  });

  const lastLog = async (model: string) => {
    await gw.gateway.ctx.recorder.flush();
    return (await gw.admin('GET', '/logs?limit=50')).body.data.find((row: any) => row.model === model);
  };
  const used = async () => (await gw.admin('GET', '/keys')).body.data.find((k: any) => k.name === 'proxy').used as number;

  it('runs imagine, upscale and a custom zoom modal on the service, showing only gateway ids and addresses', async () => {
    const submitted = await ig.post('/ig/submit/imagine', { prompt: 'a tram', botType: 'NIJI_GEN' });
    expect(submitted.body).toMatchObject({ code: 1, result: expect.stringMatching(/^\d{16}$/) });
    const sent = primary.requests.find((request) => request.path === '/vend/submit/imagine')!;
    expect(sent.headers['vend-api-secret']).toBe('upstream-secret-0001');
    expect(sent.body.botType).toBe('VEND_NIJI');
    const grid = await ig.waitFor(submitted.body.result);
    expect(grid).toMatchObject({ status: 'SUCCESS', action: 'IMAGINE', prompt: 'a tram', properties: { finalPrompt: 'a tram --v 6.1' } });
    const text = JSON.stringify(grid);
    expect(text).not.toMatch(/U7\d{3}/);
    expect(text).not.toContain(primary.origin);
    expect(text).not.toContain('VEND::');
    expect(grid.imageUrl.startsWith(`${gw.url}/ig/image/`)).toBe(true);
    const png = decodePng(Buffer.from(await (await fetch(grid.imageUrl)).arrayBuffer()));
    expect([png.width, png.height]).toEqual([16, 16]);

    const upscale = await ig.post('/ig/submit/action', { taskId: grid.id, customId: grid.buttons[0].customId });
    expect(upscale.body.code).toBe(1);
    const pressed = primary.requests.find((request) => request.path === '/vend/submit/action')!;
    expect(pressed.body.taskId).toMatch(/^U\d+$/);
    expect(pressed.body.customId).toMatch(/^VEND::JOB::upsample::1::/);
    const single = await ig.waitFor(upscale.body.result);
    expect(single.action).toBe('UPSCALE');
    const zoomButton = single.buttons.find((button: any) => button.label === 'Custom Zoom');
    const zoom = await ig.post('/ig/submit/action', { taskId: single.id, customId: zoomButton.customId });
    expect(zoom.body).toMatchObject({ code: 1 });
    expect((await ig.get(`/ig/task/${zoom.body.result}/fetch`)).body.status).toBe('MODAL');
    expect((await ig.post('/ig/submit/modal', { taskId: zoom.body.result, prompt: 'wider --zoom 1.8' })).body.code).toBe(1);
    expect(await ig.waitFor(zoom.body.result)).toMatchObject({ status: 'SUCCESS', action: 'ZOOM' });

    const seed = await ig.get(`/ig/task/${grid.id}/image-seed`);
    expect(seed.body).toMatchObject({ code: 1, result: expect.stringMatching(/^\d+$/) });
  });

  it('polls many tasks of a channel in one list call', async () => {
    primary.listCalls.length = 0;
    const ids = await Promise.all(Array.from({ length: 6 }, async (_, i) => (await ig.post('/ig/submit/imagine', { prompt: `batch ${i}` })).body.result as string));
    await Promise.all(ids.map((id) => ig.waitFor(id)));
    expect(Math.max(...primary.listCalls.map((call) => call.length))).toBeGreaterThan(1);
  });

  it('describes and shortens through the service', async () => {
    const input = pngDataUrl(40, 50, 60);
    const describe = await ig.post('/ig/submit/describe', { base64: input });
    const described = await ig.waitFor(describe.body.result);
    expect(described.prompt.split('\n\n')).toHaveLength(4);
    expect(Buffer.from(await (await fetch(described.imageUrl)).arrayBuffer()).equals(Buffer.from(input.split(',')[1], 'base64'))).toBe(true);
    const shorten = await ig.post('/ig/submit/shorten', { prompt: 'a long long prompt' });
    expect((await ig.waitFor(shorten.body.result)).description).toMatch(/Shortened prompts/);
    const swap = await ig.post('/ig/face/swap', { sourceBase64: pngDataUrl(1, 2, 3), targetBase64: pngDataUrl(3, 2, 1) });
    expect((await ig.waitFor(swap.body.result)).status).toBe('SUCCESS');
    expect(secondary.requests.filter((request) => request.path.startsWith('/vend/submit') || request.path.includes('swap'))).toHaveLength(0);
  });

  it('fails over to the next channel on a 5xx', async () => {
    primary.troubleNext(1, { status: 502 });
    const { status, body } = await ig.post('/ig/submit/imagine', { prompt: 'failover' });
    expect(status).toBe(200);
    expect((await lastLog('ig_imagine')).triedChannels).toEqual(['vendor-a', 'vendor-b']);
    expect(await ig.waitFor(body.result)).toMatchObject({ status: 'SUCCESS' });
    expect(secondary.requests.some((request) => request.path === '/vend/task/list-by-condition')).toBe(true);
  });

  it('fails over when the service is slower than the upstream timeout', async () => {
    primary.troubleNext(1, { delayMs: 2_500 });
    const started = Date.now();
    const { body } = await ig.post('/ig/submit/imagine', { prompt: 'slow' });
    expect(body.code).toBe(1);
    expect(Date.now() - started).toBeLessThan(2_400);
    expect((await lastLog('ig_imagine')).triedChannels).toEqual(['vendor-a', 'vendor-b']);
  });

  it('answers 500 with code 23 when the only possible channel fails, and refunds', async () => {
    const before = await used();
    primary.troubleNext(1, { status: 500 });
    const { status, body } = await ig.post('/ig/submit/imagine', { prompt: 'x', accountFilter: { instanceId: 'vendor-a' } });
    expect(status).toBe(500);
    expect(body).toMatchObject({ code: 23, result: null });
    expect(await used()).toBeCloseTo(before);
  });

  it('passes the service’s refusals and queue on as envelope codes', async () => {
    const banned = await ig.post('/ig/submit/imagine', { prompt: 'banned words' });
    expect(banned.status).toBe(403);
    expect(banned.body).toMatchObject({ code: 24 });
    const queued = await ig.post('/ig/submit/imagine', { prompt: 'queue please' });
    expect(queued.body).toMatchObject({ code: 22, properties: { numberOfQueues: 2 } });
    expect(await ig.waitFor(queued.body.result)).toMatchObject({ status: 'SUCCESS' });
  });

  it('fails a task whose image sits on an address the gateway may not contact, and refunds it', async () => {
    const closedPlace = await createPlace(engine);
    const closed = await closedPlace.start({
      env: { SWITCHYARD_OUTBOUND_ALLOW: '' },
      config: {
        channels: [{ name: 'vendor-a', type: 'ig-proxy', baseUrl: primary.origin, apiKey: 'upstream-secret-0001', models: ['ig_*'], settings: vendorSettings }],
        keys: [{ name: 'proxy', key: KEY, quota: 50 }],
        prices: { 'ig_*': { perCall: 0.1 } },
      },
    });
    try {
      const client = igClient(closed.url, KEY);
      const { body } = await client.post('/ig/submit/imagine', { prompt: 'private image' });
      const failed = await client.waitFor(body.result);
      expect(failed.status).toBe('FAILURE');
      expect(failed.failReason).toMatch(/could not be fetched: .*private or reserved/);
      expect((await closed.admin('GET', '/keys')).body.data[0].used).toBeCloseTo(0);
    } finally {
      await closed.close();
      await closedPlace.destroy();
    }
  });

  it('reports a task the service fails, and refunds it', async () => {
    primary.failPrompt('doomed');
    const before = await used();
    const { body } = await ig.post('/ig/submit/imagine', { prompt: 'doomed', accountFilter: { instanceId: 'vendor-a' } });
    const failed = await ig.waitFor(body.result);
    expect(failed).toMatchObject({ status: 'FAILURE', failReason: 'upstream says no' });
    expect(await used()).toBeCloseTo(before);
  });
});
