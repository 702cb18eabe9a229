/**
 * A video task as clients see it, in both shapes: the video object of
 * `/v1/videos` (the spec's fields, plus `completed_at` and `prompt` that the
 * OpenAI clients type) and the result of `/v1/video/generations`. Status words
 * are the spec's: processing, succeeded, failed. Times are Unix seconds.
 */
import { isFinal, type MediaRef, type TaskRecord } from '../../tasks/types.js';
import { VIDEO_TASKS, type Variant, type VideoTaskRequest, type VideoTaskResult } from '../../tasks/video-contract.js';
import { sizeText } from './sizes.js';

export type VideoStatus = 'processing' | 'succeeded' | 'failed';

export interface VideoError {
  code: string;
  message: string;
}

export interface VideoObject {
  id: string;
  object: 'video';
  model: string;
  created_at: number;
  status: VideoStatus;
  progress: number;
  completed_at: number | null;
  expires_at: number | null;
  prompt: string;
  size: string;
  seconds: string;
  quality: string;
  url?: string;
  remixed_from_video_id: string | null;
  error: VideoError | null;
}

export interface GenerationResult {
  task_id: string;
  status: VideoStatus;
  format: 'mp4';
  url?: string;
  metadata: { duration: number; fps: number | null; height: number; seed: number | null; width: number };
  error: { code: number; message: string } | null;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

export const requestOf = (task: TaskRecord): VideoTaskRequest => VIDEO_TASKS.request(task);
export const resultOf = (task: TaskRecord): VideoTaskResult | null => VIDEO_TASKS.result(task);

export function statusOf(task: TaskRecord): VideoStatus {
  if (task.status === 'SUCCESS') return 'succeeded';
  return isFinal(task.status) ? 'failed' : 'processing';
}

/** The stored media of one variant; older results without roles keep the upstreams' order. */
export function mediaOf(task: TaskRecord, variant: Variant): MediaRef | undefined {
  const media = resultOf(task)?.media ?? [];
  const byRole = media.find((ref) => ref.role === variant);
  if (byRole || media.some((ref) => ref.role)) return byRole;
  return variant === 'video' ? media.find((ref) => ref.contentType === 'video/mp4') : undefined;
}

/**
 * When a finished video stops being downloadable (ms), or null while there is
 * none. Counted from when the gateway stored it (the final change: a final
 * task changes no more), not from the upstream's finish time, which may lie
 * far back on another clock.
 */
export function expiresAtMs(task: TaskRecord, retentionMs: number): number | null {
  return task.status === 'SUCCESS' ? task.updatedAt + retentionMs : null;
}

export const fileUrl = (base: string, ref: MediaRef): string => `${base}/v1/videos/files/${ref.key}`;

/** The error of a failed task: the upstream's code when it gave one, else the gateway's reason. */
export function errorOf(task: TaskRecord): VideoError | null {
  if (statusOf(task) !== 'failed') return null;
  const message = task.failReason ?? 'the video could not be generated';
  const code = resultOf(task)?.errorCode ?? (/did not finish within/.test(message) ? 'timeout' : 'generation_failed');
  return { code, message };
}

/** Integer codes of the generation result: 400 refused by the upstream, 504 timed out, 500 otherwise. */
function numericCode(code: string): number {
  if (code === 'timeout') return 504;
  if (/invalid|moderation|policy|safety|inspection|refused|parameter/i.test(code)) return 400;
  return 500;
}

export interface RenderContext {
  /** Base of absolute URLs: the address the client used, else the one recorded at submission. */
  base?: string;
  retentionMs: number;
  now?: number;
}

function downloadUrl(task: TaskRecord, context: RenderContext): string | undefined {
  const expires = expiresAtMs(task, context.retentionMs);
  const video = mediaOf(task, 'video');
  if (!video || expires === null || expires <= (context.now ?? Date.now())) return undefined;
  return fileUrl(context.base ?? requestOf(task).publicBase, video);
}

export function renderVideo(task: TaskRecord, context: RenderContext): VideoObject {
  const request = requestOf(task);
  const status = statusOf(task);
  const expires = expiresAtMs(task, context.retentionMs);
  const video: VideoObject = {
    id: task.id,
    object: 'video',
    model: request.model,
    created_at: seconds(task.submitTime),
    status,
    progress: status === 'succeeded' ? 100 : task.progress,
    completed_at: isFinal(task.status) && task.finishTime !== null ? seconds(task.finishTime) : null,
    expires_at: expires === null ? null : seconds(expires),
    prompt: request.prompt,
    size: sizeText(request.width, request.height),
    seconds: String(request.seconds),
    quality: 'standard',
    remixed_from_video_id: request.remixOf ?? null,
    error: errorOf(task),
  };
  const url = downloadUrl(task, context);
  if (url) video.url = url;
  return video;
}

/** The create answer: only the fields the spec names for it. */
export function renderCreated(task: TaskRecord): Pick<VideoObject, 'id' | 'object' | 'model' | 'created_at' | 'status' | 'progress'> {
  return { id: task.id, object: 'video', model: requestOf(task).model, created_at: seconds(task.submitTime), status: 'processing', progress: 0 };
}

export function renderGeneration(task: TaskRecord, context: RenderContext): GenerationResult {
  const request = requestOf(task);
  const result = resultOf(task);
  const error = errorOf(task);
  const out: GenerationResult = {
    task_id: task.id,
    status: statusOf(task),
    format: 'mp4',
    metadata: {
      duration: request.seconds,
      fps: result?.fps ?? request.fps ?? null,
      height: request.height,
      seed: result?.seed ?? request.seed ?? null,
      width: request.width,
    },
    error: error && { code: numericCode(error.code), message: error.message },
  };
  const url = downloadUrl(task, context);
  if (url) out.url = url;
  return out;
}
