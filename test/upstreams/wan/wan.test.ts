/**
 * The wan upstream: the synthesis request for each kind of video (text with
 * a `W*H` size; image, keyframe and audio-combined with a tier), the task
 * states, the create and poll exchanges against a loopback service, and the
 * video download through the outbound guard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wanUpstream } from '../../../src/upstreams/wan/index.js';
import { synthesisRequest } from '../../../src/upstreams/wan/request.js';
import { readWanSettings } from '../../../src/upstreams/wan/settings.js';
import { observationOf } from '../../../src/upstreams/wan/status.js';
import { inspectMp4 } from '../../families/videos/mp4.js';
import { callFor, videoChannel, videoRequest, videoTask } from '../openai-videos/records.js';
import { startFakeWanService, type FakeWanService } from './fake-service.js';

const KEY = 'sk-wan-unit-000000001';
const wan = (overrides = {}) => videoRequest({ model: 'wan2.5-t2v-preview', kind: 'tiered', width: 1280, height: 720, seconds: 5, ...overrides });

describe('wan upstream', () => {
  let service: FakeWanService;
  beforeAll(async () => {
    service = await startFakeWanService({ key: KEY, stepMs: 30 });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('builds the synthesis request of each kind of video', () => {
    expect(synthesisRequest(wan({ seed: 3, options: { negativePrompt: 'blur', watermark: true } }), 'wan2.5-t2v-preview')).toEqual({
      model: 'wan2.5-t2v-preview',
      input: { prompt: 'a test', negative_prompt: 'blur' },
      parameters: { duration: 5, prompt_extend: true, watermark: true, size: '1280*720', seed: 3 },
    });
    expect(synthesisRequest(wan({ tier: '480P', width: 832, height: 480, options: { imageUrl: 'https://x/a.png', audio: true, audioUrl: 'https://x/a.mp3' } }), 'wan2.5-i2v-preview')).toEqual({
      model: 'wan2.5-i2v-preview',
      input: { prompt: 'a test', img_url: 'https://x/a.png', audio_url: 'https://x/a.mp3' },
      parameters: { duration: 5, prompt_extend: true, watermark: false, resolution: '480P', audio: true },
    });
    const keyframes = synthesisRequest(
      wan({ resolution: '1080P', tier: '1080P', options: { firstFrameUrl: 'https://x/1.png', lastFrameUrl: 'https://x/2.png', promptExtend: false } }),
      'wan2.1-kf2v-plus',
    );
    expect(keyframes.input).toEqual({ prompt: 'a test', first_frame_url: 'https://x/1.png', last_frame_url: 'https://x/2.png' });
    expect(keyframes.parameters).toEqual({ duration: 5, prompt_extend: false, watermark: false, resolution: '1080P' });
  });

  it('reads the task states', () => {
    expect(observationOf({ output: { task_status: 'PENDING' } })).toEqual({ status: 'SUBMITTED', progress: 10 });
    expect(observationOf({ output: { task_status: 'RUNNING' } })).toEqual({ status: 'IN_PROGRESS', progress: 50 });
    expect(observationOf({ output: { task_status: 'SUCCEEDED', video_url: 'https://oss/x.mp4', end_time: '2025-01-08 16:43:19.123' } })).toEqual({
      status: 'SUCCESS',
      progress: 100,
      mediaUrls: ['https://oss/x.mp4'],
      finishTime: Date.parse('2025-01-08T08:43:19.123Z'),
    });
    expect(observationOf({ output: { task_status: 'SUCCEEDED' } })).toMatchObject({ status: 'FAILURE', failReason: /without a video address/ });
    expect(observationOf({ output: { task_status: 'FAILED', code: 'DataInspectionFailed', message: 'inappropriate' } })).toEqual({
      status: 'FAILURE',
      progress: 0,
      failReason: 'inappropriate',
      result: { errorCode: 'DataInspectionFailed' },
    });
    expect(observationOf({ output: { task_status: 'CANCELED' } })).toMatchObject({ status: 'FAILURE', result: { errorCode: 'canceled' } });
    expect(observationOf({ output: { task_status: 'SOMETHING' } })).toBeUndefined();
  });

  it('creates asynchronously, polls until the end and downloads the video through the guard', async () => {
    const channel = videoChannel('wan', service.origin, KEY, { modelMapping: { 'house-video': 'wan2.2-t2v-plus' } });
    const call = callFor(channel);
    const task = videoTask(wan({ model: 'house-video', seconds: 1 }));
    const outcome = await wanUpstream.submit(task, {}, call);
    expect(outcome).toMatchObject({ status: 'SUBMITTED', progress: 10 });
    const sent = service.upstream.requests.at(-1)!;
    expect(sent.headers['x-dashscope-async']).toBe('enable');
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.json()).toMatchObject({ model: 'wan2.2-t2v-plus', parameters: { size: '1280*720', duration: 1 } });

    const running = { ...task, upstreamId: outcome.upstreamId };
    let observation = (await wanUpstream.poll([running], call)).get(task.id)!;
    for (const deadline = Date.now() + 5_000; observation.status !== 'SUCCESS' && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      observation = (await wanUpstream.poll([running], call)).get(task.id)!;
    }
    expect(observation.status).toBe('SUCCESS');
    const [video] = await wanUpstream.fetchMedia!(running, observation, call);
    expect(video).toMatchObject({ role: 'video', contentType: 'video/mp4' });
    expect(inspectMp4(video.bytes).seconds).toBeCloseTo(1, 2);
    // The service named a loopback address: refused unless the operator allows it.
    await expect(wanUpstream.fetchMedia!(running, observation, callFor(channel, []))).rejects.toMatchObject({ kind: 'invalid_request' });

    const lost = { ...running, upstreamId: 'wan-task-unknown' };
    expect((await wanUpstream.poll([lost], call)).get(task.id)).toMatchObject({ status: 'FAILURE', failReason: /no longer knows/ });
  });

  it('refuses remixes, passes refusals on, and checks its settings', async () => {
    const call = callFor(videoChannel('wan', service.origin, KEY));
    await expect(wanUpstream.submit(videoTask(wan(), { action: 'REMIX' }), {}, call)).rejects.toMatchObject({ kind: 'unsupported_feature' });
    const empty = videoTask(wan({ prompt: '' }));
    await expect(wanUpstream.submit(empty, {}, call)).rejects.toMatchObject({ kind: 'invalid_request', message: 'input.prompt is required' });
    await expect(wanUpstream.submit(videoTask(wan()), {}, callFor(videoChannel('wan', service.origin, 'sk-bad-key-00000000')))).rejects.toMatchObject({ retryable: true, upstreamStatus: 401 });
    expect(() => readWanSettings(videoChannel('wan', '', KEY))).toThrow(/baseUrl must be set/);
    expect(() => readWanSettings(videoChannel('wan', service.origin, KEY, { settings: { taskPath: '/api/v1/tasks' } }))).toThrow(/must contain \{id\}/);
    expect(readWanSettings(videoChannel('wan', service.origin, KEY, { settings: { submitPath: '/v2/synth', taskPath: '/v2/tasks/{id}' } }))).toMatchObject({
      submitPath: '/v2/synth',
      taskPath: '/v2/tasks/{id}',
    });
  });
});
