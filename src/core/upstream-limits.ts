/**
 * Size bounds on what an upstream sends back. An upstream is not trusted to
 * be small: a broken or hostile one could otherwise make the gateway buffer
 * without end. Reading stops at the bound, the upstream request is aborted
 * (its socket destroyed) and the attempt fails like any upstream failure.
 */
import { GatewayError } from './errors.js';

export interface UpstreamLimits {
  /** Largest non-streamed answer (a JSON body, a task upstream's answer), in bytes. */
  maxBodyBytes: number;
  /** Largest streamed answer, all events together, in bytes. */
  maxStreamBytes: number;
  /** Largest single server-sent event (or line), in characters (bytes for ASCII). */
  maxEventBytes: number;
}

const MiB = 1024 * 1024;

/** The terminal event of a Responses stream carries the whole answer, so an event may be as large as a body. */
export const DEFAULT_UPSTREAM_LIMITS: UpstreamLimits = {
  maxBodyBytes: 32 * MiB,
  maxStreamBytes: 256 * MiB,
  maxEventBytes: 32 * MiB,
};

/** The gateway's settings as the bounds adapters read. */
export function upstreamLimits(settings: { maxUpstreamBodyBytes: number; maxUpstreamStreamBytes: number; maxUpstreamEventBytes: number }): UpstreamLimits {
  return {
    maxBodyBytes: settings.maxUpstreamBodyBytes,
    maxStreamBytes: settings.maxUpstreamStreamBytes,
    maxEventBytes: settings.maxUpstreamEventBytes,
  };
}

/** The limits of a call, the defaults when the caller set none. */
export function limitsOf(holder: { limits?: UpstreamLimits } | undefined): UpstreamLimits {
  return holder?.limits ?? DEFAULT_UPSTREAM_LIMITS;
}

/** The failure a body over its bound is: retryable, so another channel can serve while nothing was sent. */
export function tooLarge(what: string, maxBytes: number): GatewayError {
  return new GatewayError('upstream_error', `${what} is larger than the gateway accepts (${maxBytes} bytes)`, { retryable: true });
}

/** A body the caller can stop reading: undici's body, or any stream with `destroy`. */
type Destroyable = AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => unknown };

/**
 * Yields a body's chunks while their total stays within `maxBytes`; beyond
 * it, the body is destroyed (which aborts the upstream request and closes its
 * socket) and `tooLarge` is thrown. Nothing past the bound is buffered.
 */
export async function* capBytes(body: Destroyable, maxBytes: number, what: string): AsyncGenerator<Uint8Array> {
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      body.destroy?.();
      throw tooLarge(what, maxBytes);
    }
    yield chunk;
  }
}
