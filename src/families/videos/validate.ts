/**
 * The field rules shared by both request shapes. Each shape reads its body
 * into a `VideoInput` (field names as the client wrote them, for messages);
 * `validateVideoInput` checks every field for the chosen model's family and
 * returns the normalised request. Every refusal is a 400 naming its field.
 */
import { GatewayError } from '../../core/errors.js';
import type { ModelKind, Tier, TieredOptions, VideoTaskRequest } from '../../tasks/video-contract.js';
import { checkResourceUrl, checkSeed, parseMetadata } from './metadata.js';
import { defaultSeconds } from './models.js';
import { referenceFromDataUrl, type ReferenceImage } from './reference-image.js';
import { DEFAULT_SIZE, parseSize, sizeForResolution, sizeText, tierOf, type ParsedSize } from './sizes.js';

export const MAX_PROMPT_CHARS = 32_000;
export const MAX_SECONDS = 60;
export const MAX_FPS = 60;

/** A field value with the name the client gave it. */
export interface Named<T = unknown> {
  value: T;
  param: string;
}

export interface VideoInput {
  prompt?: unknown;
  seconds?: Named;
  size?: Named;
  width?: unknown;
  height?: unknown;
  fps?: unknown;
  seed?: unknown;
  metadata?: unknown;
  /** An uploaded image file (multipart `input_reference`). */
  file?: Named<ReferenceImage>;
  /** Images given as addresses or data URLs, in order (image, or first and last frame). */
  references: Array<Named<string>>;
}

export interface ModelChoice {
  model: string;
  kind: ModelKind;
  /** The model name the first channel will be asked for (its model mapping applied). */
  upstreamModel?: string;
}

export type VideoSpec = Omit<VideoTaskRequest, 'publicBase' | 'inputReference' | 'remixOf'> & { image?: ReferenceImage };

function invalid(param: string, message: string): GatewayError {
  return new GatewayError('invalid_request', `${param}: ${message}`, { param });
}

export function checkPrompt(value: unknown, param = 'prompt'): string {
  if (value === undefined || value === null) throw invalid(param, 'is required');
  if (typeof value !== 'string') throw invalid(param, 'must be a string');
  if (value.trim() === '') throw invalid(param, 'must not be empty');
  if (value.length > MAX_PROMPT_CHARS) throw invalid(param, `must be at most ${MAX_PROMPT_CHARS} characters`);
  return value;
}

/** Whole seconds, as a string of digits (the spec's form) or, in JSON, a number. */
function readSeconds(named: Named | undefined, kind: ModelKind): number {
  if (!named || named.value === undefined || named.value === null || named.value === '') return defaultSeconds(kind);
  const { value, param } = named;
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(number) || number < 1 || number > MAX_SECONDS) {
    throw invalid(param, `must be a whole number of seconds from 1 to ${MAX_SECONDS} (as a string, e.g. "4")`);
  }
  return number;
}

function positiveInteger(value: unknown, param: string, max: number): number {
  const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 1 || number > max) {
    throw invalid(param, `must be a whole number from 1 to ${max}`);
  }
  return number;
}

function readSize(input: VideoInput, choice: ModelChoice): ParsedSize | undefined {
  let asked: ParsedSize | undefined;
  if (input.size && input.size.value !== undefined && input.size.value !== null && input.size.value !== '') {
    if (typeof input.size.value !== 'string') throw invalid(input.size.param, 'must be a string such as 720x1280');
    asked = parseSize(input.size.value, choice.kind, choice.model);
  }
  const hasWidth = input.width !== undefined && input.width !== null;
  const hasHeight = input.height !== undefined && input.height !== null;
  if (!hasWidth && !hasHeight) return asked;
  if (!hasWidth || !hasHeight) throw invalid(hasWidth ? 'height' : 'width', 'is required when the other side is given');
  const width = positiveInteger(input.width, 'width', 8192);
  const height = positiveInteger(input.height, 'height', 8192);
  if (asked && (asked.width !== width || asked.height !== height)) {
    throw invalid('width', `${sizeText(width, height)} does not match size ${sizeText(asked.width, asked.height)}`);
  }
  return asked ?? parseSize(sizeText(width, height), choice.kind, choice.model);
}

/** Places reference images by the model family's rules. */
function readImages(input: VideoInput, choice: ModelChoice, options: TieredOptions): ReferenceImage | undefined {
  const { kind, model } = choice;
  if (kind === 'standard') {
    const count = input.references.length + (input.file ? 1 : 0);
    if (count > 1) throw invalid(input.references[input.references.length - 1].param, `model ${model} takes one reference image`);
    if (input.file) return input.file.value;
    const reference = input.references[0];
    if (!reference) return undefined;
    if (!reference.value.startsWith('data:')) {
      throw invalid(reference.param, `model ${model} takes the image as an uploaded file or a data URL; the gateway does not fetch addresses for it`);
    }
    return referenceFromDataUrl(reference.value, reference.param);
  }
  if (input.file) {
    throw invalid(input.file.param, `model ${model} takes images by URL: set metadata.img_url (or first_frame_url and last_frame_url)`);
  }
  if (input.references.length === 0) return undefined;
  if (input.references.length > 2) throw invalid(input.references[2].param, 'at most two images: the first and the last frame');
  if (options.imageUrl || options.firstFrameUrl) {
    throw invalid(input.references[0].param, 'cannot be combined with metadata.img_url or metadata.first_frame_url');
  }
  const [first, last] = input.references.map((reference) => checkResourceUrl(reference.value, reference.param));
  if (last === undefined) options.imageUrl = first;
  else {
    options.firstFrameUrl = first;
    options.lastFrameUrl = last;
  }
  return undefined;
}

export function validateVideoInput(input: VideoInput, choice: ModelChoice): VideoSpec {
  const prompt = checkPrompt(input.prompt);
  const seconds = readSeconds(input.seconds, choice.kind);
  const asked = readSize(input, choice);
  const metadata = parseMetadata(input.metadata, choice.kind, choice.model, choice.upstreamModel);
  let size: ParsedSize = asked ?? { ...DEFAULT_SIZE };
  if (metadata.resolution) size = sizeForResolution(metadata.resolution, asked);
  const fps = input.fps === undefined || input.fps === null ? undefined : positiveInteger(input.fps, 'fps', MAX_FPS);
  let seed = metadata.seed;
  if (input.seed !== undefined && input.seed !== null) {
    const top = checkSeed(input.seed, 'seed');
    if (seed !== undefined && seed !== top) throw invalid('seed', 'differs from metadata.seed');
    seed = top;
  }
  const image = readImages(input, choice, metadata.options);
  const resolution: Tier | undefined = size.resolution;
  const spec: VideoSpec = {
    model: choice.model,
    kind: choice.kind,
    prompt,
    seconds,
    width: size.width,
    height: size.height,
    tier: resolution ?? tierOf(size.width, size.height),
    options: metadata.options,
  };
  if (resolution) spec.resolution = resolution;
  if (fps !== undefined) spec.fps = fps;
  if (seed !== undefined) spec.seed = seed;
  if (image) spec.image = image;
  return spec;
}
