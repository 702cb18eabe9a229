/**
 * Keep-alive frames while a streamed answer's first piece is awaited (a slow
 * first token, a long prompt being read, failover to the next channel):
 * proxies and clients that end a connection idle for a minute or so keep it.
 * Nothing is sent before the first interval has passed, so a prompt answer
 * keeps everything the pipeline can do before its first byte: the status of
 * an error answer, the translation header. After the first frame the status
 * (200) and headers are sent; failover still goes on unseen, since no piece
 * of any answer was written, but a request that fails in the end gets the
 * family's error event instead of an error status.
 */
import type { StreamSink } from './chat-output.js';

export interface WaitPings {
  /** Stops the frames; called once the first piece is in hand or the request failed. */
  stop(): void;
}

const NO_PINGS: WaitPings = { stop() {} };

export function startWaitPings(writer: StreamSink, frame: string | undefined, contentType: string, intervalMs: number): WaitPings {
  if (!frame || intervalMs <= 0 || !writer.keepAlive) return NO_PINGS;
  const timer = setInterval(() => {
    if (!writer.hasStarted) writer.start(200, contentType);
    writer.keepAlive!(frame);
  }, intervalMs);
  // A wait never keeps the process alive on its own.
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
