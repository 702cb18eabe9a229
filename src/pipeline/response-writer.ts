/**
 * Writes a streamed answer straight to the socket: headers once, then each
 * chunk as it is produced, honouring back-pressure, and noticing when the
 * client goes away so the upstream call can be cancelled.
 */
import type { ServerResponse } from 'node:http';

export class StreamWriter {
  private started = false;
  firstByteAt?: number;

  constructor(
    private readonly res: ServerResponse,
    /** Read when the stream starts, so headers set after routing (the translation note) go out too. */
    private readonly headers: () => Record<string, string | number | string[] | undefined>,
  ) {}

  get hasStarted(): boolean {
    return this.started;
  }

  /** False once the client disconnected (or the socket failed). */
  get writable(): boolean {
    return !this.res.destroyed && !this.res.writableEnded;
  }

  start(status: number, contentType: string): void {
    if (this.started) return;
    this.started = true;
    this.res.writeHead(status, { ...this.headers(), 'content-type': contentType, 'cache-control': 'no-cache' });
    // The headers leave with the first chunk when it follows at once (one write instead of two);
    // otherwise at the end of this turn of the event loop, so a client waiting for a slow first token sees them.
    setImmediate(() => {
      if (this.firstByteAt === undefined && !this.res.destroyed) this.res.flushHeaders();
    });
  }

  async write(chunk: string | Uint8Array): Promise<boolean> {
    if (!this.writable) return false;
    if (this.firstByteAt === undefined) this.firstByteAt = Date.now();
    if (!this.res.write(chunk)) await drainedOrClosed(this.res);
    return this.writable;
  }

  end(chunk?: string): void {
    if (this.writable) this.res.end(chunk);
  }
}

/**
 * Waits for the socket to drain or close, and removes both listeners after:
 * racing two `once` promises would leave the loser's listeners on the
 * response at every wait, growing without end over a long, slowly read stream.
 */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
