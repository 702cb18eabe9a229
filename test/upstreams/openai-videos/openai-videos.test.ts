/**
 * The openai-videos upstream against a loopback service: the multipart
 * create (model mapped, the reference file), status words, remix by upstream
 * id, batched polls (a lost video fails, a transport error leaves the task
 * for later), downloads with variants and a size bound, and the shared
 * transfer helpers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors.js';
import { openAiVideosUpstream } from '../../../src/upstreams/openai-videos/index.js';
import { observationOf, statusOfWord } from '../../../src/upstreams/openai-videos/status.js';
import { eachBounded, multipartBody } from '../../../src/upstreams/transfer.js';
import { inspectMp4 } from '../../families/videos/mp4.js';
import { pngBytes } from '../../families/videos/support.js';
import { startFakeVideoService, THUMBNAIL, type FakeVideoService } from './fake-service.js';
import { callFor, videoChannel, videoRequest, videoTask } from './records.js';

const KEY = 'sk-openai-videos-unit-01';

describe('openai-videos upstream', () => {
  let service: FakeVideoService;
  beforeAll(async () => {
    service = await startFakeVideoService({ key: KEY, stepMs: 30 });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('reads the status words leniently', () => {
    const words: Array<[string, string | undefined]> = [
      ['queued', 'SUBMITTED'],
      ['pending', 'SUBMITTED'],
      ['in_progress', 'IN_PROGRESS'],
      ['processing', 'IN_PROGRESS'],
      ['completed', 'SUCCESS'],
      ['succeeded', 'SUCCESS'],
      ['failed', 'FAILURE'],
      ['cancelled', 'FAILURE'],
      ['COMPLETED', 'SUCCESS'],
      ['mystery', undefined],
    ];
    for (const [word, status] of words) expect(statusOfWord(word)).toBe(status);
    expect(observationOf({ status: 'failed', error: { code: 'moderation_blocked', message: 'blocked' }, completed_at: 10 })).toEqual({
      status: 'FAILURE',
      progress: 0,
      finishTime: 10_000,
      failReason: 'blocked',
      result: { errorCode: 'moderation_blocked' },
    });
    expect(observationOf({ status: 'in_progress', progress: 42 })).toEqual({ status: 'IN_PROGRESS', progress: 42 });
    expect(observationOf({ status: 'weird' })).toBeUndefined();
  });

  it('creates with multipart fields and the reference file, polls, downloads and remixes', async () => {
    const channel = videoChannel('openai-videos', service.baseUrl, KEY, { modelMapping: { 'house-video': 'sora-2-pro' } });
    const call = callFor(channel);
    const task = videoTask(videoRequest({ model: 'house-video', seconds: 1, width: 1280, height: 720 }));
    const image = { bytes: pngBytes(8, 8, [1, 2, 3]), contentType: 'image/png', filename: 'ref.png' };
    const outcome = await openAiVideosUpstream.submit(task, { image }, call);
    expect(outcome).toMatchObject({ status: 'SUBMITTED', progress: 0 });
    const upstream = service.videos.get(outcome.upstreamId)!;
    expect(upstream).toMatchObject({ model: 'sora-2-pro', prompt: 'a test', seconds: '1', size: '1280x720', reference: { filename: 'ref.png', type: 'image/png' } });

    const running = { ...task, upstreamId: outcome.upstreamId };
    let observation = (await openAiVideosUpstream.poll([running], call)).get(task.id)!;
    for (const deadline = Date.now() + 5_000; observation.status !== 'SUCCESS' && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      observation = (await openAiVideosUpstream.poll([running], call)).get(task.id)!;
    }
    expect(observation.status).toBe('SUCCESS');
    const media = await openAiVideosUpstream.fetchMedia!(running, observation, call);
    expect(media.map((item) => [item.role, item.contentType])).toEqual([
      ['video', 'video/mp4'],
      ['thumbnail', 'image/webp'],
      ['spritesheet', 'image/jpeg'],
    ]);
    expect(inspectMp4(media[0].bytes).seconds).toBeCloseTo(1, 2);
    expect(media[1].bytes.equals(THUMBNAIL)).toBe(true);

    const plain = callFor({ ...channel, settings: { variants: false } });
    expect((await openAiVideosUpstream.fetchMedia!(running, observation, plain)).map((item) => item.role)).toEqual(['video']);
    const small = callFor({ ...channel, settings: { maxVideoBytes: 100 } });
    await expect(openAiVideosUpstream.fetchMedia!(running, observation, small)).rejects.toThrow(/larger than 100 bytes/);

    const remixTask = videoTask(videoRequest({ prompt: 'again', remixOf: task.id }), { action: 'REMIX' });
    const remix = await openAiVideosUpstream.submit(remixTask, { parent: { upstreamId: outcome.upstreamId, request: videoRequest() } }, call);
    expect(service.videos.get(remix.upstreamId)).toMatchObject({ remixOf: outcome.upstreamId, prompt: 'again' });
  });

  it('fails a video the service lost, and leaves tasks for later when the service is unreachable', async () => {
    const call = callFor(videoChannel('openai-videos', service.baseUrl, KEY));
    const lost = videoTask(videoRequest(), { upstreamId: 'video_missing', progress: 33 });
    expect((await openAiVideosUpstream.poll([lost], call)).get(lost.id)).toEqual({ status: 'FAILURE', progress: 33, failReason: 'the upstream no longer knows this video' });
    const down = callFor(videoChannel('openai-videos', 'http://127.0.0.1:9/v1', KEY));
    await expect(openAiVideosUpstream.poll([lost], down)).rejects.toMatchObject({ retryable: true });
  });

  it("maps refusals: a bad key is the channel's problem (retryable), a bad field is the client's", async () => {
    const task = videoTask(videoRequest());
    const wrongKey = callFor(videoChannel('openai-videos', service.baseUrl, 'sk-wrong-key-0000000'));
    const refused = await openAiVideosUpstream.submit(task, {}, wrongKey).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused).toMatchObject({ kind: 'upstream_error', upstreamStatus: 401, retryable: true });
    const badSize = videoTask(videoRequest({ width: 640, height: 480 }));
    await expect(openAiVideosUpstream.submit(badSize, {}, callFor(videoChannel('openai-videos', service.baseUrl, KEY)))).rejects.toMatchObject({
      kind: 'invalid_request',
      retryable: false,
      message: 'size 640x480 is not supported',
    });
    await expect(openAiVideosUpstream.submit(task, {}, callFor(videoChannel('openai-videos', '', KEY)))).rejects.toThrow(/baseUrl must be set/);
  });

  it('builds multipart bodies that parse back, and bounds concurrent work', async () => {
    const { body, contentType } = multipartBody(
      [
        ['prompt', 'line one\nline two'],
        ['seconds', '4'],
      ],
      { name: 'input_reference', filename: 'a.png', contentType: 'image/png', bytes: Buffer.from([1, 2, 3]) },
    );
    const form = await new Request('http://x/', { method: 'POST', headers: { 'content-type': contentType }, body }).formData();
    expect(form.get('prompt')).toBe('line one\nline two');
    const file = form.get('input_reference') as File;
    expect([file.name, file.type, [...new Uint8Array(await file.arrayBuffer())]]).toEqual(['a.png', 'image/png', [1, 2, 3]]);

    let running = 0;
    let peak = 0;
    const results = await eachBounded([1, 2, 3, 4, 5, 6], 2, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      if (n === 3) throw new Error('three');
      return n * 10;
    });
    expect(peak).toBe(2);
    expect([...results.values()]).not.toContain(30);
    expect(results.size).toBe(5);
    await expect(eachBounded([1], 2, async () => Promise.reject(new Error('all down')))).rejects.toThrow('all down');
  });
});
