/**
 * Family A end to end over HTTP on the built-in simulator, on SQLite and
 * PostgreSQL: imagine → U1 → upscale buttons, variations, pan and zoom,
 * custom zoom and vary region through MODAL, blend, describe and shorten
 * with their modal follow-ups, face swap, upload, list-by-condition, image
 * seeds, and the painted PNGs' layout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';
import { averageColour, decodePng, distance, igClient, pngDataUrl, type IgClient } from '../families/images/support.js';

const KEY = 'sk-images-flows-0001';
const OTHER_KEY = 'sk-images-flows-0002';

const config = {
  channels: [
    {
      name: 'sim',
      type: 'simulator',
      priority: 10,
      settings: {
        taskSeconds: 0.2,
        imageSize: 256,
        accounts: [{ instanceId: 'acc-1', channelId: 'room-1', modes: ['FAST', 'RELAX'], remark: 'main account' }],
      },
    },
    {
      name: 'sim-remix',
      type: 'simulator',
      settings: { taskSeconds: 0.2, imageSize: 128, accounts: [{ instanceId: 'acc-remix', channelId: 'room-2', remix: true }] },
    },
  ],
  keys: [
    { name: 'flows', key: KEY, quota: 100 },
    { name: 'other', key: OTHER_KEY },
  ],
  prices: { 'ig_*': { perCall: 0.1 }, ig_describe: { perCall: 0.05 } },
};

const UPSCALE_LABELS = ['Upscale (Subtle)', 'Upscale (Creative)', 'Vary (Subtle)', 'Vary (Strong)', 'Vary (Region)', 'Zoom Out 2x', 'Zoom Out 1.5x', 'Custom Zoom', '', '', '', ''];

describe.each(ENGINES)('image tasks end to end on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;
  let ig: IgClient;
  let other: IgClient;

  beforeAll(async () => {
    place = await createPlace(engine);
    gw = await place.start({ config });
    ig = igClient(gw.url, KEY);
    other = igClient(gw.url, OTHER_KEY);
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
  });

  async function submit(path: string, body: unknown): Promise<string> {
    const { status, body: envelope } = await ig.post(path, body);
    expect(status, JSON.stringify(envelope)).toBe(200);
    expect(envelope).toMatchObject({ code: 1, description: 'Submit success' });
    expect(typeof envelope.result).toBe('string');
    expect(envelope.result).toMatch(/^\d{16}$/);
    return envelope.result;
  }

  const press = (task: any, match: (button: any) => boolean, extra: object = {}) => submit('/ig/submit/action', { taskId: task.id, customId: task.buttons.find(match).customId, ...extra });

  async function image(url: string) {
    expect(url.startsWith(gw.url)).toBe(true);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    return decodePng(Buffer.from(await response.arrayBuffer()));
  }

  it('imagines a 2x2 grid, upscales U1 to one image with the upscale buttons', async () => {
    const id = await submit('/ig/submit/imagine', { prompt: 'a lighthouse at dawn --ar 3:2', state: 'track-1' });
    const early = (await ig.get(`/ig/task/${id}/fetch`)).body;
    expect(['SUBMITTED', 'IN_PROGRESS', 'SUCCESS']).toContain(early.status);
    expect(early.progress).toMatch(/^\d{1,3}%$/);
    const grid = await ig.waitFor(id);
    expect(Object.keys(grid)).toEqual([
      'id',
      'action',
      'status',
      'prompt',
      'promptEn',
      'description',
      'failReason',
      'imageUrl',
      'progress',
      'state',
      'submitTime',
      'startTime',
      'finishTime',
      'properties',
      'buttons',
    ]);
    expect(grid).toMatchObject({
      id,
      action: 'IMAGINE',
      status: 'SUCCESS',
      prompt: 'a lighthouse at dawn --ar 3:2',
      progress: '100%',
      state: 'track-1',
      failReason: '',
      description: '/imagine a lighthouse at dawn --ar 3:2',
      properties: { finalPrompt: 'a lighthouse at dawn --ar 3:2 --v 6.1', botType: 'MID_GEN' },
    });
    expect(grid.submitTime).toBeGreaterThan(1_600_000_000_000);
    expect(grid.startTime).toBeGreaterThanOrEqual(grid.submitTime);
    expect(grid.finishTime).toBeGreaterThanOrEqual(grid.startTime);
    expect(grid.buttons.map((b: any) => b.label)).toEqual(['U1', 'U2', 'U3', 'U4', '', 'V1', 'V2', 'V3', 'V4']);
    expect(grid.buttons[4]).toMatchObject({ emoji: '🔄', style: 2, type: 2 });
    expect(grid.buttons[0].customId).toMatch(/^IG::JOB::upsample::1::[0-9a-f-]{36}$/);

    const gridPng = await image(grid.imageUrl);
    expect([gridPng.width, gridPng.height]).toEqual([256, 170]);
    const quadrants = [0, 1, 2, 3].map((i) => averageColour(gridPng, (i % 2) * 128, Math.floor(i / 2) * 85, 128, 85));
    expect(new Set(quadrants.map((q) => q.map(Math.round).join())).size).toBe(4);

    const upscaleId = await press(grid, (b) => b.label === 'U1');
    const upscale = await ig.waitFor(upscaleId);
    expect(upscale).toMatchObject({ action: 'UPSCALE', status: 'SUCCESS', prompt: grid.prompt });
    expect(upscale.properties.parentId).toBe(id);
    expect(upscale.buttons.map((b: any) => b.label)).toEqual(UPSCALE_LABELS);
    expect(upscale.buttons.slice(-4).map((b: any) => b.emoji)).toEqual(['⬅️', '➡️', '⬆️', '⬇️']);
    expect(upscale.buttons.find((b: any) => b.label === 'Custom Zoom').customId).toMatch(/^IG::CustomZoom::[0-9a-f-]{36}$/);
    const single = await image(upscale.imageUrl);
    expect([single.width, single.height]).toEqual([256, 170]);
    // The upscale repaints the U1 tile: its quarters match the grid's top-left tile quarters.
    const fromGrid = averageColour(gridPng, 0, 0, 64, 42);
    const fromUpscale = averageColour(single, 0, 0, 128, 85);
    expect(distance(fromGrid, fromUpscale)).toBeLessThan(12);
  });

  it('runs the upscale buttons: vary, pan and zoom make VARIATION, PAN and ZOOM tasks', async () => {
    const grid = await ig.waitFor(await submit('/ig/submit/imagine', { prompt: 'a paper kite' }));
    const upscale = await ig.waitFor(await press(grid, (b) => b.label === 'U2'));
    const ids = await Promise.all([
      press(upscale, (b) => b.label === 'Vary (Strong)'),
      press(upscale, (b) => b.emoji === '⬅️'),
      press(upscale, (b) => b.label === 'Zoom Out 2x'),
      press(upscale, (b) => b.label === 'Upscale (Subtle)'),
      press(grid, (b) => b.label === 'V3'),
      press(grid, (b) => b.emoji === '🔄'),
    ]);
    const done = await Promise.all(ids.map((taskId) => ig.waitFor(taskId)));
    expect(done.map((task) => [task.action, task.status])).toEqual([
      ['VARIATION', 'SUCCESS'],
      ['PAN', 'SUCCESS'],
      ['ZOOM', 'SUCCESS'],
      ['UPSCALE', 'SUCCESS'],
      ['VARIATION', 'SUCCESS'],
      ['IMAGINE', 'SUCCESS'],
    ]);
    expect(done[0].buttons).toHaveLength(9);
    // An upscale of an upscale has no further upscale buttons.
    expect(done[3].buttons.map((b: any) => b.label)).toEqual(UPSCALE_LABELS.slice(2));
  });

  it('takes a custom zoom through MODAL and /ig/submit/modal', async () => {
    const grid = await ig.waitFor(await submit('/ig/submit/imagine', { prompt: 'a glass teapot' }));
    const upscale = await ig.waitFor(await press(grid, (b) => b.label === 'U4'));
    const zoomId = await press(upscale, (b) => b.label === 'Custom Zoom');
    const waiting = (await ig.get(`/ig/task/${zoomId}/fetch`)).body;
    expect(waiting).toMatchObject({ status: 'MODAL', action: 'ZOOM', progress: '0%', description: 'Waiting for window confirm', buttons: [], imageUrl: '' });
    const modal = await ig.post('/ig/submit/modal', { taskId: zoomId, prompt: 'a glass teapot on a table' });
    expect(modal.body).toMatchObject({ code: 1, result: zoomId });
    const zoomed = await ig.waitFor(zoomId);
    expect(zoomed).toMatchObject({ status: 'SUCCESS', action: 'ZOOM', prompt: 'a glass teapot on a table --zoom 2' });
    const again = await ig.post('/ig/submit/modal', { taskId: zoomId, prompt: 'again' });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 21, result: null });
    expect(again.body.description).toMatch(/not waiting for a modal/);
  });

  it('takes vary region through MODAL, which needs a mask', async () => {
    const grid = await ig.waitFor(await submit('/ig/submit/imagine', { prompt: 'a red fox' }));
    const upscale = await ig.waitFor(await press(grid, (b) => b.label === 'U1'));
    const regionId = await press(upscale, (b) => b.label === 'Vary (Region)');
    expect((await ig.get(`/ig/task/${regionId}/fetch`)).body.status).toBe('MODAL');
    const noMask = await ig.post('/ig/submit/modal', { taskId: regionId, prompt: 'a blue fox' });
    expect(noMask.status).toBe(400);
    expect(noMask.body).toMatchObject({ code: 21 });
    expect(noMask.body.description).toMatch(/maskBase64/);
    const ok = await ig.post('/ig/submit/modal', { taskId: regionId, prompt: 'a blue fox', maskBase64: pngDataUrl(255, 255, 255) });
    expect(ok.body).toMatchObject({ code: 1, result: regionId });
    expect(await ig.waitFor(regionId)).toMatchObject({ status: 'SUCCESS', action: 'VARIATION', prompt: 'a blue fox' });
  });

  it('blends 2 to 5 images into a grid of the chosen dimensions', async () => {
    const images = [pngDataUrl(255, 0, 0), pngDataUrl(0, 255, 0), pngDataUrl(0, 0, 255)];
    const id = await submit('/ig/submit/blend', { base64Array: images, dimensions: 'PORTRAIT' });
    const blend = await ig.waitFor(id);
    expect(blend).toMatchObject({ action: 'BLEND', status: 'SUCCESS', description: `/blend ${id} 3` });
    expect(blend.buttons).toHaveLength(9);
    const png = await image(blend.imageUrl);
    expect([png.width, png.height]).toEqual([170, 256]);
  });

  it('describes an image, then imagines from one of its descriptions', async () => {
    const input = pngDataUrl(12, 34, 56);
    const id = await submit('/ig/submit/describe', { base64: input });
    const described = await ig.waitFor(id);
    expect(described).toMatchObject({ action: 'DESCRIBE', status: 'SUCCESS' });
    const lines = described.prompt.split('\n\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^1️⃣ .+ --ar \d+:\d+$/);
    expect(described.promptEn).toBe(described.prompt);
    expect(described.buttons.map((b: any) => b.customId)).toEqual(['IG::Job::PicReader::1', 'IG::Job::PicReader::2', 'IG::Job::PicReader::3', 'IG::Job::PicReader::4', 'IG::Picread::Retry']);
    // The described image is the task's image.
    const served = Buffer.from(await (await fetch(described.imageUrl)).arrayBuffer());
    expect(served.equals(Buffer.from(input.split(',')[1], 'base64'))).toBe(true);

    const followId = await press(described, (b) => b.customId === 'IG::Job::PicReader::2');
    expect((await ig.get(`/ig/task/${followId}/fetch`)).body).toMatchObject({ status: 'MODAL', action: 'IMAGINE' });
    expect((await ig.post('/ig/submit/modal', { taskId: followId })).body).toMatchObject({ code: 1, result: followId });
    const imagined = await ig.waitFor(followId);
    expect(imagined).toMatchObject({ status: 'SUCCESS', action: 'IMAGINE', prompt: lines[1].replace(/^2️⃣ /, '') });
    expect(imagined.buttons).toHaveLength(9);

    const retried = await ig.waitFor(await press(described, (b) => b.customId === 'IG::Picread::Retry'));
    expect(retried).toMatchObject({ status: 'SUCCESS', action: 'DESCRIBE' });
  });

  it('shortens a prompt, then imagines one of the suggestions through the modal', async () => {
    const id = await submit('/ig/submit/shorten', { prompt: 'a very detailed picture of an old tram in heavy rain at night --ar 16:9' });
    const shortened = await ig.waitFor(id);
    expect(shortened).toMatchObject({ action: 'SHORTEN', status: 'SUCCESS', imageUrl: '' });
    expect(shortened.description).toMatch(/^\*\*Shortened prompts\*\*/);
    expect(shortened.buttons.map((b: any) => b.emoji)).toEqual(['1️⃣', '2️⃣', '3️⃣', '4️⃣', '5️⃣']);
    const followId = await press(shortened, (b) => b.customId === 'IG::Job::PromptAnalyzer::3');
    expect((await ig.get(`/ig/task/${followId}/fetch`)).body.status).toBe('MODAL');
    await ig.post('/ig/submit/modal', { taskId: followId, prompt: 'an old tram --ar 16:9' });
    const imagined = await ig.waitFor(followId);
    expect(imagined).toMatchObject({ status: 'SUCCESS', action: 'IMAGINE', prompt: 'an old tram --ar 16:9' });
    expect([(await image(imagined.imageUrl)).width, (await image(imagined.imageUrl)).height]).toEqual([256, 144]);
  });

  it.each(['/ig/face/swap', '/ig/insight-face/swap'])('swaps a face through %s', async (path) => {
    const id = await submit(path, { sourceBase64: pngDataUrl(200, 150, 120), targetBase64: pngDataUrl(20, 40, 60), state: 's' });
    const swapped = await ig.waitFor(id);
    expect(swapped).toMatchObject({ action: 'SWAP_FACE', status: 'SUCCESS', state: 's', buttons: [] });
    const png = await image(swapped.imageUrl);
    expect([png.width, png.height]).toEqual([256, 256]);
    expect(distance(averageColour(png, 120, 100, 16, 16), averageColour(png, 0, 0, 16, 16))).toBeGreaterThan(5);
  });

  it('uploads images and answers absolute gateway URLs', async () => {
    const images = [pngDataUrl(1, 2, 3), pngDataUrl(4, 5, 6)];
    const { status, body } = await ig.post('/ig/submit/upload-discord-images', { base64Array: images, filter: { instanceId: 'acc-1' } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ code: 1 });
    expect(body.result).toHaveLength(2);
    for (const [i, url] of (body.result as string[]).entries()) {
      expect(url).toMatch(new RegExp(`^${gw.url}/ig/image/[0-9a-f]{32}\\.png$`));
      const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
      expect(bytes.equals(Buffer.from(images[i].split(',')[1], 'base64'))).toBe(true);
    }
    const unknown = await ig.post('/ig/submit/upload-discord-images', { base64Array: images, filter: { instanceId: 'nope' } });
    expect(unknown.status).toBe(403);
    expect(unknown.body).toMatchObject({ code: 24, result: null });
  });

  it('lists tasks by ids: the key’s own, in order, unknown ids left out', async () => {
    const a = await submit('/ig/submit/imagine', { prompt: 'list a' });
    const b = await submit('/ig/submit/imagine', { prompt: 'list b' });
    const theirs = await other.post('/ig/submit/imagine', { prompt: 'not yours' });
    const { status, body } = await ig.post('/ig/task/list-by-condition', { ids: [b, '1234567890123456', theirs.body.result, a, 'x'] });
    expect(status).toBe(200);
    expect(body.map((task: any) => task.id)).toEqual([b, a]);
    expect(body[0].prompt).toBe('list b');
    expect(await ig.post('/ig/task/list-by-condition', {})).toMatchObject({ status: 400, body: { code: 21, description: 'ids: required' } });
    expect((await ig.post('/ig/task/list-by-condition', { ids: [] })).body).toEqual([]);
    const hidden = await ig.get(`/ig/task/${theirs.body.result}/fetch`);
    expect(hidden.status).toBe(404);
  });

  it('gives stable image seeds, and a --seed in the prompt wins', async () => {
    const [one, two, seeded] = await Promise.all([
      submit('/ig/submit/imagine', { prompt: 'seed check' }),
      submit('/ig/submit/imagine', { prompt: 'seed check' }),
      submit('/ig/submit/imagine', { prompt: 'seed check --seed 4242' }),
    ]);
    const tasks = await Promise.all([one, two, seeded].map((id) => ig.waitFor(id)));
    const seeds = await Promise.all([one, two, seeded].map(async (id) => (await ig.get(`/ig/task/${id}/image-seed`)).body));
    expect(seeds[0]).toMatchObject({ code: 1, description: 'Success' });
    expect(seeds[0].result).toMatch(/^\d+$/);
    expect(seeds[0].result).toBe(seeds[1].result);
    expect(seeds[2].result).toBe('4242');
    // Same seed, same picture.
    const [a, b] = await Promise.all(tasks.slice(0, 2).map(async (task) => Buffer.from(await (await fetch(task.imageUrl)).arrayBuffer())));
    expect(a.equals(b)).toBe(true);
    const describeId = await submit('/ig/submit/describe', { base64: pngDataUrl(9, 9, 9) });
    await ig.waitFor(describeId);
    const none = await ig.get(`/ig/task/${describeId}/image-seed`);
    expect(none.status).toBe(400);
    expect(none.body.code).toBe(21);
  });

  it('speaks the niji bot type, accepts Chinese prompts and the vendor customId prefix', async () => {
    const id = await submit('/ig/submit/imagine', { prompt: '一只在雨中的猫', botType: 'NIJI_GEN' });
    const task = await ig.waitFor(id);
    expect(task.properties).toMatchObject({ botType: 'NIJI_GEN', finalZhPrompt: '一只在雨中的猫', finalPrompt: '一只在雨中的猫 --niji 6' });
    const vendorId = task.buttons[1].customId.replace(/^IG::/, 'MJ::');
    const upscaleId = await submit('/ig/submit/action', { taskId: id, customId: vendorId });
    const upscale = await ig.waitFor(upscaleId);
    expect(upscale.buttons[0].customId).toMatch(/^IG::JOB::upsample_v6_2x_subtle::1::/);
  });

  it('routes by accountFilter, and a remix-mode account makes variations wait for a modal', async () => {
    const id = await submit('/ig/submit/imagine', { prompt: 'remix me', accountFilter: { remix: true } });
    const grid = await ig.waitFor(id);
    const variationId = await press(grid, (b) => b.label === 'V1');
    expect((await ig.get(`/ig/task/${variationId}/fetch`)).body).toMatchObject({ status: 'MODAL', action: 'VARIATION' });
    await ig.post('/ig/submit/modal', { taskId: variationId, prompt: 'remixed' });
    expect(await ig.waitFor(variationId)).toMatchObject({ status: 'SUCCESS', prompt: 'remixed' });
    // This channel paints smaller images: the task went to the remix account's channel.
    const png = await image(grid.imageUrl);
    expect(png.width).toBe(128);
    await gw.gateway.ctx.recorder.flush();
    const logs = (await gw.admin('GET', '/logs?limit=200')).body.data;
    const sims = logs.filter((row: any) => row.family === 'images' && row.model === 'ig_imagine').map((row: any) => row.triedChannels[0]);
    expect(sims).toContain('sim-remix');
  });

  it('charges the per-action price when a task is accepted', async () => {
    const key = (await gw.admin('GET', '/keys')).body.data.find((k: any) => k.name === 'flows');
    const before = key.used;
    await ig.waitFor(await submit('/ig/submit/imagine', { prompt: 'priced' }));
    await ig.waitFor(await submit('/ig/submit/describe', { base64: pngDataUrl(1, 1, 1) }));
    const after = (await gw.admin('GET', `/keys/${key.id}`)).body.used;
    expect(after - before).toBeCloseTo(0.15);
  });
});
