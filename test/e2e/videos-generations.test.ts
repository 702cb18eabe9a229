/**
 * `/v1/video/generations` over plain HTTP on the simulator: JSON creation for
 * both model families, the spec's result shape while processing, on success
 * and on failure (refunded once), ids shared with `/v1/videos`, and the
 * spec's error body `{code: null, message, param, type}`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, type Place } from '../support/places.js';
import { inspectMp4 } from '../families/videos/mp4.js';
import { dataUrl, pngBytes, videoHttp, type VideoHttp } from '../families/videos/support.js';

const KEY = 'sk-videos-gen-000001';

const config = {
  channels: [
    { name: 'sim', type: 'simulator', models: ['*'], priority: 5, settings: { taskSeconds: 0.3, videoSize: 64 } },
    { name: 'sim-doomed', type: 'simulator', models: ['doomed-*'], priority: 10, settings: { taskSeconds: 0.2, videoSize: 64, failTasks: true } },
  ],
  keys: [{ name: 'gen', key: KEY, quota: 10 }],
  prices: { 'wan*': { perSecond: { '480P': 0.05, '720P': 0.1, '1080P': 0.15 } }, 'doomed-*': { perSecond: 0.5 } },
  videos: { defaultModel: 'house-video' },
};

describe('video generations over HTTP', () => {
  let place: Place;
  let gw: TestGateway;
  let http: VideoHttp;

  beforeAll(async () => {
    place = await createPlace('sqlite');
    gw = await place.start({ config });
    http = videoHttp(gw.url, KEY);
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
  });

  async function waitGeneration(id: string): Promise<any> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { status, body } = await http.get(`/v1/video/generations/${id}`);
      expect(status).toBe(200);
      if (body.status !== 'processing') return body;
      if (Date.now() > deadline) throw new Error(`generation ${id} did not finish: ${JSON.stringify(body)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  const used = async () => (await gw.admin('GET', '/keys')).body.data.find((k: any) => k.name === 'gen').used as number;

  it('creates a Wan-style task from JSON and reports the spec result shape', async () => {
    const created = await http.post('/v1/video/generations', {
      model: 'wan2.5-t2v-preview',
      prompt: 'a lighthouse in fog',
      duration: 1,
      size: '1280*720',
      fps: 12,
      seed: 7,
      metadata: { watermark: false, prompt_extend: true, audio: true },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ object: 'video', model: 'wan2.5-t2v-preview', status: 'processing', progress: 0 });
    expect(created.body.task_id).toBe(created.body.id);
    const id = created.body.id;

    const early = await http.get(`/v1/video/generations/${id}`);
    expect(early.body).toMatchObject({ task_id: id, status: 'processing', format: 'mp4', error: null });
    expect(early.body.url).toBeUndefined();

    const done = await waitGeneration(id);
    expect(done).toMatchObject({
      task_id: id,
      status: 'succeeded',
      format: 'mp4',
      metadata: { duration: 1, fps: 12, width: 1280, height: 720, seed: 7 },
      error: null,
    });
    const video = await fetch(done.url);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    const mp4 = inspectMp4(Buffer.from(await video.arrayBuffer()));
    expect(mp4.seconds).toBeCloseTo(1, 2);
    expect(mp4.samples).toBe(12);
    expect(mp4.width / mp4.height).toBeCloseTo(1280 / 720, 1);

    // The same id in the other shape.
    const same = await http.get(`/v1/videos/${id}`);
    expect(same.body).toMatchObject({ id, status: 'succeeded', size: '1280x720', seconds: '1', url: done.url });
    expect(await used()).toBeCloseTo(0.1);
  });

  it('reads /v1/videos tasks, uses the default model and takes a data URL image for standard models', async () => {
    const created = await http.post('/v1/video/generations', {
      prompt: 'a paper boat',
      seconds: '1',
      width: 640,
      height: 480,
      image: dataUrl(pngBytes(16, 16, [0, 200, 0])),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.model).toBe('house-video');
    const done = await waitGeneration(created.body.id);
    expect(done.metadata).toMatchObject({ duration: 1, width: 640, height: 480, fps: 24 });
    expect(typeof done.metadata.seed).toBe('number');

    const form = new FormData();
    form.set('prompt', 'from the other shape');
    form.set('seconds', '1');
    const viaVideos = await http.post('/v1/videos', form);
    expect(viaVideos.status).toBe(201);
    expect((await waitGeneration(viaVideos.body.id)).status).toBe('succeeded');
  });

  it('reports a failed task with a numeric error code and refunds it once', async () => {
    const before = await used();
    const created = await http.post('/v1/video/generations', { model: 'doomed-1', prompt: 'will fail', duration: '2' });
    expect(created.status).toBe(201);
    expect(await used()).toBeCloseTo(before + 1);
    const failed = await waitGeneration(created.body.id);
    expect(failed.status).toBe('failed');
    expect(failed.url).toBeUndefined();
    expect(failed.error).toEqual({ code: 500, message: 'simulated failure of doomed-1 (channel setting failTasks)' });
    const asVideo = (await http.get(`/v1/videos/${created.body.id}`)).body;
    expect(asVideo).toMatchObject({ status: 'failed', error: { code: 'simulated_failure', message: failed.error.message } });
    const content = await http.get(`/v1/videos/${created.body.id}/content`);
    expect(content.status).toBe(400);
    expect(content.body.error.message).toMatch(/generation failed/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await used()).toBeCloseTo(before);
    await gw.gateway.ctx.recorder.flush();
    const refunds = (await gw.admin('GET', '/logs?limit=100')).body.data.filter((row: any) => row.requestId === `refund:${created.body.id}`);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ family: 'videos', model: 'doomed-1', cost: -1 });
  });

  it('answers errors as {code: null, message, param, type}', async () => {
    const missing = await http.post('/v1/video/generations', { model: 'wan2.5-t2v-preview' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ code: null, message: 'prompt: is required', param: 'prompt', type: 'invalid_request_error' });
    const unknown = await http.get('/v1/video/generations/4242424242424242');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: null, param: 'video_id', type: 'invalid_request_error' });
    const noKey = await fetch(`${gw.url}/v1/video/generations/1`);
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toEqual({ code: null, message: 'missing API key', param: '', type: 'invalid_request_error' });
  });
});
