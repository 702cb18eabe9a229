/**
 * What the simulator renders for a task: the requested aspect ratio scaled
 * down to `videoSize` on the long side (even sides, as H.264 wants), the
 * requested duration and frame rate, and a seed that fixes the picture: the
 * request's seed, else a hash of what was asked.
 */
import type { VideoTaskRequest } from '../../../tasks/video-contract.js';
import { hashNumber } from '../hash.js';
import type { RenderPlan } from './render-job.js';

const even = (value: number) => Math.max(16, 2 * Math.round(value / 2));

export function encodedSize(width: number, height: number, longSide: number): { width: number; height: number } {
  const scale = Math.min(1, longSide / Math.max(width, height));
  return { width: even(width * scale), height: even(height * scale) };
}

export function seedOf(request: VideoTaskRequest, parentSeed?: number): number {
  if (request.seed !== undefined) return request.seed;
  const { prompt, model, width, height, seconds, options } = request;
  return hashNumber(JSON.stringify({ prompt, model, width, height, seconds, options, parentSeed })) & 0x7fffffff;
}

export function renderPlan(request: VideoTaskRequest, seed: number, videoSize: number, defaultFps: number, backdrop?: number[]): RenderPlan {
  const size = encodedSize(request.width, request.height, videoSize);
  const plan: RenderPlan = { ...size, fps: request.fps ?? defaultFps, seconds: request.seconds, seed };
  if (backdrop) plan.backdrop = backdrop;
  return plan;
}
