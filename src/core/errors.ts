/**
 * Errors raised anywhere in the gateway carry a dialect-neutral kind and an
 * HTTP status; each family renders them in its own error shape.
 */
import type { Dialect } from './chat.js';

export type ErrorKind =
  | 'invalid_request'
  | 'unsupported_feature'
  | 'authentication'
  | 'permission'
  | 'quota_exhausted'
  | 'not_found'
  | 'payload_too_large'
  | 'rate_limited'
  | 'upstream_error'
  | 'overloaded'
  | 'timeout'
  | 'unavailable'
  | 'internal';

const defaultStatus: Record<ErrorKind, number> = {
  invalid_request: 400,
  unsupported_feature: 400,
  authentication: 401,
  permission: 403,
  quota_exhausted: 403,
  not_found: 404,
  payload_too_large: 413,
  rate_limited: 429,
  upstream_error: 502,
  overloaded: 529,
  timeout: 504,
  unavailable: 503,
  internal: 500,
};

export interface GatewayErrorOptions {
  status?: number;
  /** The request field at fault, when there is one. */
  param?: string;
  /** Seconds the client should wait (429). */
  retryAfterSeconds?: number;
  /** Status the upstream answered with, when this error came from one. */
  upstreamStatus?: number;
  /** Whether another channel may be tried (connect errors, timeouts, 429, 5xx). */
  retryable?: boolean;
  /** The dialect's own word for the failure, when it has one. */
  detail?: ErrorDetail;
  /** The upstream's error answer as it wrote it, for the family of its dialect to return unchanged. */
  upstreamReply?: UpstreamReply;
  cause?: unknown;
}

/**
 * An upstream's non-2xx answer kept as written (its status, its parsed JSON
 * error body with the channel's keys masked, the retry headers its clients
 * read). A client of the same dialect gets it unchanged, since agents match
 * their recovery on the upstream's own wording; every other family renders
 * the error from its kind and status.
 */
export interface UpstreamReply {
  dialect: Dialect;
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * A dialect's own word for a failure (an OpenAI `code` such as
 * `previous_response_not_found`, a Google status such as
 * `FAILED_PRECONDITION`). Only the family of that dialect shows it; every
 * other family renders the error from its kind and status.
 */
export interface ErrorDetail {
  dialect: Dialect;
  code: string;
  /** The request field the dialect's own error named, shown with the code. */
  param?: string;
}

export class GatewayError extends Error {
  readonly kind: ErrorKind;
  readonly status: number;
  readonly param?: string;
  readonly retryAfterSeconds?: number;
  readonly upstreamStatus?: number;
  readonly retryable: boolean;
  readonly detail?: ErrorDetail;
  readonly upstreamReply?: UpstreamReply;

  constructor(kind: ErrorKind, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.kind = kind;
    this.status = options.status ?? defaultStatus[kind];
    this.param = options.param;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.upstreamStatus = options.upstreamStatus;
    this.retryable = options.retryable ?? false;
    this.detail = options.detail;
    this.upstreamReply = options.upstreamReply;
  }
}

/** The dialect's word for an error when it is `dialect`'s, else undefined. */
export function detailFor(error: GatewayError, dialect: Dialect): string | undefined {
  return error.detail?.dialect === dialect ? error.detail.code : undefined;
}

/** Statuses the official clients would retry unless told not to. */
const RETRYABLE_CLIENT_STATUSES = new Set([408, 409, 429]);

/**
 * The retry headers of an error answer, one rule for every family:
 * `retry-after` in whole seconds when the wait is known, and, where a
 * dialect's clients read it (`shouldRetry`), `x-should-retry: false` on a
 * client error they would otherwise retry.
 */
export function retryHeaders(error: GatewayError, options: { shouldRetry?: boolean } = {}): Record<string, string> {
  const headers: Record<string, string> = {};
  if (options.shouldRetry && error.status >= 400 && error.status < 500 && !RETRYABLE_CLIENT_STATUSES.has(error.status)) {
    headers['x-should-retry'] = 'false';
  }
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.max(0, Math.ceil(error.retryAfterSeconds)));
  return headers;
}

/** Error kinds that are a key's own limit refusing it (rate or quota), counted apart from failures. */
export function isLimitRefusal(kind: string | null | undefined): boolean {
  return kind === 'rate_limited' || kind === 'quota_exhausted';
}

export const invalidRequest = (message: string, param?: string) => new GatewayError('invalid_request', message, { param });

/** A feature the chosen upstream cannot honour: always named, never silently dropped. */
export const unsupportedFeature = (feature: string, reason: string) => new GatewayError('unsupported_feature', `${feature} is not supported: ${reason}`, { param: feature });

/**
 * Anything that is not a GatewayError is the gateway's own failure. Its text
 * (engine errors, RangeErrors, stack-related messages) is for the log, which
 * gets it through `cause`; the client gets a generic message.
 */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  return new GatewayError('internal', INTERNAL_MESSAGE, { cause: error });
}

const INTERNAL_MESSAGE = 'internal error';

/**
 * The error as a client may see it: an internal error says only that it
 * happened and the request id to quote; callers log the details under that id.
 */
export function exposedError(error: GatewayError, requestId?: string): GatewayError {
  if (error.kind !== 'internal') return error;
  const message = requestId ? `${INTERNAL_MESSAGE}; quote request id ${requestId} to the operator` : INTERNAL_MESSAGE;
  if (error.message === message) return error;
  return new GatewayError('internal', message, { status: error.status, cause: error });
}

/** Whether the upstream refused the channel's own credential (401, 403, or what an adapter reads as one). */
export function isCredentialRefusal(error: GatewayError): boolean {
  return error.upstreamStatus === 401 || error.upstreamStatus === 403;
}

/**
 * What a client is told when an upstream refused the gateway's credential: a
 * 502 saying so, never the upstream's text (which reads like the client's own
 * key was wrong) and never its code. The request log keeps the upstream's
 * status and text in the attempt; `cause` keeps them for the log line.
 */
export function credentialsRefused(provider: string, refused: GatewayError): GatewayError {
  return new GatewayError('upstream_error', `the gateway's upstream credentials for ${provider} were refused; the gateway's operator must fix them (your own API key was accepted)`, {
    status: 502,
    upstreamStatus: refused.upstreamStatus,
    retryable: refused.retryable,
    cause: refused,
  });
}

/**
 * Maps an upstream HTTP status to a gateway error. 429, 5xx and timeouts may be
 * retried on another channel; 4xx requests are the client's fault and are not.
 */
export function upstreamStatusError(status: number, message: string, retryAfterSeconds?: number): GatewayError {
  const options = { upstreamStatus: status, retryAfterSeconds };
  if (status === 429) return new GatewayError('rate_limited', message, { ...options, status: 429, retryable: true });
  if (status === 529) return new GatewayError('overloaded', message, { ...options, status: 529, retryable: true });
  if (status === 408 || status === 504) return new GatewayError('timeout', message, { ...options, status: 504, retryable: true });
  if (status === 503) return new GatewayError('unavailable', message, { ...options, status: 503, retryable: true });
  if (status >= 500) return new GatewayError('upstream_error', message, { ...options, status: 502, retryable: true });
  if (status === 401 || status === 403)
    // The channel's credential is bad, not the client's: the client sees a gateway-side failure.
    return new GatewayError('upstream_error', message, { ...options, status: 502, retryable: true });
  if (status === 404) return new GatewayError('not_found', message, { ...options, status: 404 });
  if (status === 413) return new GatewayError('payload_too_large', message, { ...options, status: 413 });
  return new GatewayError('invalid_request', message, { ...options, status: 400 });
}
