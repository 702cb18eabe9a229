/**
 * Where a request path writes its answer, narrowed to what it does: set a
 * header, send one body, send a family's rendered error, or (chat only)
 * stream chunks with back-pressure; and notice when the client went away.
 * `fastifyOutput` is the real one; tests hand the paths a recording one.
 */
import type { FastifyReply } from 'fastify';
import { StreamWriter } from './response-writer.js';
import type { RenderedError } from './types.js';

/** A streamed answer: headers once, then chunks; `write` resolves false once the client is gone. */
export interface StreamSink {
  readonly hasStarted: boolean;
  /** When the first chunk went out (time to first byte in the request log). */
  readonly firstByteAt?: number;
  start(status: number, contentType: string): void;
  write(chunk: string | Uint8Array): Promise<boolean>;
  /** A frame the client ignores, written while the answer's first piece is awaited; it is not the answer's first byte. */
  keepAlive?(frame: string): void;
  end(): void;
}

/** Where any request path writes a plain answer or an error (embeddings, token counts, chat). */
export interface RequestOutput {
  /** Calls `onGone` once if the client disconnects before the answer ended. */
  watchClient(onGone: () => void): void;
  /** The client connection is gone: nothing more can be sent. */
  readonly gone: boolean;
  header(name: string, value: string): void;
  send(status: number, contentType: string, body: string | Buffer): void;
  sendError(rendered: RenderedError): void;
}

/** A chat answer may also be streamed. */
export interface ChatOutput extends RequestOutput {
  readonly stream: StreamSink;
}

/** One object per request, its methods on the prototype: no closures made per request. */
class FastifyOutput extends StreamWriter implements ChatOutput, StreamSink {
  constructor(private readonly reply: FastifyReply) {
    super(reply.raw, () => reply.getHeaders());
  }

  get stream(): StreamSink {
    return this;
  }

  override start(status: number, contentType: string): void {
    // From here on the pipeline writes to the socket itself.
    this.reply.hijack();
    super.start(status, contentType);
  }

  watchClient(onGone: () => void): void {
    const raw = this.reply.raw;
    raw.once('close', () => {
      if (!raw.writableEnded) onGone();
    });
  }

  get gone(): boolean {
    return this.reply.raw.destroyed;
  }

  header(name: string, value: string): void {
    this.reply.header(name, value);
  }

  send(status: number, contentType: string, body: string | Buffer): void {
    this.reply.code(status).type(contentType).send(body);
  }

  sendError(rendered: RenderedError): void {
    if (rendered.headers) this.reply.headers(rendered.headers);
    this.reply.code(rendered.status).type('application/json').send(JSON.stringify(rendered.body));
  }
}

export function fastifyOutput(reply: FastifyReply): ChatOutput {
  return new FastifyOutput(reply);
}
