/**
 * The two steps every request routed to a chat upstream shares, generation,
 * embeddings and counting alike: the channels that may serve a model, in the order to
 * try them, and the call an adapter gets for one attempt.
 */
import type { Logger } from 'pino';
import type { CallSignal } from '../core/call-signal.js';
import type { AttemptTarget } from '../routing/failover.js';
import { orderCandidates } from '../routing/select.js';
import type { AppContext } from '../http/context.js';
import type { Channel } from '../core/channel.js';
import type { ImageOperation, UpstreamAdapter, UpstreamCall } from '../upstreams/types.js';
import { upstreamLimits } from '../core/upstream-limits.js';

/** The channels that may serve a model, in the order to try them; `accepts`, when given, keeps those whose adapter (on that channel) can do the work (embeddings, rerank). */
export function chatCandidates(ctx: AppContext, model: string, accepts?: (adapter: UpstreamAdapter, channel: Channel) => boolean): Channel[] {
  return orderCandidates(ctx.channels.serving(model), model, {
    isHealthy: ctx.health.isHealthy,
    accepts: accepts ? (channel) => ctx.adapters.has(channel.type) && accepts(ctx.adapters.get(channel.type), channel) : (channel) => ctx.adapters.has(channel.type),
  });
}

/** The channels that may serve a model's images, in the order to try them: those whose type's image operation `accepts` them, chat adapter or not. */
export function imageCandidates(ctx: AppContext, model: string, accepts: (operation: ImageOperation, channel: Channel) => boolean): Channel[] {
  return orderCandidates(ctx.channels.serving(model), model, {
    isHealthy: ctx.health.isHealthy,
    accepts: (channel) => {
      const operation = ctx.adapters.images(channel.type);
      return operation !== undefined && accepts(operation, channel);
    },
  });
}

export function upstreamCallFor(ctx: AppContext, target: AttemptTarget, request: { requestId: string; headers: UpstreamCall['clientHeaders']; sessionKey?: string }, signal: CallSignal): UpstreamCall {
  return {
    channel: target.channel,
    upstreamModel: target.upstreamModel,
    apiKey: target.apiKey,
    signal,
    requestId: request.requestId,
    clientHeaders: request.headers,
    timeoutMs: ctx.settings.upstreamTimeoutMs,
    idleTimeoutMs: ctx.settings.upstreamIdleMs,
    limits: upstreamLimits(ctx.settings),
    sessionKey: request.sessionKey,
    outbound: ctx.tasks.guard,
  };
}

/**
 * The failover loop's report of an attempt that threw instead of failing as
 * an upstream does (a request that could not be built from the channel): the
 * runtime text goes to the log, with the channel to fix, and the next channel
 * is tried.
 */
export function logUnexpectedAttempt(logger: Pick<Logger, 'error'>, requestId: string) {
  return (channel: Channel, error: unknown) => logger.error({ err: error, requestId, channel: channel.name, channelId: channel.id }, 'a channel attempt failed unexpectedly; trying the next channel');
}
