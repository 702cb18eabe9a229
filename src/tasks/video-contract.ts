/**
 * The internal representation of a video task, shared by the video family
 * (both client shapes, `/v1/videos` and `/v1/video/generations`) and the
 * upstreams that run video tasks (the simulator, `openai-videos`, `wan`). The
 * engine never reads these shapes: to it, request and result are opaque JSON.
 */
import { defineTaskKind } from './task-kind.js';
import type { MediaRef, TaskUpstream } from './types.js';

export const VIDEO_FAMILY = 'videos';

/** What a task does: a new video, or a remix of a finished one (same channel). */
export type VideoAction = 'GENERATE' | 'REMIX';

/** Resolution tiers of the spec's size table. */
export type Tier = '480P' | '720P' | '1080P';

/**
 * How a model family takes its options. `standard`: sizes as `WxH`, an image as
 * an uploaded file (the OpenAI Videos kind). `tiered`: sizes as `WxH`, `W*H` or a
 * tier, every resource by URL in `metadata` (the Wan kind).
 */
export type ModelKind = 'standard' | 'tiered';

/** Which variants `/content` serves, in the order upstreams hand media over. */
export const VARIANTS = ['video', 'thumbnail', 'spritesheet'] as const;
export type Variant = (typeof VARIANTS)[number];

/** Options of the tiered model family (the spec's `metadata` keys), all optional. */
export interface TieredOptions {
  imageUrl?: string;
  firstFrameUrl?: string;
  lastFrameUrl?: string;
  audioUrl?: string;
  negativePrompt?: string;
  watermark?: boolean;
  promptExtend?: boolean;
  audio?: boolean;
}

/** A task's `request` JSON for the videos family. */
export interface VideoTaskRequest {
  /** The model the client asked for (before a channel's model mapping). */
  model: string;
  kind: ModelKind;
  prompt: string;
  /** Whole seconds. */
  seconds: number;
  /** Requested pixel size (reported as `WxH` whatever form the client used). */
  width: number;
  height: number;
  tier: Tier;
  /** Set when the client named a tier (metadata.resolution or a tier size). */
  resolution?: Tier;
  /** Frames per second asked for (`/v1/video/generations`); upstreams may ignore it. */
  fps?: number;
  seed?: number;
  options: TieredOptions;
  /** The uploaded image (image to video), kept by the gateway. */
  inputReference?: MediaRef;
  /** The id of the video remixed. */
  remixOf?: string;
  /** Base of the absolute URLs handed out for this task (callbacks have no request to take it from). */
  publicBase: string;
}

/** A task's `result` JSON for the videos family (the engine adds `media`). */
export interface VideoTaskResult {
  /** A machine-readable reason when the upstream gave one (failed tasks). */
  errorCode?: string;
  /** Frames per second of the delivered video, when known. */
  fps?: number;
  /** The seed used, when known. */
  seed?: number;
  media?: MediaRef[];
}

/** What a submission carries beyond the stored request. */
export interface VideoSubmitPayload {
  /** The uploaded reference image. */
  image?: { bytes: Buffer; contentType: string; filename: string };
  /** The remixed video's upstream id and stored request (remix tasks). */
  parent?: { upstreamId: string | null; request: VideoTaskRequest; seed?: number };
}

/** An upstream that runs video tasks: the engine's contract plus what it can do. */
export interface VideoTaskUpstream extends TaskUpstream<VideoTaskRequest, VideoTaskResult, VideoSubmitPayload> {
  /** Whether `submit` takes remix tasks. */
  readonly remixes: boolean;
}

/** The typed view of video tasks' stored JSON. */
export const VIDEO_TASKS = defineTaskKind<VideoTaskRequest, VideoTaskResult>(VIDEO_FAMILY);
