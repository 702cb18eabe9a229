/**
 * Where one turn on a Responses WebSocket writes its answer: the chat
 * pipeline's `ChatOutput`, with each server-sent event of the stream (the
 * gateway's own or, on pass-through, the upstream's bytes) sent as one text
 * message holding the event's JSON, in the order the SSE path writes them.
 * An answer refused before its stream began goes out as the `error` event
 * OpenAI sends on a socket: `{type: "error", status, error: {...}}`.
 */
import type { WebSocket } from 'ws';
import type { ChatOutput, StreamSink } from '../../pipeline/chat-output.js';
import type { RenderedError } from '../../pipeline/types.js';

/** Above this many unsent bytes, a write waits until the socket took its message: a slow reader slows the upstream read. */
const BACKPRESSURE_BYTES = 1 << 20;
const OPEN = 1;

export class SocketOutput implements ChatOutput, StreamSink {
  private started = false;
  private ended = false;
  /** The turn's outcome as an HTTP status (the access log's): 200, or the refusal's. */
  status = 200;
  /** The part of the last chunk after its last complete event. */
  private pending = '';
  private readonly decoder = new TextDecoder();
  firstByteAt?: number;

  constructor(private readonly socket: WebSocket) {}

  get stream(): StreamSink {
    return this;
  }

  get hasStarted(): boolean {
    return this.started;
  }

  get gone(): boolean {
    return this.socket.readyState !== OPEN;
  }

  /** Whether the turn's answer was written to its end (or refused). */
  get finished(): boolean {
    return this.ended;
  }

  watchClient(onGone: () => void): void {
    this.socket.once('close', () => {
      if (!this.ended) onGone();
    });
  }

  /** Headers belong to the handshake; a turn has none to set. */
  header(): void {}

  send(status: number, _contentType: string, body: string | Buffer): void {
    // Turns on a socket are always streamed; a whole answer still reaches the client as its terminal event.
    this.ended = true;
    const text = typeof body === 'string' ? body : body.toString('utf8');
    this.status = status;
    if (status >= 400) return this.sendMessage(JSON.stringify({ type: 'error', status, error: errorObject(text) }));
    this.sendMessage(JSON.stringify({ type: 'response.completed', response: JSON.parse(text) as unknown }));
  }

  sendError(rendered: RenderedError): void {
    this.ended = true;
    this.status = rendered.status;
    const body = rendered.body as { error?: unknown } | undefined;
    // The headers an HTTP answer would carry (retry-after), as OpenAI's socket errors carry them.
    const headers = rendered.headers && Object.keys(rendered.headers).length > 0 ? { headers: rendered.headers } : undefined;
    this.sendMessage(JSON.stringify({ type: 'error', status: rendered.status, error: body?.error ?? body, ...headers }));
  }

  start(): void {
    this.started = true;
  }

  async write(chunk: string | Uint8Array): Promise<boolean> {
    if (this.gone) return false;
    const text = this.pending + (typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true }));
    const frames = text.replace(/\r\n/g, '\n').split('\n\n');
    this.pending = frames.pop() ?? '';
    for (const frame of frames) this.sendFrame(frame);
    if (this.socket.bufferedAmount > BACKPRESSURE_BYTES) await this.taken();
    return !this.gone;
  }

  end(chunk?: string): void {
    if (chunk) void this.write(chunk);
    if (this.pending.trim() !== '') this.sendFrame(this.pending);
    this.pending = '';
    this.ended = true;
  }

  private sendFrame(frame: string): void {
    const data = eventData(frame);
    // `[DONE]` ends an SSE stream; a socket's turn ends with its terminal event.
    if (data === undefined || data === '[DONE]') return;
    this.firstByteAt ??= Date.now();
    this.sendMessage(data);
  }

  private sendMessage(text: string): void {
    if (!this.gone) this.socket.send(text, this.onSent);
  }

  /** Resolves once the unsent bytes fell below the bound again (or the socket closed). */
  private taken(): Promise<void> {
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  private waiter: (() => void) | undefined;

  /** Called by `ws` as each message leaves (or fails to, when the socket closed). */
  private readonly onSent = (): void => {
    const waiter = this.waiter;
    if (waiter && (this.gone || this.socket.bufferedAmount <= BACKPRESSURE_BYTES)) {
      this.waiter = undefined;
      waiter();
    }
  };
}

/** The data of one SSE event (its `data:` lines joined); undefined for a comment or an empty frame. */
function eventData(frame: string): string | undefined {
  let data: string | undefined;
  for (const line of frame.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const value = line.slice(line[5] === ' ' ? 6 : 5);
    data = data === undefined ? value : `${data}\n${value}`;
  }
  return data;
}

function errorObject(text: string): unknown {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    return parsed.error ?? parsed;
  } catch {
    return { type: 'server_error', message: text };
  }
}
