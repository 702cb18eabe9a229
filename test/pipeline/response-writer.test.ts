/**
 * The stream writer sends its headers with the first chunk when that chunk
 * follows at once, and on its own when the first chunk is slow: a client
 * waiting for a slow first token still sees the response start.
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
