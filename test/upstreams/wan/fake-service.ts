/**
 * A loopback asynchronous video-synthesis service: create with
 * `X-DashScope-Async: enable` and a bearer key, tasks that go PENDING,
 * RUNNING, SUCCEEDED (or FAILED for prompts containing "doomed") on a clock,
 * and the video on an object-store path whose link works for `linkMs` only,
 * as real signed links do. Real MP4s of the requested duration.
 */
import { renderVideo } from '../../../src/upstreams/simulator/videos/worker.js';
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from '../support/fake-upstream.js';

export interface WanTask {
  id: string;
  body: { model: string; input: Record<string, unknown>; parameters: Record<string, unknown> };
  createdAt: number;
}

export interface FakeWanService {
  origin: string;
  upstream: FakeUpstream;
  tasks: Map<string, WanTask>;
  close(): Promise<void>;
}

const json = (status: number, body: unknown): FakeReply => ({ status, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

export async function startFakeWanService(options: { key: string; stepMs?: number; linkMs?: number }): Promise<FakeWanService> {
  const stepMs = options.stepMs ?? 60;
  const linkMs = options.linkMs ?? 60_000;
  const tasks = new Map<string, WanTask>();
  const videos = new Map<string, Buffer>();
  let counter = 0;
  let origin = '';

  const state = (task: WanTask) => {
    const step = Math.floor((Date.now() - task.createdAt) / stepMs);
    if (step < 1) return 'PENDING';
    if (step < 2) return 'RUNNING';
    return String(task.body.input.prompt).includes('doomed') ? 'FAILED' : 'SUCCEEDED';
  };

  const handler = async (request: RecordedRequest): Promise<FakeReply> => {
    const url = new URL(request.url, 'http://fake');
    const oss = /^\/oss\/([\w-]+)\.mp4$/.exec(url.pathname);
    if (oss) {
      const task = tasks.get(oss[1]);
      // A signed link: it works for a while after the task finished, then not.
      if (!task || Date.now() > task.createdAt + 2 * stepMs + linkMs) return { status: 403, body: 'AccessDenied: Request has expired' };
      let bytes = videos.get(task.id);
      if (!bytes) {
        const size = String(task.body.parameters.size ?? '1280*720')
          .split('*')
          .map(Number);
        const [width, height] = size.length === 2 && size.every(Number.isFinite) ? size : [1280, 720];
        const scale = 64 / Math.max(width, height);
        const rendered = await renderVideo({
          width: 2 * Math.round((width * scale) / 2),
          height: 2 * Math.round((height * scale) / 2),
          fps: 8,
          seconds: Number(task.body.parameters.duration ?? 5),
          seed: 3,
        });
        bytes = Buffer.from(rendered.video);
        videos.set(task.id, bytes);
      }
      return { status: 200, body: bytes, headers: { 'content-type': 'video/mp4' } };
    }
    if (request.headers.authorization !== `Bearer ${options.key}`) return json(401, { code: 'InvalidApiKey', message: 'Invalid API-key provided.', request_id: 'r1' });
    if (request.method === 'POST' && url.pathname === '/api/v1/services/aigc/video-generation/video-synthesis') {
      if (request.headers['x-dashscope-async'] !== 'enable') return json(403, { code: 'AccessDenied', message: 'current user api does not support synchronous calls' });
      const body = request.json<WanTask['body']>();
      if (!body.input?.prompt) return json(400, { code: 'InvalidParameter', message: 'input.prompt is required', request_id: 'r2' });
      const task: WanTask = { id: `wan-task-${++counter}`, body, createdAt: Date.now() };
      tasks.set(task.id, task);
      return json(200, { output: { task_id: task.id, task_status: 'PENDING' }, request_id: `r-${counter}` });
    }
    const read = /^\/api\/v1\/tasks\/([\w-]+)$/.exec(url.pathname);
    if (read && request.method === 'GET') {
      const task = tasks.get(read[1]);
      if (!task) return json(404, { code: 'NotFound', message: 'task not found' });
      const status = state(task);
      const output: Record<string, unknown> = { task_id: task.id, task_status: status, submit_time: '2025-01-08 16:43:15.123' };
      if (status === 'SUCCEEDED') {
        output.video_url = `${origin}/oss/${task.id}.mp4`;
        output.end_time = '2025-01-08 16:43:19.123';
      }
      if (status === 'FAILED') Object.assign(output, { code: 'DataInspectionFailed', message: 'Input data may contain inappropriate content.' });
      return json(200, { request_id: 'r3', output, usage: status === 'SUCCEEDED' ? { video_duration: task.body.parameters.duration, video_count: 1 } : undefined });
    }
    return json(404, { code: 'NotFound', message: `no route ${url.pathname}` });
  };

  const upstream = await startFakeUpstream(handler);
  origin = upstream.origin;
  return { origin, upstream, tasks, close: () => upstream.close() };
}
