/**
 * The `metadata` field: model-specific options as a JSON object, sent as a
 * string (multipart) or an object (JSON). Every key is checked for its type;
 * keys of the tiered model family are refused for standard models, and
 * unknown keys are refused, each with a 400 that names the key.
 */
import { GatewayError } from '../../core/errors.js';
import type { ModelKind, Tier, TieredOptions } from '../../tasks/video-contract.js';
import { generatesAudio } from './models.js';
import { parseTier } from './sizes.js';

export interface ParsedMetadata {
  seed?: number;
  resolution?: Tier;
  options: TieredOptions;
}

export const MAX_SEED = 2_147_483_647;

const URL_KEYS = { img_url: 'imageUrl', first_frame_url: 'firstFrameUrl', last_frame_url: 'lastFrameUrl', audio_url: 'audioUrl' } as const;
const BOOLEAN_KEYS = { watermark: 'watermark', prompt_extend: 'promptExtend', audio: 'audio' } as const;
const KNOWN = ['seed', 'resolution', 'negative_prompt', ...Object.keys(URL_KEYS), ...Object.keys(BOOLEAN_KEYS)];
/** Keys every model takes; the rest belong to the tiered family. */
const COMMON = new Set(['seed']);

function invalid(key: string, message: string): GatewayError {
  const param = key ? `metadata.${key}` : 'metadata';
  return new GatewayError('invalid_request', `${param}: ${message}`, { param });
}

function toObject(raw: unknown): Record<string, unknown> {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw invalid('', `is not valid JSON (${(error as Error).message})`);
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid('', 'must be a JSON object (or a string holding one)');
  }
  return value as Record<string, unknown>;
}

/** An http(s) address, or a data URL carrying the resource itself. */
export function checkResourceUrl(value: unknown, param: string): string {
  const fail = () => new GatewayError('invalid_request', `${param}: must be an http(s) URL or a data URL`, { param });
  if (typeof value !== 'string' || value.trim() === '') throw fail();
  if (/^data:[\w.+-]+\/[\w.+-]+;base64,/i.test(value)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fail();
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail();
  if (value.length > 4096) throw new GatewayError('invalid_request', `${param}: is longer than 4096 characters`, { param });
  return value;
}

export function checkSeed(value: unknown, param: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_SEED) {
    throw new GatewayError('invalid_request', `${param}: must be an integer from 0 to ${MAX_SEED}`, { param });
  }
  return value;
}

export function parseMetadata(raw: unknown, kind: ModelKind, model: string, upstreamModel?: string): ParsedMetadata {
  const out: ParsedMetadata = { options: {} };
  if (raw === undefined || raw === null || raw === '') return out;
  const object = toObject(raw);
  for (const [key, value] of Object.entries(object)) {
    if (!KNOWN.includes(key)) throw invalid(key, `unknown key; the known keys are ${KNOWN.join(', ')}`);
    if (value === null || value === undefined) continue;
    if (kind === 'standard' && !COMMON.has(key)) {
      throw invalid(key, `model ${model} does not take this option (it belongs to the Wan model family, whose resources travel by URL)`);
    }
    if (key === 'seed') out.seed = checkSeed(value, 'metadata.seed');
    else if (key === 'resolution') {
      const tier = typeof value === 'string' ? parseTier(value) : undefined;
      if (!tier) throw invalid(key, 'must be a resolution tier: 480P, 720P or 1080P');
      out.resolution = tier;
    } else if (key === 'negative_prompt') {
      if (typeof value !== 'string') throw invalid(key, 'must be a string');
      if (value.length > 500) throw invalid(key, 'must be at most 500 characters');
      out.options.negativePrompt = value;
    } else if (key in URL_KEYS) {
      out.options[URL_KEYS[key as keyof typeof URL_KEYS]] = checkResourceUrl(value, `metadata.${key}`);
    } else {
      if (typeof value !== 'boolean') throw invalid(key, 'must be true or false');
      out.options[BOOLEAN_KEYS[key as keyof typeof BOOLEAN_KEYS]] = value;
    }
  }
  checkCombination(out.options, model, upstreamModel);
  return out;
}

function checkCombination(options: TieredOptions, model: string, upstreamModel?: string): void {
  if (options.lastFrameUrl && !options.firstFrameUrl) {
    throw invalid('last_frame_url', 'needs metadata.first_frame_url (keyframe to video takes both frames)');
  }
  if (options.imageUrl && options.firstFrameUrl) {
    throw invalid('first_frame_url', 'cannot be combined with metadata.img_url: give one image (image to video) or the keyframes');
  }
  if (options.audio && !generatesAudio(model, upstreamModel)) {
    throw invalid('audio', `model ${model} does not generate audio (Wan 2.5 and later do)`);
  }
}
