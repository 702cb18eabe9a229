/**
 * Simulated image generation and editing: one PNG per image, painted by the
 * image-task painter from a seed hashed from the model, prompt, position
 * and (for an edit) the input image and mask, so answers are stable across
 * runs. The size is the one asked (`<width>x<height>`), else an edit's input
 * size (a PNG's own header), else 1024x1024; sides and a request's pixels are
 * bounded, and the event loop is handed over between images, so a request
 * cannot make the simulator paint for long (a 2048x2048 image takes about
 * half a second). Always PNG (whatever
 * `output_format` says). gpt-image models report token usage (the prompt's
 * tokens in, output tokens by area as OpenAI bills a medium image), others
 * none.
 */
import { createHash } from 'node:crypto';
import { GatewayError } from '../../core/errors.js';
import { countTokens } from '../../core/tokens.js';
import { answersBytesOnly, type ImageRequest, type ImageResponse, type MadeImage } from '../../dialects/openai-images/wire.js';
import type { UpstreamCall } from '../types.js';
import { hashNumber } from './hash.js';
import { paint } from './images/painter.js';
import { simulatedCall } from './plain-call.js';
import { throwIfAborted } from './timing.js';

/** The simulator's bound on either side of an image. */
export const MAX_SIMULATED_SIDE = 2048;
/** The simulator's bound on the pixels of one request (four of the largest images). */
export const MAX_SIMULATED_PIXELS = 4 * 2048 * 2048;
const DEFAULT_SIDE = 1024;
/** Output tokens of one 1024x1024 image at medium quality (gpt-image-1's table). */
const TOKENS_PER_MEGAPIXEL = 1056;

export async function simulateImages(request: ImageRequest, call: UpstreamCall): Promise<ImageResponse> {
  await simulatedCall(call);
  const { width, height } = sizeOf(request);
  const input = request.images.map((file) => digest(file.bytes)).join(',');
  const mask = request.mask ? digest(request.mask.bytes) : '';
  if (width * height * request.n > MAX_SIMULATED_PIXELS) {
    throw new GatewayError('invalid_request', `Invalid 'n': the simulator paints at most ${MAX_SIMULATED_PIXELS} pixels a request; ask fewer or smaller images`, { param: 'n' });
  }
  const images: MadeImage[] = [];
  for (let index = 0; index < request.n; index++) {
    // Each image is a few hundred milliseconds of work at most: other requests run between them.
    if (index > 0) await new Promise((resolve) => setImmediate(resolve));
    throwIfAborted(call.signal);
    const seed = hashNumber(`${request.operation}\u0000${call.upstreamModel}\u0000${request.prompt}\u0000${index}\u0000${input}\u0000${mask}`);
    const png = paint({ layout: 'single', aspect: [width, height], tiles: [{ k: 'p', s: seed }] }, Math.max(width, height));
    images.push({ bytes: png.bytes, ...(call.upstreamModel.startsWith('dall-e-3') ? { revisedPrompt: request.prompt } : {}) });
  }
  if (!answersBytesOnly(call.upstreamModel)) return { images };
  const perImage = Math.ceil((TOKENS_PER_MEGAPIXEL * width * height) / (1024 * 1024));
  return { images, inputTokens: countTokens(request.prompt), outputTokens: perImage * request.n };
}

function sizeOf(request: ImageRequest): { width: number; height: number } {
  const asked = request.size && request.size !== 'auto' ? request.size.split('x').map(Number) : undefined;
  const [width, height] = asked ?? pngSize(request.images[0]?.bytes) ?? [DEFAULT_SIDE, DEFAULT_SIDE];
  if (width > MAX_SIMULATED_SIDE || height > MAX_SIMULATED_SIDE) {
    throw new GatewayError('invalid_request', `Invalid 'size': the simulator paints at most ${MAX_SIMULATED_SIDE}x${MAX_SIMULATED_SIDE}`, { param: 'size' });
  }
  // The painter draws even sides.
  return { width: Math.max(2, width + (width % 2)), height: Math.max(2, height + (height % 2)) };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's width and height from its IHDR chunk; undefined for anything else. */
function pngSize(bytes: Buffer | undefined): [number, number] | undefined {
  if (!bytes || bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  return width > 0 && height > 0 ? [width, height] : undefined;
}

const digest = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex').slice(0, 16);
