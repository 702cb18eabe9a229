/**
 * The steps every request path shares, written once: generation
 * (`serveChat`), embeddings, token counting and task submission each take
 * them in this order, over the narrow services (services.ts) and output
 * (chat-output.ts):
 * 1. the call's abort signal, raised when the client goes away (`abortOnGone`);
 * 2. authorize and admit the key (`admitted`), then hold its quota (`services.holdQuota`);
 * 3. choose candidates and fail over before the first byte (`failoverOptions`);
 * 4. deliver, or send the family's error (`failPlain` for a plain answer);
 * 5. settle once, with where the request went (`routedFields`).
 * None of them awaits or allocates more than the inline steps they replace.
 */
import type { Attempt } from '../core/attempt.js';
import { CallAbort } from '../core/call-signal.js';
import type { Channel } from '../core/channel.js';
import { type GatewayError, toGatewayError } from '../core/errors.js';
import type { ClientKey } from '../http/auth.js';
import type { FailoverOptions } from '../routing/failover.js';
import type { RequestOutput } from './chat-output.js';
import type { AdmissionServices } from './services.js';
import type { RoutedFields } from './settle.js';
import type { RenderedError } from './types.js';
import { logUnexpectedAttempt } from './upstream-call.js';

/** A call's abort signal, raised when the client disconnects before its answer ended. */
export function abortOnGone(output: RequestOutput): CallAbort {
  const abort = new CallAbort();
  output.watchClient(() => abort.abort());
  return abort;
}

/** Authorizes the key for the model and counts it against its limits: a promise only when there is a limit to wait for. */
export function admitted(services: AdmissionServices, key: ClientKey, model: string): Promise<void> | undefined {
  services.authorize(key, model);
  return services.admit(key.record);
}

/** The failover loop's options for one request: the services' bounds and health, the request's attempts and signal. */
export function failoverOptions(
  services: AdmissionServices,
  call: { requestId: string; model: string },
  attempts: Attempt[],
  signal: FailoverOptions['signal'],
  keyFor?: FailoverOptions['keyFor'],
): FailoverOptions {
  return {
    model: call.model,
    maxAttempts: services.maxAttempts,
    health: services.health,
    attempts,
    signal,
    onUnexpected: logUnexpectedAttempt(services.logger, call.requestId),
    keyFor,
  };
}

/** What a settlement says of where a request went, the same on every path. */
export function routedFields(
  call: { requestId: string; key: ClientKey; model: string; startedAt: number; clientIp: string },
  family: string,
  target: { channel: Pick<Channel, 'id'>; upstreamModel: string } | undefined,
  attempts: Attempt[],
): RoutedFields {
  return {
    requestId: call.requestId,
    family,
    key: call.key,
    model: call.model,
    upstreamModel: target?.upstreamModel,
    channelId: target?.channel.id,
    attempts,
    startedAt: call.startedAt,
    clientIp: call.clientIp,
  };
}

/**
 * A plain-answer path's failure: logged when it is the gateway's own fault
 * (`what` names the path in the log), sent in the family's error shape unless
 * the client is gone, and returned for the settlement.
 */
export function failPlain(
  services: AdmissionServices,
  output: RequestOutput,
  thrown: unknown,
  call: { requestId: string },
  codec: { renderError(error: GatewayError, requestId: string): RenderedError },
  what: string,
): GatewayError {
  const error = toGatewayError(thrown);
  if (error.kind === 'internal') services.logger.error({ err: thrown, requestId: call.requestId }, `${what} request failed`);
  if (!output.gone) output.sendError(codec.renderError(error, call.requestId));
  return error;
}
