/**
 * Manners after a 413. The framework refuses an oversized body as soon as it
 * is declared (or once the limit is passed) and would close the connection
 * while the client is still sending: the client then sees EPIPE or a reset
 * instead of the 413, and SDKs upload the whole body again. Instead the rest
 * of the body is read and thrown away, up to a bound, so the client can
 * finish sending and read the answer; past the bound the connection is cut.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Of an oversized body, at most this many times the body limit is read and discarded (see README, "Limits"). */
export const DRAIN_FACTOR = 2;

export function drainOversizedBody(request: FastifyRequest, reply: FastifyReply, bodyLimit: number): void {
  const raw = request.raw;
  if (raw.complete || raw.destroyed) return;
  const bound = DRAIN_FACTOR * bodyLimit;
  // Keep the connection once the body is drained; the parser is then at the next request.
  reply.removeHeader('connection');
  let discarded = 0;
  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > bound) {
      raw.removeListener('data', onData);
      raw.socket?.destroy();
    }
  };
  raw.on('data', onData);
  raw.resume();
}
