/**
 * Runs one upstream call with failover: on a connect error, timeout, 429 or
 * 5xx (anything the adapter marks retryable), before any byte has reached the
 * client, the next candidate channel is tried, up to a bounded number of
 * attempts. A 400 is never retried. Anything else an attempt throws (a request
 * that could not be built from the channel) is that channel's failure too.
 * Each outcome feeds the channel's circuit breaker (routing/health.ts).
 */
import type { CallSignal } from '../core/call-signal.js';
import { credentialsRefused, GatewayError, isCredentialRefusal } from '../core/errors.js';
import { unservedModelMessage } from '../core/model-name.js';
import type { Channel } from '../core/channel.js';
import type { ChannelHealth } from './health.js';
import { upstreamModelFor } from '../core/channel.js';
import { endedAttempt, type Attempt } from '../core/attempt.js';

export interface AttemptTarget {
  channel: Channel;
  upstreamModel: string;
  apiKey: string;
}

export interface FailoverResult<T> {
  value: T;
  target: AttemptTarget;
}

export interface FailoverOptions {
  model: string;
  maxAttempts: number;
  health: ChannelHealth;
  /** Filled with every attempt, in order, with its outcome and timing (the request log's detail). */
  attempts: Attempt[];
  signal?: CallSignal;
  /** Told about an attempt that threw something other than a gateway error (see `tryInOrder`). */
  onUnexpected?: (channel: Channel, error: unknown) => void;
  /** The upstream key to use on a channel (a session's pinned key), else undefined for the usual rotation. */
  keyFor?: (channel: Channel) => string | undefined;
}

const CAPACITY_KINDS = new Set(['rate_limited', 'overloaded', 'unavailable']);

export async function withFailover<T>(candidates: readonly Channel[], options: FailoverOptions, attempt: (target: AttemptTarget) => Promise<T>): Promise<FailoverResult<T>> {
  if (candidates.length === 0) {
    throw new GatewayError('not_found', unservedModelMessage(options.model), { param: 'model' });
  }
  // Attempts run one after another: the last target built is the one that answered.
  let target: AttemptTarget | undefined;
  const keyOf = () => target?.apiKey;
  const ordered: OrderedAttemptOptions = {
    maxAttempts: options.maxAttempts,
    health: options.health,
    attempts: options.attempts,
    signal: options.signal,
    label: `"${options.model}"`,
    keyOf,
    onUnexpected: options.onUnexpected,
  };
  const { value } = await tryInOrder(
    candidates,
    (channel) => channel,
    ordered,
    (channel) => {
      const apiKey = options.keyFor?.(channel) ?? options.health.nextKey(channel);
      target = { channel, upstreamModel: upstreamModelFor(channel, options.model), apiKey };
      return attempt(target);
    },
  );
  return { value, target: target! };
}

export interface OrderedAttemptOptions {
  maxAttempts: number;
  health: ChannelHealth;
  /** Filled with every attempt, in order, with its outcome and timing. */
  attempts: Attempt[];
  signal?: CallSignal;
  /** What is being served, for the message when every attempt failed. */
  label?: string;
  /** The upstream key the last attempt used, when known (per-key breakers). */
  keyOf?: () => string | undefined;
  /** Told about an attempt that threw something other than a gateway error, before the next item is tried. */
  onUnexpected?: (channel: Channel, error: unknown) => void;
}

/**
 * What an attempt that threw something unexpected (a request that could not
 * be built from the channel, say: `new URL` on a bad base URL) counts as: a
 * failure of that channel, tried elsewhere, whose text never reaches the client.
 */
function unexpectedFailure(error: unknown): GatewayError {
  return new GatewayError('upstream_error', 'the request to an upstream could not be made; the gateway log says why', { retryable: true, cause: error });
}

/**
 * The failover loop itself, for anything tried on a channel (a chat call, a
 * task handed to a channel and one of its accounts): items in order, at most
 * `maxAttempts`; a retryable error moves on, any other is thrown at once.
 */
export async function tryInOrder<T, R>(items: readonly T[], channelOf: (item: T) => Channel, options: OrderedAttemptOptions, attempt: (item: T) => Promise<R>): Promise<{ value: R; item: T }> {
  const errors: GatewayError[] = [];
  const limit = Math.min(options.maxAttempts, items.length);
  for (let index = 0; index < limit; index++) {
    if (options.signal?.aborted) break;
    const item = items[index];
    const channel = channelOf(item);
    const startedAt = Date.now();
    let value: R;
    try {
      value = await attempt(item);
    } catch (thrown) {
      // An internal error is the gateway's own trouble with this channel (its settings, its adapter), not the upstream's answer.
      const error = thrown instanceof GatewayError && thrown.kind !== 'internal' ? thrown : unexpectedFailure(thrown);
      if (error !== thrown) options.onUnexpected?.(channel, thrown);
      // The attempt keeps what the upstream said (status and text, keys masked) for the operator.
      options.attempts.push(endedAttempt(channel, startedAt, error));
      // A refused credential is the operator's to fix: the client is told so, never the upstream's words.
      const failure = isCredentialRefusal(error) ? credentialsRefused(channel.type, error) : error;
      if (!failure.retryable) throw failure;
      options.health.failed(channel, error, options.keyOf?.());
      errors.push(failure);
      continue;
    }
    options.attempts.push(endedAttempt(channel, startedAt));
    options.health.succeeded(channel, options.keyOf?.());
    return { value, item };
  }
  throw exhausted(errors, options.label ?? 'the request');
}

/** The error a client sees when every attempt failed. */
function exhausted(errors: GatewayError[], label: string): GatewayError {
  const last = errors[errors.length - 1];
  if (!last) return new GatewayError('unavailable', `${label} was cancelled before any channel answered`);
  if (errors.length > 1 && errors.every((error) => CAPACITY_KINDS.has(error.kind))) {
    return new GatewayError('overloaded', `every upstream serving ${label} is overloaded: ${last.message}`, {
      status: 529,
      retryAfterSeconds: last.retryAfterSeconds,
    });
  }
  // Otherwise the last failure as it is: with an upstream's own answer kept, a client of its dialect gets it unchanged.
  return last;
}
