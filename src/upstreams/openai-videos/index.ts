/**
 * The `openai-videos` upstream: a service with the OpenAI Videos API.
 * Create is multipart (model after the channel's mapping, prompt, seconds,
 * size, the reference image as `input_reference`); remix goes to
 * `/videos/{id}/remix`; each task is polled with `GET /videos/{id}`; a
 * finished video, its thumbnail and sprite sheet are downloaded at once, so
 * the gateway serves them past the upstream's own link lifetime. The
 * service's ids never reach clients.
 */
import { GatewayError } from '../../core/errors.js';
import { VIDEO_TASKS, type VideoSubmitPayload, type VideoTaskRequest, type VideoTaskUpstream } from '../../tasks/video-contract.js';
import { upstreamModelFor } from '../../core/channel.js';
import type { MediaItem, Observation, SubmitOutcome, TaskCall, TaskRecord } from '../../tasks/types.js';
import { readBodyLimited } from '../http.js';
import { send, sendJson } from './client.js';
import { readOpenAiVideosSettings } from './settings.js';
import { observationOf, statusOfWord, type UpstreamVideo } from './status.js';
import { eachBounded, multipartBody } from '../transfer.js';

const POLL_CONCURRENCY = 8;
const requestOf = (task: TaskRecord): VideoTaskRequest => VIDEO_TASKS.request(task);

function outcomeOf(video: UpstreamVideo): SubmitOutcome {
  if (typeof video.id !== 'string' || video.id === '') throw new GatewayError('upstream_error', 'the upstream accepted the video but named no id', { retryable: true });
  const status = statusOfWord(video.status);
  if (status === 'FAILURE') {
    const message = typeof video.error?.message === 'string' ? video.error.message : 'the upstream refused the video';
    throw new GatewayError('invalid_request', message);
  }
  return { upstreamId: video.id, status: status === 'IN_PROGRESS' ? 'IN_PROGRESS' : 'SUBMITTED', progress: typeof video.progress === 'number' ? video.progress : 0 };
}

async function submit(task: TaskRecord, payload: VideoSubmitPayload, call: TaskCall): Promise<SubmitOutcome> {
  readOpenAiVideosSettings(call.channel);
  const request = requestOf(task);
  if (task.action === 'REMIX') {
    const parentId = payload.parent?.upstreamId;
    if (!parentId) throw new GatewayError('invalid_request', 'the remixed video has no upstream id');
    const body = JSON.stringify({ prompt: request.prompt });
    const path = `/videos/${encodeURIComponent(parentId)}/remix`;
    return outcomeOf(await sendJson<UpstreamVideo>(call, { method: 'POST', path, body, contentType: 'application/json' }));
  }
  const fields: Array<[string, string]> = [
    ['model', upstreamModelFor(call.channel, request.model)],
    ['prompt', request.prompt],
    ['seconds', String(request.seconds)],
    ['size', `${request.width}x${request.height}`],
  ];
  const image = payload.image;
  const file = image && { name: 'input_reference', filename: image.filename, contentType: image.contentType, bytes: image.bytes };
  const { body, contentType } = multipartBody(fields, file);
  return outcomeOf(await sendJson<UpstreamVideo>(call, { method: 'POST', path: '/videos', body, contentType }));
}

async function pollOne(task: TaskRecord, call: TaskCall): Promise<Observation | undefined> {
  if (!task.upstreamId) return undefined;
  try {
    const video = await sendJson<UpstreamVideo>(call, { method: 'GET', path: `/videos/${encodeURIComponent(task.upstreamId)}` });
    return observationOf(video);
  } catch (error) {
    // The service no longer knows the video: asking again cannot help.
    if (error instanceof GatewayError && error.upstreamStatus === 404) {
      return { status: 'FAILURE', progress: task.progress, failReason: 'the upstream no longer knows this video' };
    }
    throw error;
  }
}

async function poll(tasks: TaskRecord[], call: TaskCall): Promise<Map<string, Observation>> {
  const observed = await eachBounded(tasks, POLL_CONCURRENCY, (task) => pollOne(task, call));
  return new Map([...observed].map(([task, observation]) => [task.id, observation]));
}

async function download(task: TaskRecord, call: TaskCall, variant: string, maxBytes: number): Promise<MediaItem> {
  const query = variant === 'video' ? '' : `?variant=${variant}`;
  const response = await send(call, { method: 'GET', path: `/videos/${encodeURIComponent(task.upstreamId ?? '')}/content${query}`, accept: 'application/binary' });
  const declared = String(response.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  const bytes = await readBodyLimited(response.body, maxBytes, `the upstream's ${variant}`, call.signal);
  const fallback = variant === 'video' ? 'video/mp4' : variant === 'thumbnail' ? 'image/webp' : 'image/jpeg';
  const contentType = declared && declared !== 'application/octet-stream' && declared !== 'application/binary' ? declared : fallback;
  return { bytes, contentType, role: variant };
}

async function fetchMedia(task: TaskRecord, _observation: Observation, call: TaskCall): Promise<MediaItem[]> {
  const settings = readOpenAiVideosSettings(call.channel);
  const items = [await download(task, call, 'video', settings.maxVideoBytes)];
  if (!settings.variants) return items;
  for (const variant of ['thumbnail', 'spritesheet']) {
    // Previews are a convenience: a service without them still delivers the video.
    const item = await download(task, call, variant, settings.maxVideoBytes).catch(() => undefined);
    if (item) items.push(item);
  }
  return items;
}

export const openAiVideosUpstream: VideoTaskUpstream = {
  kind: VIDEO_TASKS,
  type: 'openai-videos',
  maxPollBatch: 50,
  remixes: true,
  submit,
  poll,
  fetchMedia,
};
