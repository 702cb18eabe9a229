/**
 * Retention: a finished video is downloadable until `expires_at` (its
 * finish plus `videos.retentionSeconds`); after that `/content` answers 404
 * naming the expiry, `url` is gone, and the sweep removes its files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepExpired } from '../../src/families/videos/sweeper.js';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, type Place } from '../support/places.js';
import { videoHttp } from '../families/videos/support.js';

const KEY = 'sk-videos-expiry-00001';

describe('video retention', () => {
  let place: Place;
  let gw: TestGateway;

  beforeAll(async () => {
    place = await createPlace('sqlite');
    gw = await place.start({
      config: {
        channels: [{ name: 'sim', type: 'simulator', settings: { taskSeconds: 0.1, videoSize: 32 } }],
        keys: [{ name: 'expiry', key: KEY }],
        videos: { retentionSeconds: 1, defaultModel: 'short-lived' },
      },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
  });

  it('serves until expires_at, then refuses and sweeps the files', async () => {
    const http = videoHttp(gw.url, KEY);
    const created = await http.post('/v1/videos', { prompt: 'brief', seconds: '1' });
    expect(created.body.model).toBe('short-lived');
    const done = await http.waitFor(created.body.id);
    expect(done.expires_at - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(1);
    expect((await fetch(done.url)).status).toBe(200);
    expect((await http.get(`/v1/videos/${done.id}/content`)).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const later = (await http.get(`/v1/videos/${done.id}`)).body;
    expect(later.status).toBe('succeeded');
    expect(later.url).toBeUndefined();
    const content = await http.get(`/v1/videos/${done.id}/content`);
    expect(content.status).toBe(404);
    expect(content.body.error.message).toMatch(/expired at/);

    // The gateway's own sweeper (every second at this retention) may have come first: either way the file goes.
    await sweepExpired(gw.gateway.ctx, 1_000);
    expect((await fetch(done.url)).status).toBe(404);
    // The watermark keeps the next pass to newer tasks.
    expect(await sweepExpired(gw.gateway.ctx, 1_000)).toBe(0);
    const remix = await http.post(`/v1/videos/${done.id}/remix`, { prompt: 'again' });
    expect(remix.status).toBe(400);
    expect(remix.body.error.message).toMatch(/expired/);
  });
});
