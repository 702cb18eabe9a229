/**
 * Task results named by an upstream (an image or video address) are fetched
 * through the outbound guard, because an upstream could name an internal
 * address, and bounded in size and time, so the gateway can keep and serve
 * them under its own URLs whatever the upstream's link lifetime.
 */
import { requestThrough } from '../core/undici.js';
import { GatewayError } from '../core/errors.js';
import type { TaskCall } from '../tasks/types.js';
import { readBodyLimited } from './http.js';

export interface DownloadOptions {
  maxBytes: number;
  /** What is fetched, for messages: `image`, `video`. */
  what: string;
  /** Longest silence while the body streams. */
  bodyTimeoutMs: number;
}

export async function downloadThroughGuard(address: string, call: TaskCall, options: DownloadOptions): Promise<{ bytes: Buffer; declaredType: string }> {
  const guard = call.outbound;
  if (!guard) throw new GatewayError('internal', `${options.what} download needs the outbound guard`);
  // Relative addresses are on the service itself.
  const url = guard.checkUrl(new URL(address, `${call.channel.baseUrl}/`).href, `the upstream ${options.what} address`);
  const response = await requestThrough(await guard.agent(), url, {
    method: 'GET',
    signal: call.signal,
    headersTimeout: call.timeoutMs,
    bodyTimeout: options.bodyTimeoutMs,
  }).catch((error: unknown) => {
    const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
    if (code === 'EADDRNOTALLOWED') {
      throw new GatewayError('invalid_request', `the upstream ${options.what} address resolves to a private or reserved address, which is not allowed`);
    }
    throw new GatewayError('upstream_error', `the upstream ${options.what} could not be fetched (${code ?? 'error'})`, {
      retryable: true,
      cause: error,
    });
  });
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new GatewayError('upstream_error', `the upstream ${options.what} answered HTTP ${response.statusCode}`, { retryable: true });
  }
  const declaredType = String(response.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  const bytes = await readBodyLimited(response.body, options.maxBytes, `the upstream ${options.what}`, call.signal);
  return { bytes, declaredType };
}
