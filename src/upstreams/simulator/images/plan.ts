/**
 * What the simulator will produce for a task, decided when the task starts:
 * the layout, the seed (a `--seed N` in the prompt wins, otherwise a hash of
 * what was asked, so the same request paints the same image), the aspect
 * ratio and how each tile is painted, derived from the parent's tiles for
 * follow-ups (an upscale repaints one grid tile at full size).
 */
import type { ImageLayout, ImageTaskRequest } from '../../../tasks/image-contract.js';
import { hashNumber } from '../hash.js';
import type { PaintPlan, TileSpec } from './painter.js';
import { aspectOf, describeImage, seedOf, shortenPrompt } from './texts.js';

export interface SimulatedJob {
  layout: ImageLayout;
  seed: number;
  aspect: [number, number];
  /** For image layouts. */
  paint?: PaintPlan;
  /** For text layouts: the suggested prompts. */
  prompts?: string[];
  /** The result is itself an upscale of an upscale (fewer buttons). */
  upscaledTwice?: boolean;
}

const DIMENSIONS: Record<string, [number, number]> = { PORTRAIT: [2, 3], SQUARE: [1, 1], LANDSCAPE: [3, 2] };
const PAN: Record<string, [number, number]> = { left: [-0.3, 0], right: [0.3, 0], up: [0, -0.3], down: [0, 0.3] };

const fresh = (seed: number, salt: string): TileSpec => ({ k: 'p', s: hashNumber(`${seed}|${salt}`) });

function parseAspect(text: string | undefined): [number, number] | undefined {
  const match = /^(\d+):(\d+)$/.exec(text ?? '');
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/** The tile a follow-up starts from: the pressed grid image, or the single image. */
function baseTile(request: ImageTaskRequest, index: number): TileSpec {
  const tiles = (request.parent?.tiles ?? []) as TileSpec[];
  const picked = tiles.length === 4 ? tiles[Math.max(0, index - 1)] : tiles[0];
  return picked ?? { k: 'p', s: hashNumber(`${request.parent?.id ?? ''}|${index}`) };
}

function grid(seed: number, aspect: [number, number], tile: (i: number) => TileSpec): SimulatedJob {
  return { layout: 'grid', seed, aspect, paint: { layout: 'grid', aspect, tiles: [0, 1, 2, 3].map(tile) } };
}

export function planJob(action: string, request: ImageTaskRequest): SimulatedJob {
  const prompt = request.promptEn;
  const op = request.operation;
  const seed =
    seedOf(prompt) ?? hashNumber([action, op?.kind ?? request.endpoint, op?.index ?? 0, request.parent?.seed ?? '', prompt, request.imageDigests.join(','), request.maskDigest ?? ''].join('|'));
  const aspect = parseAspect(request.parent?.aspect) ?? aspectOf(prompt) ?? (request.dimensions ? DIMENSIONS[request.dimensions] : undefined) ?? [1, 1];

  if (request.endpoint === 'describe' || op?.kind === 'picread_retry') {
    const digest = request.imageDigests[0] ?? '';
    return { layout: 'text', seed, aspect, prompts: describeImage(op ? `${digest}|retry` : digest) };
  }
  if (request.endpoint === 'shorten') return { layout: 'text', seed, aspect, prompts: shortenPrompt(request.prompt) };
  if (request.endpoint === 'swap_face') {
    const [source = '', target = ''] = request.imageDigests;
    const tile: TileSpec = { k: 'swap', s: hashNumber(target), face: hashNumber(source) };
    return { layout: 'single', seed, aspect: [1, 1], paint: { layout: 'single', aspect: [1, 1], tiles: [tile] } };
  }
  if (request.endpoint === 'blend') {
    const digests = request.imageDigests;
    return grid(seed, aspect, (i) => ({ k: 'var', s: hashNumber(`${seed}|${i}`), of: { k: 'p', s: hashNumber(digests[i % digests.length]) }, w: 0.65 }));
  }
  if (!op || op.kind === 'pic_reader' || op.kind === 'prompt_analyzer' || op.kind === 'reroll') {
    return grid(seed, aspect, (i) => fresh(seed, String(i)));
  }
  switch (op.kind) {
    case 'upsample':
    case 'upsample_hd': {
      const tile = baseTile(request, op.index);
      return { layout: 'single', seed, aspect, paint: { layout: 'single', aspect, tiles: [tile] }, upscaledTwice: op.kind === 'upsample_hd' };
    }
    case 'variation':
    case 'low_variation':
    case 'high_variation':
    case 'inpaint': {
      const base = baseTile(request, op.index);
      const weight = op.kind === 'high_variation' ? 0.5 : op.kind === 'inpaint' ? 0.85 : op.kind === 'low_variation' ? 0.8 : 0.7;
      return grid(seed, aspect, (i) => ({ k: 'var', s: hashNumber(`${seed}|${i}`), of: base, w: weight }));
    }
    case 'pan': {
      const base = baseTile(request, op.index);
      const [dx, dy] = PAN[op.direction ?? 'left'];
      return grid(seed, aspect, (i) => ({ k: 'pan', dx, dy, of: { k: 'var', s: hashNumber(`${seed}|${i}`), of: base, w: 0.85 } }));
    }
    case 'outpaint':
    case 'custom_zoom': {
      const base = baseTile(request, op.index);
      const zoom = Math.min(2, Math.max(1, op.zoom ?? 2));
      return grid(seed, aspect, (i) => ({
        k: 'zoom',
        s: hashNumber(`${seed}|frame|${i}`),
        z: zoom,
        of: { k: 'var', s: hashNumber(`${seed}|${i}`), of: base, w: 0.9 },
      }));
    }
  }
}
