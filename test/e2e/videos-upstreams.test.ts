/**
 * Family B through real kinds of upstream on loopback: `openai-videos`
 * channels (the official SDK: multipart create with a file, status words
 * mapped, content and previews kept by the gateway, remix on the same
 * channel, failover on a 5xx, refusals and failures) and a `wan` channel
 * (plain HTTP on `/v1/video/generations`: the spec's metadata keys become the
 * service's request, the video stays downloadable after the service's link
 * expired). Upstream ids and keys never reach clients.
 */
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, type Place } from '../support/places.js';
import { inspectMp4 } from '../families/videos/mp4.js';
import { pngBytes, videoHttp, type VideoHttp } from '../families/videos/support.js';
import { SPRITESHEET, THUMBNAIL, startFakeVideoService, type FakeVideoService } from '../upstreams/openai-videos/fake-service.js';
import { startFakeWanService, type FakeWanService } from '../upstreams/wan/fake-service.js';

const KEY = 'sk-videos-upstreams-01';
const UPSTREAM_KEY = 'sk-upstream-video-secret-0001';
const WAN_KEY = 'sk-wan-secret-000000001';

describe('videos through openai-videos and wan channels', () => {
  let primary: FakeVideoService;
  let secondary: FakeVideoService;
  let wan: FakeWanService;
  let place: Place;
  let gw: TestGateway;
  let client: OpenAI;
  let http: VideoHttp;

  beforeAll(async () => {
    primary = await startFakeVideoService({ key: UPSTREAM_KEY, stepMs: 50 });
    secondary = await startFakeVideoService({ key: UPSTREAM_KEY, stepMs: 50 });
    wan = await startFakeWanService({ key: WAN_KEY, stepMs: 50, linkMs: 400 });
    place = await createPlace('sqlite');
    gw = await place.start({
      config: {
        channels: [
          { name: 'vendor-a', type: 'openai-videos', baseUrl: primary.baseUrl, apiKey: UPSTREAM_KEY, models: ['sora-*'], priority: 10 },
          { name: 'vendor-b', type: 'openai-videos', baseUrl: secondary.baseUrl, apiKey: UPSTREAM_KEY, models: ['sora-*'], priority: 5 },
          { name: 'wan', type: 'wan', baseUrl: wan.origin, apiKey: WAN_KEY, models: ['wan*', 'house-video'], modelMapping: { 'house-video': 'wan2.2-t2v-plus' } },
        ],
        keys: [{ name: 'up', key: KEY, quota: 100 }],
        prices: { 'sora-*': { perSecond: 0.1 }, 'wan*': { perSecond: { '480P': 0.05, '*': 0.2 } } },
      },
    });
    client = new OpenAI({ apiKey: KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    http = videoHttp(gw.url, KEY);
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
    await primary?.close();
    await secondary?.close();
    await wan?.close();
  });

  const lastLog = async (model: string) => {
    await gw.gateway.ctx.recorder.flush();
    return (await gw.admin('GET', '/logs?limit=100')).body.data.find((row: any) => row.model === model && row.httpStatus !== 200);
  };
  const used = async () => (await gw.admin('GET', '/keys')).body.data.find((k: any) => k.name === 'up').used as number;

  it('creates through openai-videos with a file, maps its statuses and keeps the content', async () => {
    const reference = await toFile(pngBytes(32, 18, [10, 200, 10]), 'frame.png', { type: 'image/png' });
    const created = await client.videos.create({ model: 'sora-2', prompt: 'a green field', seconds: '4', size: '1280x720', input_reference: reference });
    expect(created.id).toMatch(/^\d{16}$/);
    const upstreamVideo = [...primary.videos.values()].at(-1)!;
    expect(upstreamVideo).toMatchObject({ model: 'sora-2', prompt: 'a green field', seconds: '4', size: '1280x720' });
    expect(upstreamVideo.reference).toMatchObject({ filename: 'frame.png', type: 'image/png' });

    const statuses = new Set<string>();
    let video: any;
    for (const deadline = Date.now() + 10_000; ; ) {
      video = await client.videos.retrieve(created.id);
      statuses.add(video.status);
      if (video.status !== 'processing' || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    expect(video).toMatchObject({ status: 'succeeded', progress: 100, size: '1280x720', seconds: '4', error: null });
    expect([...statuses].every((status) => status === 'processing' || status === 'succeeded')).toBe(true);
    expect(JSON.stringify(video)).not.toContain('video_0');

    const bytes = Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer());
    expect(bytes.equals(primary.content.get(upstreamVideo.id)!)).toBe(true);
    const mp4 = inspectMp4(bytes);
    expect(mp4.seconds).toBeCloseTo(4, 2);
    expect(mp4.sampleEntries).toEqual(['avc1']);
    const thumbnail = await client.videos.downloadContent(created.id, { variant: 'thumbnail' });
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await thumbnail.arrayBuffer()).equals(THUMBNAIL)).toBe(true);
    const sprite = await client.videos.downloadContent(created.id, { variant: 'spritesheet' });
    expect(sprite.headers.get('content-disposition')).toBe(`attachment; filename="${created.id}_spritesheet.jpg"`);
    expect(Buffer.from(await sprite.arrayBuffer()).equals(SPRITESHEET)).toBe(true);
    // The service's key went upstream only.
    expect(primary.upstream.requests.every((request) => request.headers.authorization === `Bearer ${UPSTREAM_KEY}`)).toBe(true);

    const remix: any = await client.videos.remix(created.id, { prompt: 'a green field at dusk' });
    expect(remix.remixed_from_video_id).toBe(created.id);
    const remixCall = primary.upstream.requests.find((request) => request.url.endsWith('/remix'))!;
    expect(remixCall.url).toBe(`/v1/videos/${upstreamVideo.id}/remix`);
    expect(remixCall.json()).toEqual({ prompt: 'a green field at dusk' });
    const remixed = await http.waitFor(remix.id);
    expect(remixed.status).toBe('succeeded');
  });

  it('fails over on a 5xx, passes an upstream refusal on as 400, and reports upstream failures', async () => {
    primary.trouble(1, 503);
    const before = secondary.videos.size;
    const moved = await client.videos.create({ model: 'sora-2', prompt: 'elsewhere', seconds: '4', size: '720x1280' });
    expect(secondary.videos.size).toBe(before + 1);
    expect((await http.waitFor(moved.id)).status).toBe('succeeded');

    const spent = await used();
    const refused = await http.post('/v1/videos', { model: 'sora-2', prompt: 'odd size', size: '640x480' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', message: 'size 640x480 is not supported' });
    expect(JSON.stringify(refused.body)).not.toContain(UPSTREAM_KEY);
    expect(await used()).toBeCloseTo(spent);
    expect((await lastLog('sora-2')).triedChannels).toEqual(['vendor-a']);

    const doomed = await client.videos.create({ model: 'sora-2', prompt: 'doomed scene', seconds: '4' });
    const failed = await http.waitFor(doomed.id);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'moderation_blocked', message: 'the prompt was blocked by moderation' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await used()).toBeCloseTo(spent);
  });

  it('sends the spec metadata keys to a wan channel and keeps the video after its link expired', async () => {
    const spent = await used();
    const created = await http.post('/v1/video/generations', {
      model: 'wan2.5-i2v-preview',
      prompt: 'a cat turns its head',
      duration: 2,
      metadata: JSON.stringify({ img_url: 'https://img.example/cat.png', resolution: '480P', audio: true, seed: 11, watermark: true }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sent = [...wan.tasks.values()].at(-1)!;
    expect(sent.body).toEqual({
      model: 'wan2.5-i2v-preview',
      input: { prompt: 'a cat turns its head', img_url: 'https://img.example/cat.png' },
      parameters: { duration: 2, prompt_extend: true, watermark: true, resolution: '480P', audio: true, seed: 11 },
    });
    expect(wan.upstream.requests.at(-1)!.headers['x-dashscope-async']).toBe('enable');
    expect(await used()).toBeCloseTo(spent + 0.1);

    let result: any;
    for (const deadline = Date.now() + 10_000; ; ) {
      result = (await http.get(`/v1/video/generations/${created.body.id}`)).body;
      if (result.status !== 'processing' || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(result).toMatchObject({ status: 'succeeded', format: 'mp4', metadata: { duration: 2, width: 832, height: 480, seed: 11 }, error: null });
    // The service's own link has expired by now; the gateway's still works.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await fetch(`${wan.origin}/oss/${sent.id}.mp4`)).status).toBe(403);
    const video = await fetch(result.url);
    expect(video.status).toBe(200);
    expect(inspectMp4(Buffer.from(await video.arrayBuffer())).seconds).toBeCloseTo(2, 2);
    const thumbnail = await http.get(`/v1/videos/${created.body.id}/content?variant=thumbnail`);
    expect(thumbnail.status).toBe(404);
    expect(thumbnail.body.error.message).toMatch(/has no thumbnail/);
    const remix = await http.post(`/v1/videos/${created.body.id}/remix`, { prompt: 'again' });
    expect(remix.status).toBe(400);
    expect(remix.body.error.message).toMatch(/remix is not supported by the wan upstream/);
  });

  it('maps text, keyframe and mapped-model requests for wan, and reports its failures', async () => {
    const t2v = await http.post('/v1/video/generations', { model: 'house-video', prompt: 'waves', size: '832*480', seconds: '3' });
    expect(t2v.status, JSON.stringify(t2v.body)).toBe(201);
    expect([...wan.tasks.values()].at(-1)!.body).toEqual({
      model: 'wan2.2-t2v-plus',
      input: { prompt: 'waves' },
      parameters: { duration: 3, prompt_extend: true, watermark: false, size: '832*480' },
    });
    const form = new FormData();
    form.set('model', 'wan2.1-kf2v-plus');
    form.set('prompt', 'from dawn to dusk');
    form.set('size', '1280P');
    form.set('metadata', JSON.stringify({ first_frame_url: 'https://img.example/a.png', last_frame_url: 'https://img.example/b.png', prompt_extend: false, negative_prompt: 'blur' }));
    const keyframes = await http.post('/v1/videos', form);
    expect(keyframes.status, JSON.stringify(keyframes.body)).toBe(201);
    expect([...wan.tasks.values()].at(-1)!.body).toEqual({
      model: 'wan2.1-kf2v-plus',
      input: { prompt: 'from dawn to dusk', negative_prompt: 'blur', first_frame_url: 'https://img.example/a.png', last_frame_url: 'https://img.example/b.png' },
      parameters: { duration: 5, prompt_extend: false, watermark: false, resolution: '720P' },
    });
    expect((await http.waitFor(keyframes.body.id)).size).toBe('1280x720');

    const doomed = await http.post('/v1/video/generations', { model: 'wan2.2-t2v-plus', prompt: 'doomed', duration: 1 });
    let result: any;
    for (const deadline = Date.now() + 10_000; ; ) {
      result = (await http.get(`/v1/video/generations/${doomed.body.id}`)).body;
      if (result.status !== 'processing' || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(result).toMatchObject({ status: 'failed', error: { code: 400, message: 'Input data may contain inappropriate content.' } });
    expect((await http.get(`/v1/videos/${doomed.body.id}`)).body.error).toEqual({
      code: 'DataInspectionFailed',
      message: 'Input data may contain inappropriate content.',
    });
  });
});
