/**
 * Downloads a finished task's image from the address the service gave,
 * through the outbound guard (an upstream could name an internal address),
 * bounded in size and time, so the gateway can serve it under its own URL.
 */
import { request } from 'undici';
import { GatewayError } from '../../core/errors.js';
import type { MediaItem, TaskCall } from '../../tasks/types.js';

export async function downloadImage(address: string, call: TaskCall, maxBytes: number): Promise<MediaItem> {
  const guard = call.outbound;
  if (!guard) throw new GatewayError('internal', 'image download needs the outbound guard');
  // Relative addresses are on the service itself.
  const url = guard.checkUrl(new URL(address, `${call.channel.baseUrl}/`).href, 'the upstream image address');
  const response = await request(url, {
    method: 'GET',
    dispatcher: guard.agent,
    signal: call.signal,
    headersTimeout: call.timeoutMs,
    bodyTimeout: call.timeoutMs,
  }).catch((error: unknown) => {
    const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
    if (code === 'EADDRNOTALLOWED') {
      throw new GatewayError('invalid_request', 'the upstream image address resolves to a private or reserved address, which is not allowed');
    }
    throw new GatewayError('upstream_error', `the upstream image could not be fetched (${code ?? 'error'})`, { retryable: true, cause: error });
  });
  const type = String(response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new GatewayError('upstream_error', `the upstream image answered HTTP ${response.statusCode}`, { retryable: true });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      response.body.destroy();
      throw new GatewayError('upstream_error', `the upstream image is larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  const bytes = Buffer.concat(chunks);
  return { bytes, contentType: type.startsWith('image/') ? type : sniffType(bytes) };
}

function sniffType(bytes: Buffer): string {
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x89504e47) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (bytes.length >= 4 && bytes.toString('latin1', 0, 4) === 'GIF8') return 'image/gif';
  return 'application/octet-stream';
}
