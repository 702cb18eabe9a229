/** Abortable waits, used only when a channel asks for simulated latency. */
import type { CallSignal } from '../../core/call-signal.js';
import { GatewayError } from '../../core/errors.js';

export function abortedError(signal: CallSignal): GatewayError {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') return new GatewayError('timeout', 'simulated upstream call timed out', { retryable: true, cause: reason });
  return new GatewayError('upstream_error', 'simulated upstream call was aborted', { cause: reason });
}

export function throwIfAborted(signal: CallSignal): void {
  if (signal.aborted) throw abortedError(signal);
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
export function sleep(ms: number, signal: CallSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortedError(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Waits `ms` like an upstream that has not answered yet. A wait longer than
 * the call's header timeout fails the way a silent upstream would.
 */
export async function waitForUpstream(ms: number, timeoutMs: number, signal: CallSignal): Promise<void> {
  if (ms <= 0) return;
  if (timeoutMs > 0 && ms > timeoutMs) {
    await sleep(timeoutMs, signal);
    throw new GatewayError('timeout', `simulated upstream did not answer within ${timeoutMs} ms`, { retryable: true });
  }
  await sleep(ms, signal);
}
