/**
 * Downloads a finished task's image from the address the service gave,
 * through the outbound guard, so the gateway can serve it under its own URL.
 */
import type { MediaItem, TaskCall } from '../../tasks/types.js';
import { downloadThroughGuard } from '../guarded-download.js';

export async function downloadImage(address: string, call: TaskCall, maxBytes: number): Promise<MediaItem> {
  const { bytes, declaredType } = await downloadThroughGuard(address, call, { maxBytes, what: 'image', bodyTimeoutMs: call.timeoutMs });
  return { bytes, contentType: declaredType.startsWith('image/') ? declaredType : sniffType(bytes) };
}

function sniffType(bytes: Buffer): string {
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x89504e47) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (bytes.length >= 4 && bytes.toString('latin1', 0, 4) === 'GIF8') return 'image/gif';
  return 'application/octet-stream';
}
