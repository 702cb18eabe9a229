/**
 * HTTP exchanges with an image-task service: JSON in, JSON out, the channel's
 * secret in its configured header. Transport failures, 5xx and slow answers
 * become retryable GatewayErrors (the shared upstream plumbing); envelope
 * codes the service uses for refusals map onto the gateway's error kinds.
 */
import { GatewayError } from '../../core/errors.js';
import type { SubmitOutcome, TaskCall } from '../../tasks/types.js';
import { requestTaskJson } from '../task-json.js';
import { readIgProxySettings } from './settings.js';

export interface UpstreamEnvelope {
  code?: number;
  description?: string;
  result?: unknown;
  properties?: Record<string, unknown>;
}

function headers(call: TaskCall): Record<string, string> {
  const { secretHeader } = readIgProxySettings(call.channel);
  const out: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (call.apiKey) out[secretHeader] = secretHeader === 'authorization' ? `Bearer ${call.apiKey}` : call.apiKey;
  return out;
}

/** Calls `<baseUrl><pathPrefix><path>` and returns the parsed JSON answer. */
export async function exchange<T>(call: TaskCall, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const { pathPrefix } = readIgProxySettings(call.channel);
  return requestTaskJson<T>(call, { method, path: `${pathPrefix}${path}`, headers: headers(call), body });
}

/**
 * The gateway error for an envelope code other than success (1), queued (22)
 * or modal (21 with a task id). Codes follow the service's meaning: 24 an
 * unusable account or banned prompt, 23 a full queue (try elsewhere), 25 the
 * channel's own balance, anything else a refused parameter.
 */
export function refusal(envelope: UpstreamEnvelope, what: string): GatewayError {
  const reason = `${what}: ${envelope.description || `upstream answered code ${envelope.code ?? 'none'}`}`;
  switch (envelope.code) {
    case 24:
      return new GatewayError('permission', reason);
    case 23:
    case 9:
      return new GatewayError('overloaded', reason, { status: 503, retryable: true });
    case 25:
      return new GatewayError('upstream_error', `${reason} (the channel's upstream balance)`, { retryable: true });
    default:
      return new GatewayError('invalid_request', reason);
  }
}

/** Reads a submit answer: 1 submitted, 22 queued, 21 with an id waits for a modal; anything else is refused. */
export function outcomeOf(envelope: UpstreamEnvelope, endpoint: string): SubmitOutcome {
  const id = envelope.result === null || envelope.result === undefined ? '' : String(envelope.result);
  if ((envelope.code === 1 || envelope.code === 22) && id) {
    const ahead = Number(envelope.properties?.numberOfQueues ?? 0);
    return envelope.code === 22 ? { upstreamId: id, status: 'NOT_START', queuePosition: Number.isFinite(ahead) && ahead > 0 ? ahead : 1, startTime: null } : { upstreamId: id, status: 'SUBMITTED' };
  }
  if (envelope.code === 21 && id && endpoint === 'action') return { upstreamId: id, status: 'MODAL', startTime: null };
  throw refusal(envelope, 'the upstream refused the task');
}
