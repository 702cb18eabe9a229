/**
 * The end of a shutdown's grace period: chat calls still running are ended by
 * the gateway (a stream gets its family's error frame, the upstream call is
 * aborted, the request settled for what was delivered, the path of a stream
 * whose upstream fails), and a moment later whatever still holds a connection
 * (a client that stopped reading, a request that is not a chat call) is cut.
 */
import type { Server } from 'node:http';
import { GatewayError } from '../core/errors.js';
import type { InFlightCalls } from '../core/in-flight.js';

/** Long enough for the error frames to leave and the calls to settle; a connection still open after it is cut. */
export const FINAL_FRAMES_MS = 2_000;

export function shuttingDown(): GatewayError {
  return new GatewayError('unavailable', 'the gateway is shutting down; the answer was cut short, retry it', { retryable: false });
}

/** Arms the grace period's end; the function returned disarms it (everything finished in time). */
export function endAtGraceDeadline(server: Server, inFlight: InFlightCalls, graceMs: number): () => void {
  let cut: NodeJS.Timeout | undefined;
  const deadline = setTimeout(() => {
    inFlight.endAll(shuttingDown());
    cut = setTimeout(() => server.closeAllConnections(), FINAL_FRAMES_MS);
    cut.unref();
  }, graceMs);
  deadline.unref();
  return () => {
    clearTimeout(deadline);
    clearTimeout(cut);
  };
}
