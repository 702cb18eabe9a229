/**
 * Family A's envelope codes and HTTP statuses, on SQLite and PostgreSQL:
 * 21 parameter errors (400) and unknown tasks (404), 24 for keys and
 * accounts (401/403), 25 insufficient balance (403), 23 for rate limits (429)
 * and system errors (500), 22 queued; and money: failures and timeouts are
 * refunded once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';
import { ANIMATED_GIF_DATA_URL, igClient, JPEG_DATA_URL, pngDataUrl, STATIC_GIF_DATA_URL, WEBP_DATA_URL, type IgClient } from '../families/images/support.js';

const KEY = 'sk-images-errors-main';
const config = {
  channels: [
    { name: 'sim', type: 'simulator', priority: 10, models: ['ig_*'], settings: { taskSeconds: 0.15, imageSize: 64, accounts: [{ instanceId: 'acc-a', modes: ['RELAX'] }] } },
    { name: 'sim-failing', type: 'simulator', priority: 20, models: ['ig_blend'], settings: { taskSeconds: 0.15, imageSize: 64, failTasks: true } },
    { name: 'sim-queue', type: 'simulator', settings: { taskSeconds: 0.4, imageSize: 64, concurrency: 1, accounts: [{ instanceId: 'queue-acc' }] } },
    { name: 'sim-slow', type: 'simulator', settings: { taskSeconds: 600, accounts: [{ instanceId: 'slow-acc' }] } },
    // An upstream that refuses connections: the submission fails (a broken setting is now refused when the config is read).
    { name: 'broken', type: 'ig-proxy', baseUrl: 'http://127.0.0.1:1', models: ['ig_*'], settings: { accounts: [{ instanceId: 'broken-acc' }] } },
  ],
  keys: [
    { name: 'main', key: KEY, quota: 100 },
    { name: 'poor', key: 'sk-images-errors-poor', quota: 0.15 },
    { name: 'describe-only', key: 'sk-images-errors-limited', models: ['ig_describe'] },
    { name: 'describe-prefix', key: 'sk-images-errors-prefix', models: ['ig_desc*'] },
    { name: 'rpm', key: 'sk-images-errors-rpm', rpm: 1 },
  ],
  prices: { 'ig_*': { perCall: 0.1 } },
  taskTimeouts: { images: 2 },
};

describe.each(ENGINES)('image task errors on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;
  let ig: IgClient;

  beforeAll(async () => {
    place = await createPlace(engine);
    gw = await place.start({ config });
    ig = igClient(gw.url, KEY);
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
  });

  const used = async (name: string) => (await gw.admin('GET', '/keys')).body.data.find((k: any) => k.name === name).used as number;

  async function expectError(response: Promise<{ status: number; body: any }>, status: number, code: number, message?: RegExp) {
    const { status: got, body } = await response;
    expect(got, JSON.stringify(body)).toBe(status);
    expect(body).toEqual({ code, description: expect.any(String), result: null });
    if (message) expect(body.description).toMatch(message);
  }

  it('answers 401 with code 24 without a valid key', async () => {
    await expectError(igClient(gw.url, '').post('/ig/submit/imagine', { prompt: 'x' }), 401, 24, /missing API key/);
    await expectError(igClient(gw.url, 'sk-wrong').get('/ig/task/1/fetch'), 401, 24, /invalid API key/);
  });

  it.each([
    ['no prompt', '/ig/submit/imagine', {}, /prompt: required/],
    ['an empty prompt', '/ig/submit/imagine', { prompt: '   ' }, /prompt: must not be empty/],
    ['a body that is not an object', '/ig/submit/imagine', [1, 2], /JSON object/],
    ['an unknown bot type', '/ig/submit/imagine', { prompt: 'x', botType: 'OTHER' }, /botType/],
    ['a padding image that is not an image', '/ig/submit/imagine', { prompt: 'x', base64Array: ['data:image/png;base64,aGVsbG8='] }, /base64Array.0: is not a JPEG, PNG, GIF or WEBP/],
    ['an unsupported image type', '/ig/submit/describe', { base64: 'data:image/bmp;base64,Qk0=' }, /unsupported image type/],
    ['an animated GIF', '/ig/submit/describe', { base64: ANIMATED_GIF_DATA_URL }, /animated GIFs/],
    ['an image over 4 MB', '/ig/submit/describe', { base64: `data:image/png;base64,${Buffer.alloc(4 * 1024 * 1024 + 10, 1).toString('base64')}` }, /larger than 4 MB/],
    ['a blend of one image', '/ig/submit/blend', { base64Array: [pngDataUrl(1, 1, 1)] }, /2 to 5/],
    ['a blend of six images', '/ig/submit/blend', { base64Array: Array.from({ length: 6 }, (_, i) => pngDataUrl(i, 0, 0)) }, /2 to 5/],
    ['unknown blend dimensions', '/ig/submit/blend', { base64Array: [pngDataUrl(1, 1, 1), pngDataUrl(2, 2, 2)], dimensions: 'WIDE' }, /dimensions/],
    ['a describe without its image', '/ig/submit/describe', {}, /base64: required/],
    ['a face swap of one image with itself', '/ig/face/swap', { sourceBase64: pngDataUrl(5, 5, 5), targetBase64: pngDataUrl(5, 5, 5) }, /must differ/],
    ['a state over 255 characters', '/ig/submit/imagine', { prompt: 'x', state: 's'.repeat(256) }, /state: must be at most 255/],
    ['a notifyHook that is not a URL', '/ig/submit/imagine', { prompt: 'x', notifyHook: 'not a url' }, /notifyHook is not a valid URL/],
    ['a notifyHook on a private address', '/ig/submit/imagine', { prompt: 'x', notifyHook: 'http://169.254.169.254/latest' }, /private or reserved/],
    ['an unknown account mode', '/ig/submit/imagine', { prompt: 'x', accountFilter: { modes: ['SLOW'] } }, /accountFilter.modes/],
    ['a modal without a task id', '/ig/submit/modal', { prompt: 'x' }, /taskId: required/],
    ['an action without a customId', '/ig/submit/action', { taskId: '1' }, /customId: required/],
    ['an upload of nothing', '/ig/submit/upload-discord-images', { base64Array: [] }, /at least one image/],
    ['a list with ids that are not a list', '/ig/task/list-by-condition', { ids: 'abc' }, /ids/],
  ])('answers 400 with code 21 for %s', async (_what, path, body, message) => {
    await expectError(ig.post(path, body), 400, 21, message);
  });

  it('accepts JPEG, PNG, static GIF and WEBP images', async () => {
    const { status, body } = await ig.post('/ig/submit/upload-discord-images', {
      base64Array: [JPEG_DATA_URL, pngDataUrl(7, 7, 7), STATIC_GIF_DATA_URL, WEBP_DATA_URL],
    });
    expect(status).toBe(200);
    expect(body.result.map((url: string) => url.slice(url.lastIndexOf('.')))).toEqual(['.jpg', '.png', '.gif', '.webp']);
  });

  it('answers 404 with code 21 for unknown tasks, routes and images', async () => {
    await expectError(ig.get('/ig/task/9999999999999999/fetch'), 404, 21, /task 9999999999999999 not found/);
    await expectError(ig.get('/ig/task/9999999999999999/image-seed'), 404, 21);
    await expectError(ig.post('/ig/submit/action', { taskId: '9999999999999999', customId: 'IG::JOB::upsample::1::0123456789abcdef' }), 404, 21);
    await expectError(ig.post('/ig/submit/modal', { taskId: '9999999999999999' }), 404, 21);
    await expectError(ig.get('/ig/no/such/route'), 404, 21, /no route/);
    await expectError(ig.get('/ig/image/0123456789abcdef0123456789abcdef.png'), 404, 21);
    await expectError(ig.get('/ig/image/..%2F..%2Fswitchyard.db'), 404, 21);
  });

  it('refuses malformed, unknown and premature customIds with code 21', async () => {
    const { body } = await ig.post('/ig/submit/imagine', { prompt: 'buttons' });
    const id = body.result;
    await expectError(ig.post('/ig/submit/action', { taskId: id, customId: 'IG::JOB::upsample::1::0123456789abcdef' }), 400, 21, /not finished/);
    const task = await ig.waitFor(id);
    await expectError(ig.post('/ig/submit/action', { taskId: id, customId: 'garbage' }), 400, 21, /not a valid customId/);
    await expectError(ig.post('/ig/submit/action', { taskId: id, customId: 'IG::JOB::upsample::9::abc' }), 400, 21, /not a valid customId/);
    const foreignHash = task.buttons[0].customId.replace(/[0-9a-f-]{36}$/, '00000000-0000-0000-0000-000000000000');
    await expectError(ig.post('/ig/submit/action', { taskId: id, customId: foreignHash }), 400, 21, /not a button of task/);
    await expectError(ig.post('/ig/submit/modal', { taskId: id, prompt: 'x' }), 400, 21, /not waiting for a modal/);
  });

  it('answers 403 with code 24 when no account or channel can take the task, or the key may not', async () => {
    await expectError(ig.post('/ig/submit/imagine', { prompt: 'x', accountFilter: { instanceId: 'nobody' } }), 403, 24, /accountFilter/);
    await expectError(ig.post('/ig/submit/imagine', { prompt: 'x', accountFilter: { modes: ['TURBO'], instanceId: 'acc-a' } }), 403, 24);
    const limited = igClient(gw.url, 'sk-images-errors-limited');
    await expectError(limited.post('/ig/submit/imagine', { prompt: 'x' }), 403, 24, /may not use model "ig_imagine"/);
    expect((await limited.post('/ig/submit/describe', { base64: pngDataUrl(3, 3, 3) })).body.code).toBe(1);
    // A key's `models` takes `prefix*` patterns for actions as for models.
    const prefixed = igClient(gw.url, 'sk-images-errors-prefix');
    await expectError(prefixed.post('/ig/submit/imagine', { prompt: 'x' }), 403, 24, /may not use model "ig_imagine"/);
    expect((await prefixed.post('/ig/submit/describe', { base64: pngDataUrl(3, 3, 3) })).body.code).toBe(1);
  });

  it('answers 403 with code 25 when the balance cannot cover the task', async () => {
    const poor = igClient(gw.url, 'sk-images-errors-poor');
    expect((await poor.post('/ig/submit/imagine', { prompt: 'one' })).body.code).toBe(1);
    await expectError(poor.post('/ig/submit/imagine', { prompt: 'two' }), 403, 25, /insufficient balance/);
    expect(await used('poor')).toBeCloseTo(0.1);
  });

  it('answers 429 with code 23 and retry-after past the rate limit', async () => {
    const limited = igClient(gw.url, 'sk-images-errors-rpm');
    expect((await limited.post('/ig/submit/imagine', { prompt: 'one' })).status).toBe(200);
    const second = await limited.post('/ig/submit/imagine', { prompt: 'two' });
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({ code: 23, result: null });
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('answers 500 with code 23 when the upstream fails at submission, and refunds', async () => {
    const before = await used('main');
    await expectError(ig.post('/ig/submit/imagine', { prompt: 'x', accountFilter: { instanceId: 'broken-acc' } }), 500, 23);
    expect(await used('main')).toBeCloseTo(before);
  });

  it('answers code 22 when the account is busy, and runs the queued task later', async () => {
    const filter = { accountFilter: { instanceId: 'queue-acc' } };
    const first = await ig.post('/ig/submit/imagine', { prompt: 'first in line', ...filter });
    const second = await ig.post('/ig/submit/imagine', { prompt: 'second in line', ...filter });
    expect(first.body.code).toBe(1);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ code: 22, properties: { numberOfQueues: 1 } });
    expect(second.body.description).toMatch(/queue/i);
    expect((await ig.get(`/ig/task/${second.body.result}/fetch`)).body.status).toBe('NOT_START');
    const done = await ig.waitFor(second.body.result);
    const earlier = await ig.waitFor(first.body.result);
    expect(done.status).toBe('SUCCESS');
    // The queued task started when the one ahead of it finished.
    expect(done.startTime).toBeGreaterThanOrEqual(earlier.finishTime);
  });

  it('fails a task the upstream fails, with its reason, and refunds it once', async () => {
    const before = await used('main');
    const { body } = await ig.post('/ig/submit/blend', { base64Array: [pngDataUrl(1, 2, 3), pngDataUrl(3, 2, 1)] });
    expect(body.code).toBe(1);
    expect(await used('main')).toBeCloseTo(before + 0.1);
    const failed = await ig.waitFor(body.result);
    expect(failed).toMatchObject({ status: 'FAILURE', progress: '100%', imageUrl: '', buttons: [] });
    expect(failed.failReason).toMatch(/simulated failure of BLEND/);
    expect(failed.finishTime).toBeGreaterThan(0);
    expect(await used('main')).toBeCloseTo(before);
    await expectError(ig.post('/ig/submit/action', { taskId: failed.id, customId: 'IG::JOB::upsample::1::0123456789abcdef' }), 400, 21, /not finished/);
  });

  it('fails a task that outlives its family timeout, and refunds it', async () => {
    const before = await used('main');
    const { body } = await ig.post('/ig/submit/imagine', { prompt: 'forever', accountFilter: { instanceId: 'slow-acc' } });
    const timedOut = await ig.waitFor(body.result, undefined, 8_000);
    expect(timedOut.status).toBe('FAILURE');
    expect(timedOut.failReason).toMatch(/did not finish within 2 seconds/);
    expect(await used('main')).toBeCloseTo(before);
    await gw.gateway.ctx.recorder.flush();
    const logs = (await gw.admin('GET', '/logs?limit=100')).body.data;
    const refund = logs.find((row: any) => row.requestId === `refund:${body.result}`);
    expect(refund).toMatchObject({ model: 'ig_imagine', cost: -0.1, family: 'images' });
  });
});
