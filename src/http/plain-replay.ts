/**
 * An upgrade request that is no WebSocket handshake, served as the plain
 * request it also is. With an `upgrade` listener installed, Node hands every
 * request carrying `Upgrade` to it, the body unread: Java's HttpClient and
 * `curl --http2` send `Upgrade: h2c` on ordinary POSTs to http:// addresses,
 * which the gateway answers over HTTP/1.1 as it always did. The request's
 * head is written again without the upgrade, followed by the bytes already
 * read and then the socket's, into a stream handed to the server as a new
 * connection: its parser reads the request as any other.
 */
import type { IncomingMessage, Server } from 'node:http';
import { Duplex } from 'node:stream';
import type { Socket } from 'node:net';

/** Header names the replayed head leaves out: the upgrade offer itself. */
const UPGRADE_HEADERS = new Set(['upgrade', 'http2-settings']);

export function replayAsPlainRequest(server: Server, request: IncomingMessage, socket: Socket, head: Buffer): void {
  server.emit('connection', new SocketReplay(socket, Buffer.concat([plainHead(request), head])));
}

function plainHead(request: IncomingMessage): Buffer {
  const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`];
  const raw = request.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (UPGRADE_HEADERS.has(lower)) continue;
    if (lower === 'connection') {
      const tokens = raw[i + 1]!.split(',')
        .map((token) => token.trim())
        .filter((token) => token !== '' && !UPGRADE_HEADERS.has(token.toLowerCase()));
      if (tokens.length > 0) lines.push(`${name}: ${tokens.join(', ')}`);
      continue;
    }
    lines.push(`${name}: ${raw[i + 1]}`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/** The socket behind a stream that first yields `first`; the server reads the client's address and sets timeouts through it. */
class SocketReplay extends Duplex {
  constructor(
    private readonly socket: Socket,
    first: Buffer,
  ) {
    super();
    this.push(first);
    socket.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) socket.pause();
    });
    socket.once('end', () => this.push(null));
    socket.once('close', () => this.destroy());
    socket.on('error', (error) => this.destroy(error));
  }

  get remoteAddress(): string | undefined {
    return this.socket.remoteAddress;
  }

  get remotePort(): number | undefined {
    return this.socket.remotePort;
  }

  get remoteFamily(): string | undefined {
    return this.socket.remoteFamily;
  }

  get localAddress(): string | undefined {
    return this.socket.localAddress;
  }

  get localPort(): number | undefined {
    return this.socket.localPort;
  }

  setTimeout(ms: number, callback?: () => void): this {
    this.socket.setTimeout(ms);
    if (callback) this.socket.once('timeout', callback);
    this.socket.once('timeout', () => this.emit('timeout'));
    return this;
  }

  setNoDelay(noDelay?: boolean): this {
    this.socket.setNoDelay(noDelay);
    return this;
  }

  setKeepAlive(enable?: boolean, delay?: number): this {
    this.socket.setKeepAlive(enable, delay);
    return this;
  }

  override _read(): void {
    this.socket.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.socket.write(chunk, encoding, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.socket.end();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.socket.destroy();
    callback(error);
  }
}
