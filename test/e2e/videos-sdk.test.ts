/**
 * Family B with the official `openai` SDK's videos client on the built-in
 * simulator, on SQLite and PostgreSQL: create with a reference file, retrieve
 * until done, download the content (a real MP4 of the requested duration and
 * aspect ratio, an H.264 track), the thumbnail and sprite sheet, byte ranges,
 * list with pagination, remix, delete, and the spec's error shape.
 */
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';
import { inspectMp4 } from '../families/videos/mp4.js';
import { pngBytes, videoHttp, type VideoHttp } from '../families/videos/support.js';

const KEY = 'sk-videos-sdk-000001';
const OTHER_KEY = 'sk-videos-sdk-000002';

const config = {
  channels: [{ name: 'sim', type: 'simulator', settings: { taskSeconds: 0.3, videoSize: 96 } }],
  keys: [
    { name: 'videos', key: KEY, quota: 100 },
    { name: 'other', key: OTHER_KEY },
  ],
  prices: { 'sora-*': { perSecond: { '720P': 0.1, '*': 0.2 } } },
};

describe.each(ENGINES)('videos with the openai SDK on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;
  let client: OpenAI;
  let http: VideoHttp;

  beforeAll(async () => {
    place = await createPlace(engine);
    gw = await place.start({ config });
    client = new OpenAI({ apiKey: KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    http = videoHttp(gw.url, KEY);
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
  });

  async function waitDone(id: string): Promise<any> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const video: any = await client.videos.retrieve(id);
      if (video.status === 'succeeded' || video.status === 'failed') return video;
      expect(video.status).toBe('processing');
      if (Date.now() > deadline) throw new Error(`video ${id} did not finish: ${JSON.stringify(video)}`);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
  }

  it('creates with a reference file, finishes, and serves a real MP4 of the requested duration', async () => {
    const reference = await toFile(pngBytes(72, 128, [200, 30, 30], [30, 30, 200]), 'reference.png', { type: 'image/png' });
    const created: any = await client.videos.create({
      model: 'sora-2',
      prompt: 'a red and blue morning',
      seconds: '2' as any,
      size: '720x1280',
      input_reference: reference,
    });
    expect(Object.keys(created).sort()).toEqual(['created_at', 'id', 'model', 'object', 'progress', 'status']);
    expect(created).toMatchObject({ object: 'video', model: 'sora-2', status: 'processing', progress: 0 });
    expect(Math.abs(created.created_at - Date.now() / 1000)).toBeLessThan(5);

    const done = await waitDone(created.id);
    expect(done).toMatchObject({
      id: created.id,
      object: 'video',
      status: 'succeeded',
      progress: 100,
      size: '720x1280',
      seconds: '2',
      quality: 'standard',
      prompt: 'a red and blue morning',
      remixed_from_video_id: null,
      error: null,
    });
    // Retention counts from when the gateway stored the video, a moment after completion (longer on a busy machine).
    expect(Math.abs(done.expires_at - done.completed_at - 24 * 3600)).toBeLessThanOrEqual(10);
    expect(done.url.startsWith(`${gw.url}/v1/videos/files/`)).toBe(true);

    const response = await client.videos.downloadContent(created.id);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${created.id}.mp4"`);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    const mp4 = inspectMp4(bytes);
    expect(mp4.seconds).toBeCloseTo(2, 2);
    expect(mp4.sampleEntries).toContain('avc1');
    expect(mp4.samples).toBe(48);
    // Scaled down, same aspect ratio as asked.
    expect(mp4.height).toBe(96);
    expect(mp4.width / mp4.height).toBeCloseTo(720 / 1280, 1);

    // The url needs no key; players can ask for byte ranges.
    const open = await fetch(done.url);
    expect(Buffer.from(await open.arrayBuffer()).equals(bytes)).toBe(true);
    const ranged = await http.get(`/v1/videos/${created.id}/content`, { range: 'bytes=0-99' });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 0-99/${bytes.length}`);
    expect(ranged.bytes.equals(bytes.subarray(0, 100))).toBe(true);
    const tail = await http.get(`/v1/videos/${created.id}/content`, { range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(tail.bytes.equals(bytes.subarray(bytes.length - 10))).toBe(true);
    const beyond = await http.get(`/v1/videos/${created.id}/content`, { range: `bytes=${bytes.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${bytes.length}`);

    // The reference image became the backdrop: the first frame's left side is reddish in the thumbnail.
    const thumbnail = await client.videos.downloadContent(created.id, { variant: 'thumbnail' });
    expect(thumbnail.headers.get('content-type')).toBe('image/png');
    const picture = PNG.sync.read(Buffer.from(await thumbnail.arrayBuffer()));
    expect([picture.width, picture.height]).toEqual([mp4.width, mp4.height]);
    const at = (x: number, y: number) => [...picture.data.subarray((y * picture.width + x) * 4, (y * picture.width + x) * 4 + 3)];
    const [r, , b] = at(2, 2);
    expect(r).toBeGreaterThan(b);
    const sprite = await client.videos.downloadContent(created.id, { variant: 'spritesheet' });
    expect(sprite.headers.get('content-type')).toBe('image/png');
    expect(PNG.sync.read(Buffer.from(await sprite.arrayBuffer())).width).toBe(2 * Math.floor(mp4.width / 2));

    const key = (await gw.admin('GET', '/keys')).body.data.find((k: any) => k.name === 'videos');
    expect(key.used).toBeCloseTo(0.2);
  });

  it('lists with a cursor, remixes and deletes', async () => {
    const ids: string[] = [];
    for (const prompt of ['first', 'second', 'third']) {
      ids.push((await client.videos.create({ model: 'sora-2', prompt, seconds: '1' as any, size: '1280x720' })).id);
    }
    await Promise.all(ids.map(waitDone));
    const firstPage = await client.videos.list({ limit: 2 });
    expect(firstPage.data.map((video) => video.id)).toEqual([ids[2], ids[1]]);
    expect(firstPage.has_more).toBe(true);
    const all: string[] = [];
    for await (const video of client.videos.list({ limit: 2 })) all.push(video.id);
    expect(all.slice(0, 3)).toEqual([ids[2], ids[1], ids[0]]);
    const ascending = await client.videos.list({ order: 'asc', limit: 100 });
    expect(ascending.data.map((video) => video.id).slice(-3)).toEqual(ids);
    // Another key sees none of them.
    const stranger = new OpenAI({ apiKey: OTHER_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    expect((await stranger.videos.list()).data).toEqual([]);
    await expect(stranger.videos.retrieve(ids[0])).rejects.toMatchObject({ status: 404, type: 'invalid_request_error' });

    const remix: any = await client.videos.remix(ids[0], { prompt: 'first, at night' });
    expect(remix).toMatchObject({ status: 'processing', remixed_from_video_id: ids[0], size: '1280x720', seconds: '1', prompt: 'first, at night' });
    const remixed = await waitDone(remix.id);
    expect(remixed.status).toBe('succeeded');
    const original = Buffer.from(await (await client.videos.downloadContent(ids[0])).arrayBuffer());
    const changed = Buffer.from(await (await client.videos.downloadContent(remix.id)).arrayBuffer());
    expect(inspectMp4(changed).seconds).toBeCloseTo(1, 2);
    expect(changed.equals(original)).toBe(false);

    const deleted = await client.videos.delete(ids[1]);
    expect(deleted).toEqual({ id: ids[1], object: 'video.deleted', deleted: true });
    await expect(client.videos.retrieve(ids[1])).rejects.toMatchObject({ status: 404 });
    await expect(client.videos.downloadContent(ids[1])).rejects.toMatchObject({ status: 404 });
    expect((await client.videos.list({ limit: 100 })).data.map((video) => video.id)).not.toContain(ids[1]);
  });

  it('answers before completion with a clear 400 and unknown ids with 404', async () => {
    const slow = await place.start({
      config: { ...config, channels: [{ name: 'sim', type: 'simulator', settings: { taskSeconds: 30, videoSize: 64 } }] },
    });
    try {
      const slowClient = new OpenAI({ apiKey: KEY, baseURL: `${slow.url}/v1`, maxRetries: 0 });
      const video = await slowClient.videos.create({ prompt: 'slow', seconds: '1' as any });
      expect(video.model).toBe('sora-2');
      const early = await videoHttp(slow.url, KEY).get(`/v1/videos/${video.id}/content`);
      expect(early.status).toBe(400);
      expect(early.body.error.type).toBe('invalid_request_error');
      expect(early.body.error.message).toMatch(/still processing/);
      await expect(slowClient.videos.delete(video.id)).rejects.toMatchObject({ status: 400 });
      await expect(slowClient.videos.remix(video.id, { prompt: 'x' })).rejects.toMatchObject({ status: 400 });
      await expect(slowClient.videos.retrieve('1234567890123456')).rejects.toMatchObject({ status: 404, type: 'invalid_request_error' });
      await expect(slowClient.videos.downloadContent('nope')).rejects.toMatchObject({ status: 404 });
    } finally {
      await slow.close();
    }
  });
});
