/**
 * After a 413 the gateway reads and discards the rest of the body (up to
 * DRAIN_FACTOR times the body limit) before it lets go of the connection, so
 * a client still sending sees the 413 instead of EPIPE or a reset. A raw
 * socket client sends large bodies slowly and reads what comes back.
 */
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAIN_FACTOR } from '../../src/server/oversized-body.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const LIMIT = 1024 * 1024;
let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ settings: { maxBodyBytes: LIMIT } });
});
afterAll(async () => {
  await gw?.close();
});

interface Exchange {
  socket: net.Socket;
  answer: () => string;
  writeError: () => Error | undefined;
  closed: Promise<void>;
}

function connect(): Promise<Exchange> {
  const { hostname, port } = new URL(gw.url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => resolve({ socket, answer: () => answer, writeError: () => error, closed }));
    let answer = '';
    let error: Error | undefined;
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('error', (e) => (error = e));
  });
}

/** Writes `total` bytes in 64 KiB pieces with a pause between them, as a slow client would; stops if the socket goes. */
async function sendSlowly(exchange: Exchange, total: number, chunked = false): Promise<number> {
  const piece = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  while (sent < total && !exchange.socket.destroyed && !exchange.writeError()) {
    const size = Math.min(piece.length, total - sent);
    const bytes = piece.subarray(0, size);
    const ok = chunked ? exchange.socket.write(`${size.toString(16)}\r\n${bytes.toString('latin1')}\r\n`, 'latin1') : exchange.socket.write(bytes);
    sent += size;
    if (!ok)
      await new Promise((resume) => {
        exchange.socket.once('drain', resume);
        exchange.socket.once('close', resume);
      });
    await sleep(2);
  }
  return sent;
}

const head = (length: number | 'chunked') =>
  `POST /v1/messages HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n` + (length === 'chunked' ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${length}\r\n`) + '\r\n';

describe('a body over the limit', () => {
  it('declared and within the drain bound: the client sends it all without an error, reads the 413 and keeps the connection', async () => {
    const exchange = await connect();
    const total = Math.floor(LIMIT * 1.5);
    exchange.socket.write(head(total));
    expect(await sendSlowly(exchange, total)).toBe(total);
    expect(exchange.writeError()).toBeUndefined();
    await expect.poll(() => exchange.answer()).toMatch(/"request body is too large"/);
    expect(exchange.answer()).toMatch(/^HTTP\/1\.1 413 /);
    expect(exchange.answer()).toMatch(/x-request-id: req_/);
    // The connection is still good for the next request.
    const before = exchange.answer().length;
    exchange.socket.write('GET /healthz HTTP/1.1\r\nHost: gateway\r\n\r\n');
    await expect.poll(() => exchange.answer().slice(before)).toMatch(/^HTTP\/1\.1 200 /);
    exchange.socket.destroy();
  });

  it(`declared larger than ${DRAIN_FACTOR}x the limit: the 413 arrives before the connection is cut`, async () => {
    const exchange = await connect();
    const total = 8 * LIMIT;
    exchange.socket.write(head(total));
    const sent = await sendSlowly(exchange, total);
    await exchange.closed;
    expect(exchange.answer()).toMatch(/^HTTP\/1\.1 413 /);
    // It read about the bound before cutting, not the whole body and not nothing.
    expect(sent).toBeGreaterThan(DRAIN_FACTOR * LIMIT);
    expect(sent).toBeLessThan(total);
  });

  it('sent chunked with no declared length: the 413 is read once the limit is passed', async () => {
    const exchange = await connect();
    exchange.socket.write(head('chunked'));
    const sent = await sendSlowly(exchange, Math.floor(LIMIT * 1.5), true);
    exchange.socket.write('0\r\n\r\n');
    expect(exchange.writeError()).toBeUndefined();
    expect(sent).toBe(Math.floor(LIMIT * 1.5));
    await expect.poll(() => exchange.answer()).toMatch(/^HTTP\/1\.1 413 [\s\S]*request body is too large/);
    exchange.socket.destroy();
  });
});

it('a body within the limit is still served', async () => {
  const response = await fetch(`${gw.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': gw.clientKey, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(response.status).toBe(200);
});
