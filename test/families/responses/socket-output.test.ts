/**
 * A turn's events on a WebSocket: each SSE event the pipeline writes (split
 * across chunks or several in one, LF or CRLF, the gateway's or an upstream's
 * bytes) becomes one text message holding its JSON; comments and `[DONE]`
 * send nothing; a refusal is OpenAI's socket `error` event.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { SocketOutput } from '../../../src/families/responses/socket-output.js';

function fakeSocket(): { socket: WebSocket; sent: string[] } {
  const sent: string[] = [];
  const socket = Object.assign(new EventEmitter(), {
    readyState: 1,
    bufferedAmount: 0,
    send(text: string, callback?: () => void) {
      sent.push(text);
      callback?.();
    },
  });
  return { socket: socket as unknown as WebSocket, sent };
}

describe('SocketOutput', () => {
  it('sends one message per event, however the stream was cut into chunks', async () => {
    const { socket, sent } = fakeSocket();
    const output = new SocketOutput(socket);
    output.stream.start(200, 'text/event-stream');
    await output.stream.write('event: response.created\ndata: {"type":"response.created"}\n\nevent: a\nda');
    await output.stream.write(new TextEncoder().encode('ta: {"type":"a","text":"é"}\r\n\r\n: keep-alive\n\n'));
    await output.stream.write('data: {"type":"b",\ndata: "x":1}\n\ndata: [DONE]\n\n');
    output.end('event: response.completed\ndata: {"type":"response.completed"}\n\n');
    expect(sent).toEqual(['{"type":"response.created"}', '{"type":"a","text":"é"}', '{"type":"b",\n"x":1}', '{"type":"response.completed"}']);
    expect(output.finished).toBe(true);
    expect(output.stream.firstByteAt).toBeTypeOf('number');
  });

  it('sends a refusal as an error event with its status and retry headers', () => {
    const { socket, sent } = fakeSocket();
    const output = new SocketOutput(socket);
    output.sendError({ status: 429, body: { error: { type: 'rate_limit_exceeded', message: 'slow down' } }, headers: { 'retry-after': '3' } });
    expect(JSON.parse(sent[0]!)).toEqual({ type: 'error', status: 429, error: { type: 'rate_limit_exceeded', message: 'slow down' }, headers: { 'retry-after': '3' } });
    expect(output.status).toBe(429);
  });

  it('reports the client gone once the socket is no longer open', async () => {
    const { socket, sent } = fakeSocket();
    const output = new SocketOutput(socket);
    let gone = 0;
    output.watchClient(() => gone++);
    (socket as unknown as { readyState: number }).readyState = 3;
    socket.emit('close', 1006, Buffer.alloc(0));
    expect(gone).toBe(1);
    expect(await output.stream.write('data: {}\n\n')).toBe(false);
    expect(sent).toEqual([]);
  });
});
