/**
 * One Responses WebSocket, from the handshake to its close: each
 * `response.create` message is one turn through the same path as
 * `POST /v1/responses` (key checked again per turn, limits, quota, routing,
 * billing, request log), answered by the stream's events as text messages.
 * A socket serves one turn at a time, as OpenAI's does: messages that arrive
 * while a turn runs wait for it, in order. The server pings every 30 s (agents
 * and proxies keep the socket open through long tool runs; a peer that stops
 * answering pings is cut), and closes a socket that waits longer than the idle
 * setting for its next turn.
 */
import type { WebSocket } from 'ws';
import { asGatewayError } from '../../http/fastify-errors.js';
import type { AppContext } from '../../http/context.js';
import { GatewayError, exposedError } from '../../core/errors.js';
import { randomHex } from '../../core/random.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../../core/json-depth.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import type { ResponseRepository } from '../../storage/responses.js';
import type { CallOrigin } from '../../pipeline/call-basics.js';
import { serveCreate } from './create.js';
import { SocketOutput } from './socket-output.js';
import { warmUp } from './warm-up.js';

export const PING_INTERVAL_MS = 30_000;
/** Turns a client may send ahead of the one running; more is a client that does not wait for answers. */
const MAX_WAITING_TURNS = 16;
const NORMAL_CLOSE = 1000;
const GOING_AWAY = 1001;

export interface SessionOptions {
  ctx: AppContext;
  /** The connection's view of stored responses (its `store: false` turns kept in memory). */
  repository: ResponseRepository;
  /** The client key as the handshake carried it; checked again on every turn (a revoked key stops the socket's turns). */
  secret: string;
  clientIp: string;
  headers: Record<string, string | string[] | undefined>;
  idleMs: number;
}

export class ResponsesSocketSession {
  private readonly waiting: unknown[] = [];
  private running: Promise<void> | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly pingTimer: NodeJS.Timeout;
  private missedPongs = 0;
  private closing = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly options: SessionOptions,
  ) {
    socket.on('message', (data, isBinary) => this.received(data, isBinary));
    socket.on('pong', () => (this.missedPongs = 0));
    socket.on('error', () => socket.terminate());
    socket.on('close', () => this.stopTimers());
    this.pingTimer = setInterval(() => this.ping(), PING_INTERVAL_MS);
    this.pingTimer.unref();
    this.armIdle();
  }

  /** Closes the socket once its running turn (if any) ended; turns sent after this are not started. */
  async shutDown(): Promise<void> {
    this.closing = true;
    this.waiting.length = 0;
    await this.running;
    this.socket.close(GOING_AWAY, 'the gateway is shutting down');
  }

  private received(data: Buffer | Buffer[] | ArrayBuffer, isBinary: boolean): void {
    if (isBinary) return this.refuse('messages on this socket are JSON text; a binary message was sent');
    let message: unknown;
    try {
      message = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8'));
    } catch {
      return this.refuse('the message is not valid JSON');
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return this.refuse('the message must be a JSON object');
    // The bound an HTTP body gets (server/app.ts): what walks the request recurses over it.
    if (exceedsJsonDepth(message)) return this.refuse(`the message nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`);
    const type = (message as { type?: unknown }).type;
    if (type !== 'response.create') return this.refuse(`unsupported message type ${JSON.stringify(type ?? null)}; this socket takes "response.create"`, 'type');
    if (this.closing) return;
    if (this.waiting.length >= MAX_WAITING_TURNS)
      return this.refuse(`more than ${MAX_WAITING_TURNS} turns are waiting on this socket; send the next response.create after the answer's terminal event`);
    this.waiting.push(message);
    if (!this.running) this.running = this.drain();
  }

  private async drain(): Promise<void> {
    this.disarmIdle();
    while (this.waiting.length > 0 && this.socket.readyState === 1) await this.serve(this.waiting.shift() as Record<string, unknown>);
    this.running = undefined;
    if (!this.closing) this.armIdle();
  }

  private async serve(message: Record<string, unknown>): Promise<void> {
    const { ctx } = this.options;
    const startedAt = Date.now();
    const requestId = `req_${randomHex(12)}`;
    const output = new SocketOutput(this.socket);
    try {
      const { type: _type, generate, ...fields } = message;
      if (fields.background === true) throw new GatewayError('invalid_request', 'background is not supported on a WebSocket: send the request as POST /v1/responses');
      // Every answer on a socket is a stream of events.
      const body = { ...fields, stream: true };
      const authenticated = ctx.auth.authenticate(this.options.secret, this.options.clientIp);
      const key = authenticated instanceof Promise ? await authenticated : authenticated;
      if (generate === false) return await warmUp(ctx, this.options.repository, key, body, output, requestId);
      const origin: CallOrigin = { id: requestId, ip: this.options.clientIp, headers: this.options.headers };
      await serveCreate(ctx, this.options.repository, origin, key, body, Buffer.from(JSON.stringify(body)), output, startedAt, true);
    } catch (error) {
      const gatewayError = asGatewayError(error);
      if (gatewayError.kind === 'internal') ctx.logger.error({ err: error, requestId }, 'unhandled error on a Responses WebSocket');
      if (!output.finished) output.sendError(renderOpenAIError(exposedError(gatewayError, requestId)));
    } finally {
      this.logTurn(requestId, startedAt, output.status);
    }
  }

  /** The turn's access-log line, as an HTTP request gets one (the handshake has its own, written when the socket closes). */
  private logTurn(requestId: string, startedAt: number, status: number): void {
    const { ctx } = this.options;
    if (!ctx.accessNotes.enabled) return;
    const note = ctx.accessNotes.take(requestId);
    if (!ctx.accessNotes.logged) return;
    ctx.logger.info(
      {
        method: 'WS',
        path: '/v1/responses',
        status,
        durationMs: Date.now() - startedAt,
        requestId,
        clientIp: this.options.clientIp,
        ...(note && { key: note.key, model: note.model, channel: note.channel, attempts: note.attempts }),
      },
      'access',
    );
  }

  private refuse(message: string, param?: string): void {
    const error = new GatewayError('invalid_request', message);
    const rendered = renderOpenAIError(error);
    const body = rendered.body as { error: Record<string, unknown> };
    if (param) body.error.param = param;
    if (this.socket.readyState === 1) this.socket.send(JSON.stringify({ type: 'error', status: rendered.status, error: body.error }));
  }

  private ping(): void {
    // A socket already closing is past pinging (`ws` throws on a ping then).
    if (this.socket.readyState !== 1) return;
    if (this.missedPongs >= 2) return this.socket.terminate();
    this.missedPongs++;
    this.socket.ping();
  }

  private armIdle(): void {
    this.disarmIdle();
    this.idleTimer = setTimeout(() => this.socket.close(NORMAL_CLOSE, 'idle timeout: no response.create within the idle period'), this.options.idleMs);
    this.idleTimer.unref();
  }

  private disarmIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private stopTimers(): void {
    this.disarmIdle();
    clearInterval(this.pingTimer);
  }
}
