/**
 * Reading AWS's `application/vnd.amazon.eventstream` framing (Bedrock's
 * streams): binary messages, each a length prelude, typed headers, a payload
 * and two CRC32 checksums. The checksums and headers are decoded by the
 * maintained codec (`@smithy/core/event-streams`, the AWS SDK's own, loaded
 * at the first stream: aws-sdk.ts); this
 * module only cuts the byte stream into messages, within the per-event bound,
 * since the codec's own splitter allocates whatever length a prelude claims.
 *
 * A message is `event` (`:event-type` names it), `exception` (the service's
 * error inside a stream, `:exception-type` names it) or `error`
 * (`:error-code`, `:error-message`).
 */
import type { EventStreamCodec } from '@smithy/core/event-streams';
import { GatewayError } from '../core/errors.js';
import { capBytes, DEFAULT_UPSTREAM_LIMITS, tooLarge, type UpstreamLimits } from '../core/upstream-limits.js';
import { awsSdk } from './aws-sdk.js';

export interface EventStreamMessage {
  /** `event`, `exception` or `error`. */
  messageType: string;
  /** The event's or the exception's type: `:event-type`, `:exception-type` or `:error-code`. */
  type: string;
  payload: Uint8Array;
}

/** Prelude (total length, headers length, prelude CRC) and the message CRC. */
const PRELUDE_BYTES = 12;
const TRAILER_BYTES = 4;

let codec: EventStreamCodec | undefined;

/** Reads a whole upstream event stream, message by message, within the stream's total and per-message bounds. */
export async function* readEventStream(body: AsyncIterable<Uint8Array>, limits: UpstreamLimits = DEFAULT_UPSTREAM_LIMITS): AsyncGenerator<EventStreamMessage> {
  if (codec === undefined) {
    const sdk = await awsSdk();
    codec = new sdk.EventStreamCodec(sdk.toUtf8, sdk.fromUtf8);
  }
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of capBytes(body, limits.maxStreamBytes, 'the upstream stream')) {
    pending = pending.length === 0 ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) : Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const length = pending.readUInt32BE(0);
      if (length < PRELUDE_BYTES + TRAILER_BYTES) throw malformed();
      if (length > limits.maxEventBytes) throw tooLarge('an upstream stream event', limits.maxEventBytes);
      if (pending.length < length) break;
      yield decoded(pending.subarray(0, length));
      pending = pending.subarray(length);
    }
  }
  if (pending.length > 0) throw new GatewayError('upstream_error', 'upstream stream ended inside an event', { retryable: true });
}

function decoded(bytes: Buffer): EventStreamMessage {
  let message: ReturnType<EventStreamCodec['decode']>;
  try {
    message = codec!.decode(bytes);
  } catch {
    throw malformed();
  }
  const headers = message.headers;
  const messageType = headerText(headers[':message-type']) ?? 'event';
  const type = headerText(headers[messageType === 'exception' ? ':exception-type' : messageType === 'error' ? ':error-code' : ':event-type']) ?? '';
  return { messageType, type, payload: message.body };
}

function headerText(header: { type: string; value: unknown } | undefined): string | undefined {
  return header?.type === 'string' ? (header.value as string) : undefined;
}

function malformed(): GatewayError {
  return new GatewayError('upstream_error', 'upstream sent a malformed event-stream message', { retryable: true });
}

/** A message's payload as JSON (an object), or a malformed-stream error. */
export function payloadJson(message: EventStreamMessage): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(message.payload.buffer, message.payload.byteOffset, message.payload.byteLength).toString('utf8'));
  } catch {
    throw new GatewayError('upstream_error', `upstream sent a malformed ${message.type || 'stream'} event`, { retryable: true });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new GatewayError('upstream_error', `upstream sent a malformed ${message.type || 'stream'} event`, { retryable: true });
  return parsed as Record<string, unknown>;
}

/**
 * An `exception` or `error` message as the gateway error it reports: the
 * service's stream exceptions by their type (`throttlingException`,
 * `serviceUnavailableException`, `modelTimeoutException`,
 * `validationException`, `internalServerException`,
 * `modelStreamErrorException`), with the message the payload gives.
 */
export function streamExceptionError(message: EventStreamMessage): GatewayError {
  let text = '';
  try {
    const parsed = JSON.parse(Buffer.from(message.payload).toString('utf8')) as { message?: unknown; Message?: unknown };
    const said = parsed.message ?? parsed.Message;
    if (typeof said === 'string') text = said.slice(0, 500);
  } catch {
    // No JSON payload: the exception's type is the message.
  }
  const what = text ? `${message.type}: ${text}` : message.type || 'upstream stream failed';
  switch (message.type) {
    case 'throttlingException':
    case 'serviceQuotaExceededException':
      return new GatewayError('rate_limited', what, { status: 429, upstreamStatus: 429, retryable: true });
    case 'serviceUnavailableException':
      return new GatewayError('unavailable', what, { status: 503, upstreamStatus: 503, retryable: true });
    case 'modelTimeoutException':
      return new GatewayError('timeout', what, { status: 504, upstreamStatus: 408, retryable: true });
    case 'validationException':
      return new GatewayError('invalid_request', what, { status: 400, upstreamStatus: 400 });
    default:
      return new GatewayError('upstream_error', what, { status: 502, retryable: true });
  }
}
