/**
 * A tiny loopback HTTP server standing in for an upstream provider. Each
 * request is recorded and answered by a handler: a status and a body, an SSE
 * body written piece by piece, a delay before the headers, or a connection
 * destroyed half way through the body.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/messages`. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  json<T = Record<string, unknown>>(): T;
  /** Resolves when the exchange's connection closes (the gateway ended it, or the answer was sent). */
  closed: Promise<void>;
}

/** An event stream that sends `chunks`, then stays silent until the gateway hangs up (a client gone, shutdown, an idle timeout). */
export function silentAfter(request: RecordedRequest, chunks: Array<string | Buffer>): FakeReply {
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    source: async function* () {
      yield* chunks;
      await request.closed;
    },
  };
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  /** The whole body, written at once. */
  body?: string | Buffer;
  /** The body written piece by piece (one write each), e.g. SSE events. */
  chunks?: Array<string | Buffer>;
  /** Wait before sending the status line and headers. */
  headersDelayMs?: number;
  /** Wait between two pieces of `chunks`. */
  chunkDelayMs?: number;
  /** Destroy the socket after writing this many pieces of `chunks`. */
  cutAfterChunks?: number;
  /** The body made piece by piece while it is written, with back-pressure; writing stops when the peer goes away. */
  source?: () => AsyncIterable<string | Buffer>;
}

export type FakeHandler = (request: RecordedRequest) => FakeReply | Promise<FakeReply>;

export interface FakeUpstream {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  origin: string;
  requests: RecordedRequest[];
  /** TCP connections accepted so far (to check keep-alive reuse). */
  readonly connections: number;
  /** Replaces the handler for the following requests. */
  reply(handler: FakeHandler | FakeReply): void;
  close(): Promise<void>;
}

export async function startFakeUpstream(initial: FakeHandler | FakeReply = { status: 404 }): Promise<FakeUpstream> {
  let handler = toHandler(initial);
  const requests: RecordedRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    const body = Buffer.concat(parts);
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      body,
      json: <T>() => JSON.parse(body.toString('utf8')) as T,
      closed: new Promise<void>((resolve) => res.once('close', () => resolve())),
    };
    requests.push(recorded);
    try {
      await send(await handler(recorded), res);
    } catch {
      res.destroy();
    }
  });
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    get connections() {
      return connections;
    },
    reply(next) {
      handler = toHandler(next);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function toHandler(value: FakeHandler | FakeReply): FakeHandler {
  return typeof value === 'function' ? value : () => value;
}

async function send(reply: FakeReply, res: import('node:http').ServerResponse): Promise<void> {
  if (reply.headersDelayMs) await sleep(reply.headersDelayMs);
  if (res.destroyed) return;
  const headers = { ...reply.headers };
  if (reply.chunks && !headers['content-type']) headers['content-type'] = 'text/event-stream';
  if (reply.body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  res.writeHead(reply.status ?? 200, headers);
  if (reply.source) return pour(reply.source(), res);
  if (!reply.chunks) {
    res.end(reply.body);
    return;
  }
  res.flushHeaders();
  for (let i = 0; i < reply.chunks.length; i++) {
    if (reply.cutAfterChunks !== undefined && i >= reply.cutAfterChunks) {
      res.socket?.destroy();
      return;
    }
    if (i > 0 && reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
    // Waiting for each write to flush makes a later cut land exactly after it.
    await new Promise<void>((resolve) => res.write(reply.chunks![i], () => resolve()));
  }
  if (reply.cutAfterChunks !== undefined && reply.cutAfterChunks <= reply.chunks.length) {
    res.socket?.destroy();
    return;
  }
  res.end();
}

/** Writes a generated body as fast as the peer reads it, and leaves the generator as soon as the peer is gone. */
async function pour(source: AsyncIterable<string | Buffer>, res: import('node:http').ServerResponse): Promise<void> {
  res.flushHeaders();
  for await (const piece of source) {
    if (res.destroyed) break;
    if (!res.write(piece)) await drainedOrClosed(res);
    if (res.destroyed) break;
  }
  if (!res.destroyed) res.end();
}

/** One wait, its listeners removed after (a race of two `once` would leave one behind per wait). */
function drainedOrClosed(res: import('node:http').ServerResponse): Promise<void> {
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
