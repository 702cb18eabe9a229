/**
 * The internal representation of an image task, shared by the image family
 * (`src/families/images`) and the upstreams that run image tasks (the
 * simulator's painter, the ig-proxy). The engine itself never reads these
 * shapes: to it, request and result are opaque JSON.
 */
import { defineTaskKind } from './task-kind.js';
import type { MediaRef, SubmitOutcome, TaskCall, TaskRecord, TaskUpstream } from './types.js';

export const IMAGE_FAMILY = 'images';

export const IMAGE_ACTIONS = ['IMAGINE', 'UPSCALE', 'VARIATION', 'ZOOM', 'PAN', 'DESCRIBE', 'BLEND', 'SHORTEN', 'SWAP_FACE'] as const;
export type ImageAction = (typeof IMAGE_ACTIONS)[number];

export type BotType = 'MID_GEN' | 'NIJI_GEN';
export type Dimensions = 'PORTRAIT' | 'SQUARE' | 'LANDSCAPE';

/** Which upstream operation created the task. */
export type ImageEndpoint = 'imagine' | 'blend' | 'describe' | 'shorten' | 'action' | 'swap_face';

/** What the image shows: a 2x2 grid, one image, or text only (describe, shorten). */
export type ImageLayout = 'grid' | 'single' | 'text';

/** Follow-ups that wait for `/ig/submit/modal`. */
export type ModalKind = 'custom_zoom' | 'inpaint' | 'describe' | 'shorten' | 'remix';

export interface ImageButton {
  customId: string;
  emoji: string;
  label: string;
  /** 2 for every button the gateway emits. */
  style: number;
  /** 2: a button component. */
  type: number;
}

/** A button as stored: what the client sees, plus the upstream's own customId when it differs. */
export interface StoredButton extends ImageButton {
  upstreamCustomId?: string;
}

/** The operation a button's customId asks for. */
export type OperationKind =
  | 'upsample'
  | 'upsample_hd'
  | 'variation'
  | 'low_variation'
  | 'high_variation'
  | 'reroll'
  | 'pan'
  | 'outpaint'
  | 'custom_zoom'
  | 'inpaint'
  | 'pic_reader'
  | 'picread_retry'
  | 'prompt_analyzer';

export interface ImageOperation {
  kind: OperationKind;
  /** 1-based index of the grid image (or of the suggested prompt); 0 when not applicable. */
  index: number;
  direction?: 'left' | 'right' | 'up' | 'down';
  /** Zoom-out factor (2 or 1.5; custom zoom: from the modal prompt). */
  zoom?: number;
}

/** What a follow-up needs to know about the task it acts on. */
export interface ParentSummary {
  id: string;
  action: ImageAction;
  prompt: string;
  finalPrompt: string;
  seed?: string;
  layout?: ImageLayout;
  /** How the parent's image was painted (simulator bookkeeping, opaque here; absent for other upstreams). */
  tiles?: unknown[];
  /** Suggested prompts of a describe or shorten parent. */
  prompts?: string[];
  /** Aspect ratio of the parent's image, as `W:H`. */
  aspect?: string;
}

/** A task's `request` JSON for the images family. */
export interface ImageTaskRequest {
  endpoint: ImageEndpoint;
  botType: BotType;
  /** The prompt as the client gave it (follow-ups: the parent's, or the modal's). */
  prompt: string;
  /** The prompt as sent to the upstream (with the addresses of padding images in front). */
  promptEn: string;
  /** The client's tracking value, echoed as the task's `state`. */
  state: string;
  dimensions?: Dimensions;
  /** SHA-256 (hex) of each input image, in order (face swap: source, then target). */
  imageDigests: string[];
  /** Input images kept by the gateway (describe's image, imagine's padding images). */
  inputMedia: MediaRef[];
  /** The customId the client pressed (follow-ups), in the gateway's `IG::` form. */
  customId?: string;
  operation?: ImageOperation;
  parent?: ParentSummary;
  /** Set while the task waits for (or after it got) its modal submission. */
  modal?: ModalKind;
  maskDigest?: string;
  /** Base of the absolute URLs handed out for this task's images. */
  publicBase: string;
}

/** A task's `result` JSON for the images family (the engine adds `media`). */
export interface ImageTaskResult {
  layout: ImageLayout;
  finalPrompt: string;
  promptEn?: string;
  prompt?: string;
  description?: string;
  buttons: StoredButton[];
  seed?: string;
  /** The job hash in this result's customIds. */
  hash?: string;
  prompts?: string[];
  tiles?: unknown[];
  aspect?: string;
  media?: MediaRef[];
}

/** An input image, decoded and checked by the family. */
export interface InputImage {
  bytes: Buffer;
  contentType: string;
  /** The data URL as the client sent it (forwarded as is to an upstream that takes base64). */
  dataUrl: string;
  digest: string;
}

/** What a submission carries beyond the stored request. */
export interface ImageSubmitPayload {
  /** Imagine padding, blend inputs, describe's image, face swap [source, target]. */
  images: InputImage[];
  /** The parent's upstream id and the upstream's customId, for follow-ups. */
  parentUpstreamId?: string;
  upstreamCustomId?: string;
  /** The client's account filter, forwarded to upstreams that pick accounts themselves. */
  accountFilter?: Record<string, unknown>;
}

export interface ImageModalPayload {
  prompt: string;
  mask?: InputImage;
}

/** An upstream that runs image tasks: the engine's contract plus modal confirmation and seeds. */
export interface ImageTaskUpstream extends TaskUpstream<ImageTaskRequest, ImageTaskResult, ImageSubmitPayload> {
  /** Completes a task waiting in MODAL with its prompt (and mask). */
  confirmModal(task: TaskRecord, payload: ImageModalPayload, call: TaskCall): Promise<SubmitOutcome>;
  /** The seed of a finished image task, as digits. */
  imageSeed(task: TaskRecord, call: TaskCall): Promise<string>;
}

/** The typed view of image tasks' stored JSON. */
export const IMAGE_TASKS = defineTaskKind<ImageTaskRequest, ImageTaskResult>(IMAGE_FAMILY);

export const routingName = (action: ImageAction): string => `ig_${action.toLowerCase()}`;
