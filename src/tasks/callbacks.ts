/**
 * Sends one callback: POST the task record as JSON to the hook, through the
 * outbound guard's agent (private addresses refused at connect time), with a
 * bounded wait and no redirects. Any 2xx counts as delivered.
 */
import { requestThrough } from '../core/undici.js';
import type { AttemptOutcome } from './deliveries.js';
import type { OutboundGuard } from './outbound-guard.js';

export interface CallbackOptions {
  timeoutMs: number;
}

export async function sendCallback(guard: OutboundGuard, url: string, payload: string, options: CallbackOptions): Promise<AttemptOutcome> {
  try {
    guard.checkUrl(url, 'notifyHook');
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await requestThrough(await guard.agent(), url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'switchyard-callbacks' },
      body: payload,
      signal,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    // The receiver's answer carries nothing we use; drain it so the connection is reused.
    await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    return ok ? { ok, httpStatus: response.statusCode } : { ok, httpStatus: response.statusCode, error: `HTTP ${response.statusCode}` };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = signal.aborted ? 'timed out' : code ? `${code}: ${(error as Error).message}` : (error as Error).message;
    return { ok: false, error: message.slice(0, 500) };
  }
}
