/**
 * Writes a streamed answer straight to the socket: headers once, then each
 * chunk as it is produced, honouring back-pressure, and noticing when the
 * client goes away so the upstream call can be cancelled.
 *
 * The stream's first chunk leaves at once, with the headers: the client's
 * first byte waits for nothing else. After it, the chunks written in one turn
 * of the event loop (the events of one upstream read, encoded one by one) are
 * joined and go out as one write when the turn ends; the turn that ends the
 * stream puts its chunks and the end into that one write. Each write of a
 * chunked response costs a chunk header, a pass through Node's HTTP layer and
 * a system call; a translated stream wrote a dozen of them per upstream read.
 */
import type { ServerResponse } from 'node:http';

type Chunk = string | Uint8Array;

export class StreamWriter {
  private started = false;
  /** Chunks written after this turn's first, joined at its end; undefined when no turn is open. */
  private held: Chunk[] | undefined;
  firstByteAt?: number;

  constructor(
    private readonly res: ServerResponse,
    /** Read when the stream starts, so headers set after routing (the translation note) go out too; a fresh object, extended here. */
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
    const headers = this.headers();
    headers['content-type'] = contentType;
    headers['cache-control'] = 'no-cache';
    this.res.writeHead(status, headers);
    // The headers leave with the first chunk when it follows at once (one write instead of two);
    // otherwise at the end of this turn of the event loop, so a client waiting for a slow first token sees them.
    setImmediate(flushHeadersUnlessWritten, this);
  }

  /** Sends the headers on their own if no chunk took them along. */
  flushHeadersIfIdle(): void {
    if (this.firstByteAt === undefined && !this.res.destroyed) this.res.flushHeaders();
  }

  /** A keep-alive frame before the answer's first chunk: sent at once (headers with it), skipped while the socket is full, not counted as the first byte. */
  keepAlive(frame: string): void {
    if (!this.writable || this.res.writableNeedDrain) return;
    this.res.write(frame);
  }

  async write(chunk: Chunk): Promise<boolean> {
    if (!this.writable) return false;
    if (this.held) {
      this.held.push(chunk);
      return true;
    }
    // A joined write that met back-pressure: the next turn's chunks wait for the socket to drain.
    if (this.res.writableNeedDrain) {
      await drainedOrClosed(this.res);
      if (!this.writable) return false;
    }
    if (this.firstByteAt === undefined) {
      this.firstByteAt = Date.now();
      this.res.write(chunk);
      // Node's HTTP layer corks the socket on a write until the next tick, which comes only after
      // this turn's other chunks were produced: without this the first byte waited for all of them.
      this.res.socket?.uncork();
      return true;
    }
    this.held = [chunk];
    process.nextTick(releaseHeld, this);
    return true;
  }

  /** Ends the stream; the chunks held this turn, and `chunk`, leave with the end in one write. */
  end(chunk?: string): void {
    const joined = this.takeHeld(chunk);
    if (!this.writable) return;
    if (joined !== undefined) this.firstByteAt ??= Date.now();
    this.res.end(joined);
  }

  /** Writes the chunks held this turn as one, and closes the turn (a turn opens only after the first chunk left). */
  release(): void {
    const joined = this.takeHeld();
    if (joined === undefined || !this.writable) return;
    this.res.write(joined);
  }

  private takeHeld(last?: string): Chunk | undefined {
    const held = this.held;
    this.held = undefined;
    // `last` goes after the held chunks.
    const chunks = last === undefined ? held : held ? [...held, last] : [last];
    if (!chunks || chunks.length === 0) return undefined;
    if (chunks.length === 1) return chunks[0]!;
    return chunks.every((piece) => typeof piece === 'string') ? chunks.join('') : Buffer.concat(chunks.map(asBytes));
  }
}

function releaseHeld(writer: StreamWriter): void {
  writer.release();
}

function flushHeadersUnlessWritten(writer: StreamWriter): void {
  writer.flushHeadersIfIdle();
}

function asBytes(chunk: Chunk): Uint8Array {
  return typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
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
