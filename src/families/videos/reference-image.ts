/**
 * The reference image of image-to-video for standard models: an uploaded file
 * (`input_reference`) or a data URL. JPEG, PNG or WEBP, at most 16 MB; the type
 * is read from the bytes, not trusted from the client.
 */
import { GatewayError } from '../../core/errors.js';

export const MAX_REFERENCE_BYTES = 16 * 1024 * 1024;

export interface ReferenceImage {
  bytes: Buffer;
  contentType: string;
  filename: string;
}

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

function invalid(param: string, message: string): GatewayError {
  return new GatewayError('invalid_request', `${param}: ${message}`, { param });
}

export function sniffImage(bytes: Buffer): string | undefined {
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.readUInt32BE(4) === 0x0d0a1a0a) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

export function referenceFromBytes(bytes: Buffer, filename: string | undefined, param: string): ReferenceImage {
  if (bytes.length === 0) throw invalid(param, 'the file is empty');
  if (bytes.length > MAX_REFERENCE_BYTES) throw invalid(param, 'the image is larger than 16 MB');
  const contentType = sniffImage(bytes);
  if (!contentType) throw invalid(param, 'must be a JPEG, PNG or WEBP image');
  const safeName = filename && /^[\w.-]{1,128}$/.test(filename) ? filename : `reference.${EXTENSIONS[contentType]}`;
  return { bytes, contentType, filename: safeName };
}

export function referenceFromDataUrl(value: string, param: string): ReferenceImage {
  const match = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[^;,]*)*),/i.exec(value);
  if (!match?.[2].toLowerCase().split(';').includes('base64')) throw invalid(param, 'must be a base64 data URL (data:image/png;base64,...)');
  const payload = value.slice(match[0].length).replace(/\s+/g, '');
  if (payload.length > Math.ceil((MAX_REFERENCE_BYTES * 4) / 3) + 8) throw invalid(param, 'the image is larger than 16 MB');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(payload)) throw invalid(param, 'is not valid base64');
  return referenceFromBytes(Buffer.from(payload, 'base64'), undefined, param);
}
