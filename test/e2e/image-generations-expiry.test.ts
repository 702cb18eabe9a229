/**
 * `url` answers of `/v1/images/*` expire (`imageGenerations.urlExpirySeconds`,
 * here ten seconds, long enough for a busy machine to answer and fetch first), on SQLite and PostgreSQL: the address serves the image
 * until then, answers 404 after, and the sweeper removes the file and its
 * row. Family A's task images keep their lifetime.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepExpiredImages } from '../../src/families/image-generations/expiry.js';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';
import { igClient } from '../families/images/support.js';

const KEY = 'sk-client-images-expiry-01';

/** Polls a condition until it holds (generous: the machine may be busy). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never happened: ${what}`);
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe.each(ENGINES)('image url expiry on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;
  let client: OpenAI;

  beforeAll(async () => {
    place = await createPlace(engine);
    gw = await place.start({
      config: {
        channels: [{ name: 'sim', type: 'simulator', models: ['dall-e-2', 'ig_*'], settings: { taskSeconds: 0.1 } }],
        keys: [{ name: 'client', key: KEY }],
        imageGenerations: { urlExpirySeconds: 10 },
      },
    });
    client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: KEY, maxRetries: 0 });
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
  });

  it('serves a url answer until it expires, then answers 404, and the sweeper removes the file', async () => {
    const answer = await client.images.generate({ model: 'dall-e-2', prompt: 'a brief comet', size: '64x64' });
    const url = answer.data![0].url!;
    const key = url.slice(url.lastIndexOf('/') + 1);
    expect(key).toMatch(/^[0-9a-f]{32}-[0-9a-z]+\.png$/);
    const file = path.join(place.dataDir, 'media', key.slice(0, 2), key);
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(Number(/max-age=(\d+)/.exec(first.headers.get('cache-control')!)![1])).toBeLessThanOrEqual(10);
    expect(await exists(file)).toBe(true);

    await eventually(async () => (await fetch(url)).status === 404, 'the address answering 404');
    // The gateway's own sweeper (every 2.5 s at this expiry) may come first: either way the file and its row go.
    await sweepExpiredImages(gw.gateway.ctx);
    await eventually(async () => !(await exists(file)), 'the file removed');
    const rows = await gw.gateway.ctx.store.db.selectFrom('expiring_media').selectAll().where('media_key', '=', key).execute();
    expect(rows).toEqual([]);
  });

  it('keeps b64 answers out of the store, and family A task images past the expiry', async () => {
    const countRows = async () => (await gw.gateway.ctx.store.db.selectFrom('expiring_media').selectAll().execute()).length;
    const before = await countRows();
    await client.images.generate({ model: 'dall-e-2', prompt: 'bytes only', size: '64x64', response_format: 'b64_json' });
    expect(await countRows()).toBe(before);
    const ig = igClient(gw.url, KEY);
    const submitted = await ig.post('/ig/submit/imagine', { prompt: 'a lasting tram' });
    const grid = await ig.waitFor(submitted.body.result);
    expect(grid.imageUrl).toMatch(/\/ig\/image\/[0-9a-f]{32}\.png$/);
    // A sweep as if every answer had expired leaves the task's image alone.
    await sweepExpiredImages(gw.gateway.ctx, Date.now() + 3_600_000);
    expect((await fetch(grid.imageUrl)).status).toBe(200);
  });
});
