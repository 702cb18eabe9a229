/**
 * The stream writer sends its headers with the first chunk when that chunk
 * follows at once, and on its own when the first chunk is slow: a client
 * waiting for a slow first token still sees the response start. The first
 * chunk leaves at once; after it, the chunks of one turn of the event loop
 * leave as one write, in order (the last turn's with the end), and a slow
 * reader still gets every byte.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamWriter } from '../../src/pipeline/response-writer.js';

let server: http.Server | undefined;
afterEach(() => server?.close());

function serve(firstChunkAfterMs: number): Promise<{ headersMs: number; bodyMs: number; body: string; type: string | undefined }> {
  server = http.createServer((_request, response) => {
    const writer = new StreamWriter(response, () => ({ 'x-note': 'kept' }));
    writer.start(200, 'text/event-stream');
    const send = () => void writer.write('data: one\n\n').then(() => writer.end());
    if (firstChunkAfterMs === 0) send();
    else setTimeout(send, firstChunkAfterMs);
  });
  return new Promise((resolve) => {
    server!.listen(0, '127.0.0.1', () => {
      const started = Date.now();
      http.get(`http://127.0.0.1:${(server!.address() as AddressInfo).port}/`, (response) => {
        const headersMs = Date.now() - started;
        let body = '';
        let bodyMs = 0;
        response.on('data', (chunk) => {
          bodyMs ||= Date.now() - started;
          body += chunk;
        });
        response.on('end', () => resolve({ headersMs, bodyMs, body, type: response.headers['content-type'] }));
        expect(response.headers['x-note']).toBe('kept');
      });
    });
  });
}

describe('stream writer', () => {
  it('sends the headers ahead of a slow first chunk', async () => {
    const seen = await serve(400);
    expect(seen.headersMs).toBeLessThan(300);
    expect(seen.bodyMs).toBeGreaterThanOrEqual(350);
    expect(seen.body).toBe('data: one\n\n');
    expect(seen.type).toBe('text/event-stream');
  });

  it('delivers an immediate first chunk with the headers', async () => {
    const seen = await serve(0);
    expect(seen.body).toBe('data: one\n\n');
    expect(seen.type).toBe('text/event-stream');
  });
});

/** Serves one stream written by `produce`; answers the body as received and how many writes (and ends) reached the response. */
function serveWith(produce: (writer: StreamWriter) => Promise<void>, readSlowly = false): Promise<{ body: Buffer; writes: number }> {
  let writes = 0;
  server = http.createServer((_request, response) => {
    const write = response.write.bind(response) as (...args: unknown[]) => boolean;
    response.write = ((...args: unknown[]) => {
      writes++;
      return write(...args);
    }) as typeof response.write;
    const end = response.end.bind(response) as (...args: unknown[]) => typeof response;
    response.end = ((...args: unknown[]) => {
      if (args.length > 0 && typeof args[0] !== 'function') writes++;
      return end(...args);
    }) as typeof response.end;
    const writer = new StreamWriter(response, () => ({}));
    writer.start(200, 'text/event-stream');
    void produce(writer).then(() => writer.end());
  });
  return new Promise((resolve) => {
    server!.listen(0, '127.0.0.1', () => {
      http.get(`http://127.0.0.1:${(server!.address() as AddressInfo).port}/`, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (readSlowly) {
            response.pause();
            setTimeout(() => response.resume(), 1);
          }
        });
        response.on('end', () => resolve({ body: Buffer.concat(chunks), writes }));
      });
    });
  });
}

describe('stream writer, several chunks a turn', () => {
  it('sends the first chunk at once, then the chunks of a turn as one write, and the last turn with the end', async () => {
    const seen = await serveWith(async (writer) => {
      await Promise.all([writer.write('data: 1\n\n'), writer.write('data: 2\n\n'), writer.write(Buffer.from('data: 3\n\n'))]);
      await new Promise((resolve) => setImmediate(resolve));
      await writer.write('data: 4\n\n');
      await writer.write('data: 5\n\n');
    });
    expect(seen.body.toString()).toBe('data: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4\n\ndata: 5\n\n');
    // 1 at once | 2+3 at the end of their turn | 4+5 with the end
    expect(seen.writes).toBe(3);
  });

  it('keeps every byte in order for a reader slower than the writer', async () => {
    const piece = (i: number) => Buffer.alloc(64 * 1024, 97 + (i % 26));
    const seen = await serveWith(async (writer) => {
      for (let i = 0; i < 64; i++) {
        if (i % 3 === 0) await writer.write(piece(i));
        else void writer.write(piece(i));
      }
    }, true);
    expect(seen.body.equals(Buffer.concat(Array.from({ length: 64 }, (_, i) => piece(i))))).toBe(true);
  });
});
