/**
 * A loopback service with the OpenAI Videos API: multipart create, remix,
 * retrieve with the OpenAI status words on a clock (queued, in_progress,
 * completed or failed), and content with variants, all behind a bearer key.
 * Videos are real MP4s of the requested duration (made by the gateway's own
 * encoder), previews are WebP and JPEG stand-ins. Prompts containing
 * "doomed" fail with a moderation code; `trouble` answers the next creates
 * with an error status.
 */
import { renderVideo } from '../../../src/upstreams/simulator/videos/worker.js';
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from '../support/fake-upstream.js';

export interface FakeVideo {
  id: string;
  model: string;
  prompt: string;
  seconds: string;
  size: string;
  createdAt: number;
  remixOf: string | null;
  reference?: { filename: string; type: string; size: number };
}

export interface FakeVideoService {
  origin: string;
  /** The `/v1` prefix, as a channel's baseUrl. */
  baseUrl: string;
  upstream: FakeUpstream;
  videos: Map<string, FakeVideo>;
  /** Answers the next `count` creates with `status`. */
  trouble(count: number, status: number): void;
  /** Bytes served as each video's content, by id. */
  content: Map<string, Buffer>;
  close(): Promise<void>;
}

export const THUMBNAIL = Buffer.concat([Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 ', 'latin1'), Buffer.alloc(16, 7)]);
export const SPRITESHEET = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(16, 9)]);

const json = (status: number, body: unknown): FakeReply => ({ status, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const failure = (status: number, message: string, type = 'invalid_request_error'): FakeReply => json(status, { error: { message, type, param: null, code: null } });

export async function startFakeVideoService(options: { key: string; stepMs?: number }): Promise<FakeVideoService> {
  const stepMs = options.stepMs ?? 60;
  const videos = new Map<string, FakeVideo>();
  const content = new Map<string, Buffer>();
  let troubleLeft = 0;
  let troubleStatus = 500;
  let counter = 0;

  const view = (video: FakeVideo) => {
    const elapsed = Date.now() - video.createdAt;
    const doomed = video.prompt.includes('doomed');
    const step = Math.floor(elapsed / stepMs);
    const status = step < 1 ? 'queued' : step < 3 ? 'in_progress' : doomed ? 'failed' : 'completed';
    const done = status === 'completed' || status === 'failed';
    return {
      id: video.id,
      object: 'video',
      model: video.model,
      status,
      progress: status === 'queued' ? 0 : status === 'in_progress' ? 33 * step : 100,
      created_at: Math.floor(video.createdAt / 1000),
      completed_at: done ? Math.floor((video.createdAt + 3 * stepMs) / 1000) : null,
      expires_at: done ? Math.floor(video.createdAt / 1000) + 3600 : null,
      prompt: video.prompt,
      seconds: video.seconds,
      size: video.size,
      remixed_from_video_id: video.remixOf,
      error: status === 'failed' ? { code: 'moderation_blocked', message: 'the prompt was blocked by moderation' } : null,
    };
  };

  const create = async (request: RecordedRequest): Promise<FakeReply> => {
    if (troubleLeft > 0) {
      troubleLeft--;
      return failure(troubleStatus, 'the service is having trouble', 'server_error');
    }
    const form = await new Request('http://fake/', { method: 'POST', headers: { 'content-type': String(request.headers['content-type']) }, body: request.body }).formData();
    const prompt = form.get('prompt');
    if (typeof prompt !== 'string' || !prompt) return failure(400, 'prompt is required');
    const size = String(form.get('size') ?? '720x1280');
    if (!['720x1280', '1280x720', '1024x1792', '1792x1024'].includes(size)) return failure(400, `size ${size} is not supported`);
    const video: FakeVideo = {
      id: `video_${(++counter).toString(16).padStart(48, '0')}`,
      model: String(form.get('model') ?? 'sora-2'),
      prompt,
      seconds: String(form.get('seconds') ?? '4'),
      size,
      createdAt: Date.now(),
      remixOf: null,
    };
    const file = form.get('input_reference');
    if (file && typeof file !== 'string') video.reference = { filename: file.name, type: file.type, size: file.size };
    videos.set(video.id, video);
    return json(200, view(video));
  };

  const handler = async (request: RecordedRequest): Promise<FakeReply> => {
    if (request.headers.authorization !== `Bearer ${options.key}`) return failure(401, 'Incorrect API key provided');
    const url = new URL(request.url, 'http://fake');
    const match = /^\/v1\/videos(?:\/([^/]+))?(?:\/(content|remix))?$/.exec(url.pathname);
    if (!match) return failure(404, `no route ${url.pathname}`);
    const [, id, action] = match;
    if (!id && request.method === 'POST') return create(request);
    const video = id ? videos.get(id) : undefined;
    if (!video) return failure(404, 'Video not found');
    if (action === 'remix' && request.method === 'POST') {
      const body = request.json<{ prompt?: string }>();
      if (view(video).status !== 'completed') return failure(400, 'only completed videos can be remixed');
      const remix: FakeVideo = { ...video, id: `video_${(++counter).toString(16).padStart(48, '0')}`, prompt: body.prompt ?? '', createdAt: Date.now(), remixOf: video.id };
      videos.set(remix.id, remix);
      return json(200, view(remix));
    }
    if (action === 'content') {
      if (view(video).status !== 'completed') return failure(400, 'Video is not ready');
      const variant = url.searchParams.get('variant') ?? 'video';
      if (variant === 'thumbnail') return { status: 200, body: THUMBNAIL, headers: { 'content-type': 'image/webp' } };
      if (variant === 'spritesheet') return { status: 200, body: SPRITESHEET, headers: { 'content-type': 'image/jpeg' } };
      let bytes = content.get(video.id);
      if (!bytes) {
        const [width, height] = video.size.split('x').map(Number);
        const scale = 64 / Math.max(width, height);
        const rendered = await renderVideo({ width: 2 * Math.round((width * scale) / 2), height: 2 * Math.round((height * scale) / 2), fps: 8, seconds: Number(video.seconds), seed: counter });
        bytes = Buffer.from(rendered.video);
        content.set(video.id, bytes);
      }
      return { status: 200, body: bytes, headers: { 'content-type': 'video/mp4' } };
    }
    if (request.method === 'GET') return json(200, view(video));
    return failure(405, 'method not allowed');
  };

  const upstream = await startFakeUpstream(handler);
  return {
    origin: upstream.origin,
    baseUrl: `${upstream.origin}/v1`,
    upstream,
    videos,
    content,
    trouble(count, status) {
      troubleLeft = count;
      troubleStatus = status;
    },
    close: () => upstream.close(),
  };
}
