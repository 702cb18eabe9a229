/**
 * Input images: base64 strings, normally data URLs (`data:image/png;base64,…`).
 * Accepted: JPEG, PNG, static GIF, WEBP, at most 4 MB each. The format is
 * read from the bytes, not trusted from the prefix.
 */
import { createHash } from 'node:crypto';
import { GatewayError } from '../../core/errors.js';
import type { InputImage } from '../../tasks/image-contract.js';

export const MAX_IMAGE_BYTES = 4 * 1024 * 1024;

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),/;
const DECLARED = new Set(['', 'image/png', 'image/jpeg', 'image/jpg', 'image/gif', 'image/webp']);

function invalid(field: string, message: string): GatewayError {
  return new GatewayError('invalid_request', `${field}: ${message}`, { param: field });
}

function sniff(bytes: Buffer): string | undefined {
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.readUInt32BE(4) === 0x0d0a1a0a) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.toString('latin1', 0, 6))) return 'image/gif';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/** Frames in a GIF, counted up to two (enough to tell a static image from an animation). */
export function gifFrameCount(bytes: Buffer): number {
  const colourTable = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);
  const skipSubBlocks = (at: number) => {
    while (at < bytes.length && bytes[at] !== 0) at += bytes[at] + 1;
    return at + 1;
  };
  let at = 13 + colourTable(bytes[10] ?? 0);
  let frames = 0;
  while (at < bytes.length) {
    const marker = bytes[at];
    if (marker === 0x3b) break;
    if (marker === 0x21) {
      at = skipSubBlocks(at + 2);
    } else if (marker === 0x2c) {
      if (++frames > 1) break;
      at = skipSubBlocks(at + 10 + colourTable(bytes[at + 9] ?? 0) + 1);
    } else {
      break;
    }
  }
  return frames;
}

export function decodeImage(value: unknown, field: string): InputImage {
  if (typeof value !== 'string' || value.length === 0) throw invalid(field, 'must be a base64 image (a data URL such as data:image/png;base64,...)');
  let payload = value;
  const prefix = DATA_URL.exec(value);
  if (prefix) {
    const declared = prefix[1].toLowerCase();
    if (!DECLARED.has(declared)) throw invalid(field, `unsupported image type "${declared}": use JPEG, PNG, GIF or WEBP`);
    if (!prefix[2].toLowerCase().split(';').includes('base64')) throw invalid(field, 'the data URL must be base64 encoded');
    payload = value.slice(prefix[0].length);
  } else if (value.startsWith('data:')) {
    throw invalid(field, 'is not a valid data URL');
  }
  // Base64 is 4/3 of the bytes: refuse oversized input before decoding it.
  if (payload.length > Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 8) throw invalid(field, 'image is larger than 4 MB');
  const compact = payload.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) throw invalid(field, 'is not valid base64');
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length === 0) throw invalid(field, 'image is empty');
  if (bytes.length > MAX_IMAGE_BYTES) throw invalid(field, 'image is larger than 4 MB');
  const contentType = sniff(bytes);
  if (!contentType) throw invalid(field, 'is not a JPEG, PNG, GIF or WEBP image');
  if (contentType === 'image/gif' && gifFrameCount(bytes) > 1) throw invalid(field, 'animated GIFs are not accepted; send a static image');
  const dataUrl = prefix && prefix[1] !== '' ? value : `data:${contentType};base64,${compact}`;
  return { bytes, contentType, dataUrl, digest: createHash('sha256').update(bytes).digest('hex') };
}
