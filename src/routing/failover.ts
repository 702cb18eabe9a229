/**
 * Runs one upstream call with failover: on a connect error, timeout, 429 or
 * 5xx (anything the adapter marks retryable), before any byte has reached the
 * client, the next candidate channel is tried, up to a bounded number of
 * attempts. A 400 is never retried. Credentials refused by the upstream put
 * the channel in a cool-down.
 */
import { GatewayError } from '../core/errors.js';
import type { Channel } from '../core/channel.js';
import type { ChannelHealth } from './health.js';
import { upstreamModelFor } from '../core/channel.js';

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
  /** Filled with the name of every channel tried, in order, for the request log. */
  tried: string[];
  signal?: AbortSignal;
}

const CAPACITY_KINDS = new Set(['rate_limited', 'overloaded', 'unavailable']);

export async function withFailover<T>(
  candidates: readonly Channel[],
  options: FailoverOptions,
  attempt: (target: AttemptTarget) => Promise<T>,
): Promise<FailoverResult<T>> {
  if (candidates.length === 0) {
    throw new GatewayError('not_found', `model "${options.model}" is not served by any channel`, { param: 'model' });
  }
  // Attempts run one after another: the last target built is the one that answered.
  let target: AttemptTarget | undefined;
  const { value } = await tryInOrder(candidates, (channel) => channel, { ...options, label: `"${options.model}"` }, (channel) => {
    target = { channel, upstreamModel: upstreamModelFor(channel, options.model), apiKey: options.health.nextKey(channel) };
    return attempt(target);
  });
  return { value, target: target! };
}

export interface OrderedAttemptOptions {
  maxAttempts: number;
  health: ChannelHealth;
  /** Filled with the name of every channel tried, in order. */
  tried: string[];
  signal?: AbortSignal;
  /** What is being served, for the message when every attempt failed. */
  label?: string;
}

/**
 * The failover loop itself, for anything tried on a channel (a chat call, a
 * task handed to a channel and one of its accounts): items in order, at most
 * `maxAttempts`; a retryable error moves on, any other is thrown at once.
 */
export async function tryInOrder<T, R>(
  items: readonly T[],
  channelOf: (item: T) => Channel,
  options: OrderedAttemptOptions,
  attempt: (item: T) => Promise<R>,
): Promise<{ value: R; item: T }> {
  const errors: GatewayError[] = [];
  const limit = Math.min(options.maxAttempts, items.length);
  for (let index = 0; index < limit; index++) {
    if (options.signal?.aborted) break;
    const item = items[index];
    const channel = channelOf(item);
    options.tried.push(channel.name);
    try {
      return { value: await attempt(item), item };
    } catch (error) {
      if (!(error instanceof GatewayError) || !error.retryable) throw error;
      if (error.upstreamStatus === 401 || error.upstreamStatus === 403) options.health.coolDown(channel);
      errors.push(error);
    }
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
  return last;
}
