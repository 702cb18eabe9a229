/**
 * Downloads a finished video from the address the service named (an object
 * store link that expires), through the outbound guard.
 */
import type { MediaItem, TaskCall } from '../../tasks/types.js';
import { downloadThroughGuard } from '../guarded-download.js';

export async function downloadVideo(address: string, call: TaskCall, maxBytes: number): Promise<MediaItem> {
  const { bytes, declaredType } = await downloadThroughGuard(address, call, {
    maxBytes,
    what: 'video',
    bodyTimeoutMs: Math.max(call.timeoutMs, 60_000),
  });
  return { bytes, contentType: declaredType.startsWith('video/') ? declaredType : 'video/mp4', role: 'video' };
}
