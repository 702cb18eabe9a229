/**
 * Downloads a finished video from the address the service named (an object
 * store link that expires), through the outbound guard: an upstream could
 * name an internal address. Bounded in size and time.
 */
import { request } from 'undici';
import { GatewayError } from '../../core/errors.js';
import type { MediaItem, TaskCall } from '../../tasks/types.js';
import { readLimited } from '../openai-videos/transfer.js';

export async function downloadVideo(address: string, call: TaskCall, maxBytes: number): Promise<MediaItem> {
  const guard = call.outbound;
  if (!guard) throw new GatewayError('internal', 'video download needs the outbound guard');
  const url = guard.checkUrl(new URL(address, `${call.channel.baseUrl}/`).href, 'the upstream video address');
  const response = await request(url, {
    method: 'GET',
    dispatcher: guard.agent,
    signal: call.signal,
    headersTimeout: call.timeoutMs,
    bodyTimeout: Math.max(call.timeoutMs, 60_000),
  }).catch((error: unknown) => {
    const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
    if (code === 'EADDRNOTALLOWED') {
      throw new GatewayError('invalid_request', 'the upstream video address resolves to a private or reserved address, which is not allowed');
    }
    throw new GatewayError('upstream_error', `the upstream video could not be fetched (${code ?? 'error'})`, { retryable: true, cause: error });
  });
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new GatewayError('upstream_error', `the upstream video answered HTTP ${response.statusCode}`, { retryable: true });
  }
  const declared = String(response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const bytes = await readLimited(response.body, maxBytes, 'the upstream video', call.signal);
  return { bytes, contentType: declared.startsWith('video/') ? declared : 'video/mp4', role: 'video' };
}
