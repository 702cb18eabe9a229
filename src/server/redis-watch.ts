/**
 * Watches the gateway's Redis connection: one structured log line when Redis
 * goes away and one when it comes back (ioredis itself reports every failed
 * reconnection, several a second, and prints them unstructured when no
 * listener takes them), and the reason `/readyz` gives while it is away.
 * The subscribers (duplicates of the main client) have listeners of their
 * own, which leave connection failures to this watch (`isRedisUnreachable`).
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN']);

/** Whether an ioredis error means only that Redis cannot be reached (reported once, by the watch). */
export function isRedisUnreachable(error: unknown): boolean {
  const { code, name, message } = (error ?? {}) as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
  if (name === 'MaxRetriesPerRequestError') return true;
  return typeof message === 'string' && (message === 'Connection is closed.' || message.startsWith("Stream isn't writeable"));
}

export class RedisWatch {
  private awaySince: number | undefined;
  private stopped = false;

  constructor(
    private readonly client: Redis,
    private readonly logger: Logger,
  ) {
    client.on('error', (error: unknown) => this.onError(error));
    // A clean close (the server shut down) is followed by failed reconnections: it is the moment Redis went away.
    client.on('close', () => this.wentAway(undefined));
    client.on('ready', () => this.cameBack());
  }

  /** Why Redis cannot be used right now (for `/readyz`), or undefined while it answers. */
  unavailableReason(): string | undefined {
    if (this.client.status === 'ready') return undefined;
    if (this.awaySince === undefined) return `Redis is not connected yet (${this.client.status})`;
    return `Redis is unreachable since ${new Date(this.awaySince).toISOString()}`;
  }

  /** The gateway is closing its clients: their closing is not news. */
  stop(): void {
    this.stopped = true;
  }

  private onError(error: unknown): void {
    // Any failure while not connected (refused, timed out, a refused password) is Redis being away.
    if (isRedisUnreachable(error) || this.client.status !== 'ready') return this.wentAway(error);
    if (!this.stopped) this.logger.warn({ err: error }, 'Redis reported an error');
  }

  private wentAway(error: unknown): void {
    if (this.stopped || this.awaySince !== undefined) return;
    this.awaySince = Date.now();
    this.logger.error(
      { redis: 'unreachable', ...(error === undefined ? {} : { err: error }) },
      'Redis went away: rate limits and quota holds follow SWITCHYARD_REDIS_OUTAGE, breaker sharing and change notifications wait for it; /readyz answers 503 until it is back',
    );
  }

  private cameBack(): void {
    if (this.awaySince === undefined) return;
    const awayMs = Date.now() - this.awaySince;
    this.awaySince = undefined;
    if (!this.stopped) this.logger.info({ redis: 'ready', awayMs }, 'Redis came back');
  }
}
