/**
 * Video sizes and resolution tiers. The spec's table names the sizes of the
 * tiered model family; a size of any other model is placed in a tier by its
 * pixel count (for prices). Sizes are written `WxH` in every answer, whatever
 * form the client used.
 */
import { GatewayError } from '../../core/errors.js';
import type { ModelKind, Tier } from '../../tasks/video-contract.js';

export const TIERS: Record<Tier, Array<[number, number]>> = {
  '480P': [
    [832, 480],
    [480, 832],
    [624, 624],
  ],
  '720P': [
    [1280, 720],
    [720, 1280],
    [960, 960],
    [1088, 832],
    [832, 1088],
  ],
  '1080P': [
    [1920, 1080],
    [1080, 1920],
    [1440, 1440],
    [1632, 1248],
    [1248, 1632],
  ],
};

const TIER_NAMES = Object.keys(TIERS) as Tier[];

/** The spec's default size. */
export const DEFAULT_SIZE = { width: 720, height: 1280 };

/** Largest side the gateway accepts for a size of the standard kind. */
const MAX_SIDE = 4096;
const MIN_SIDE = 16;

export interface ParsedSize {
  width: number;
  height: number;
  /** Set when the client named the tier itself. */
  resolution?: Tier;
}

export const sizeText = (width: number, height: number): string => `${width}x${height}`;

/** The tier of a size in the table, else by pixel count (up to a tier's largest size). */
export function tierOf(width: number, height: number): Tier {
  for (const tier of TIER_NAMES) if (TIERS[tier].some(([w, h]) => w === width && h === height)) return tier;
  const pixels = width * height;
  for (const tier of TIER_NAMES) if (pixels <= Math.max(...TIERS[tier].map(([w, h]) => w * h))) return tier;
  return '1080P';
}

/** `480p`, `720P`, or a tier named by the long side of one of its sizes (`1280P` is 720P). */
export function parseTier(text: string): Tier | undefined {
  const match = /^(\d{3,4})[pP]$/.exec(text.trim());
  if (!match) return undefined;
  const named = `${match[1]}P` as Tier;
  if (TIERS[named]) return named;
  const side = Number(match[1]);
  return TIER_NAMES.find((tier) => TIERS[tier].some(([w, h]) => Math.max(w, h) === side));
}

/** The first (landscape) size of a tier with that long side, else the tier's first size. */
function sizeOfTier(tier: Tier, longSide?: number): [number, number] {
  return TIERS[tier].find(([w, h]) => longSide === undefined || Math.max(w, h) === longSide) ?? TIERS[tier][0];
}

function invalidSize(message: string): GatewayError {
  return new GatewayError('invalid_request', `size: ${message}`, { param: 'size' });
}

/**
 * Reads a size for a model of the given kind. The standard kind takes `WxH`;
 * the tiered kind also takes `W*H` and tiers, and only sizes of the table.
 */
export function parseSize(text: string, kind: ModelKind, model: string): ParsedSize {
  const trimmed = text.trim();
  // × written as an escape: the bundle stays ASCII (scripts/bundle.mjs).
  const pair = /^(\d{1,5})\s*([x*\u00D7X])\s*(\d{1,5})$/.exec(trimmed);
  if (kind === 'standard') {
    if (pair?.[2] !== 'x') {
      throw invalidSize(`"${text}" is not a size for model ${model}; write it as <width>x<height>, e.g. 720x1280`);
    }
    const width = Number(pair[1]);
    const height = Number(pair[3]);
    if (width < MIN_SIDE || height < MIN_SIDE || width > MAX_SIDE || height > MAX_SIDE) {
      throw invalidSize(`each side must be between ${MIN_SIDE} and ${MAX_SIDE} pixels`);
    }
    return { width, height };
  }
  if (pair) {
    const width = Number(pair[1]);
    const height = Number(pair[3]);
    if (!TIER_NAMES.some((tier) => TIERS[tier].some(([w, h]) => w === width && h === height))) {
      throw invalidSize(`${sizeText(width, height)} is not a size model ${model} offers; ${tableText()}`);
    }
    return { width, height };
  }
  const tier = parseTier(trimmed);
  if (!tier) throw invalidSize(`"${text}" is neither <width>x<height>, <width>*<height> nor a tier such as 720P; ${tableText()}`);
  const named = Number(trimmed.slice(0, -1));
  const [width, height] = sizeOfTier(tier, TIERS[`${named}P` as Tier] ? undefined : named);
  return { width, height, resolution: tier };
}

/** A size of a tier the client chose with `metadata.resolution`, given the size asked (if any). */
export function sizeForResolution(resolution: Tier, asked: ParsedSize | undefined): ParsedSize {
  if (!asked) {
    const [width, height] = sizeOfTier(resolution);
    return { width, height, resolution };
  }
  if (tierOf(asked.width, asked.height) !== resolution) {
    throw new GatewayError('invalid_request', `metadata.resolution: ${resolution} does not match size ${sizeText(asked.width, asked.height)} (a ${tierOf(asked.width, asked.height)} size)`, {
      param: 'metadata.resolution',
    });
  }
  return { ...asked, resolution };
}

function tableText(): string {
  return `sizes by tier: ${TIER_NAMES.map((tier) => `${tier} ${TIERS[tier].map(([w, h]) => sizeText(w, h)).join(', ')}`).join('; ')}`;
}
