/**
 * Runs one upstream call with failover: on a connect error, timeout, 429 or
 * 5xx (anything the adapter marks retryable), before any byte has reached the
 * client, the next candidate channel is tried, up to a bounded number of
 * attempts. A 400 is never retried. Credentials refused by the upstream put
 * the channel in a cool-down.
 */
import { GatewayError } from '../core/errors.js';
import type { Channel } from '../upstreams/types.js';
import type { ChannelHealth } from './health.js';
import { upstreamModelFor } from './select.js';

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
  const errors: GatewayError[] = [];
  const limit = Math.min(options.maxAttempts, candidates.length);
  for (let index = 0; index < limit; index++) {
    if (options.signal?.aborted) break;
    const channel = candidates[index];
    const target: AttemptTarget = {
      channel,
      upstreamModel: upstreamModelFor(channel, options.model),
      apiKey: options.health.nextKey(channel),
    };
    options.tried.push(channel.name);
    try {
      return { value: await attempt(target), target };
    } catch (error) {
      if (!(error instanceof GatewayError) || !error.retryable) throw error;
      if (error.upstreamStatus === 401 || error.upstreamStatus === 403) options.health.coolDown(channel);
      errors.push(error);
    }
  }
  throw exhausted(errors, options.model);
}

/** The error a client sees when every attempt failed. */
function exhausted(errors: GatewayError[], model: string): GatewayError {
  const last = errors[errors.length - 1];
  if (!last) return new GatewayError('unavailable', `request for model "${model}" was cancelled`);
  if (errors.length > 1 && errors.every((error) => CAPACITY_KINDS.has(error.kind))) {
    return new GatewayError('overloaded', `every upstream serving "${model}" is overloaded: ${last.message}`, {
      status: 529,
      retryAfterSeconds: last.retryAfterSeconds,
    });
  }
  return last;
}
