/**
 * Where the chat pipeline writes its answer, narrowed to what it does: set a
 * header, send one body, send a family's rendered error, or stream chunks
 * with back-pressure; and notice when the client went away. `fastifyOutput`
 * is the real one; tests hand the pipeline a recording one.
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
  end(): void;
}

export interface ChatOutput {
  /** Calls `onGone` once if the client disconnects before the answer ended. */
  watchClient(onGone: () => void): void;
  /** The client connection is gone: nothing more can be sent. */
  readonly gone: boolean;
  header(name: string, value: string): void;
  send(status: number, contentType: string, body: string | Buffer): void;
  sendError(rendered: RenderedError): void;
  readonly stream: StreamSink;
}

export function fastifyOutput(reply: FastifyReply): ChatOutput {
  const writer = new StreamWriter(reply.raw, () => reply.getHeaders());
  const stream: StreamSink = {
    get hasStarted() {
      return writer.hasStarted;
    },
    get firstByteAt() {
      return writer.firstByteAt;
    },
    start(status, contentType) {
      // From here on the pipeline writes to the socket itself.
      reply.hijack();
      writer.start(status, contentType);
    },
    write: (chunk) => writer.write(chunk),
    end: () => writer.end(),
  };
  return {
    watchClient(onGone) {
      reply.raw.once('close', () => {
        if (!reply.raw.writableEnded) onGone();
      });
    },
    get gone() {
      return reply.raw.destroyed;
    },
    header(name, value) {
      reply.header(name, value);
    },
    send(status, contentType, body) {
      reply.code(status).type(contentType).send(body);
    },
    sendError(rendered) {
      if (rendered.headers) reply.headers(rendered.headers);
      reply.code(rendered.status).type('application/json').send(JSON.stringify(rendered.body));
    },
    stream,
  };
}
