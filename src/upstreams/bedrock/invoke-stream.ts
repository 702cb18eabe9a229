/**
 * InvokeModelWithResponseStream's answer as the Messages dialect's
 * server-sent events. Bedrock frames the stream as
 * `application/vnd.amazon.eventstream` messages; each `chunk` event carries
 * one Anthropic stream event, base64-encoded, in `{"bytes": "…"}`. Each
 * becomes `event: <its type>` with its JSON as `data`, byte for byte what
 * the Anthropic API would have sent (Bedrock adds
 * `amazon-bedrock-invocationMetrics` to `message_stop`, kept: clients ignore
 * it). A stream exception becomes the dialect's `error` event, so the
 * Messages reader and a pass-through client see the failure as Anthropic
 * writes one.
 */
import { GatewayError } from '../../core/errors.js';
import { limitsOf } from '../../core/upstream-limits.js';
import { payloadJson, readEventStream, streamExceptionError } from '../aws-event-stream.js';
import type { UpstreamCall } from '../types.js';

const encoder = new TextEncoder();
const eventType = /^\{\s*"type"\s*:\s*"([a-z_]+)"/;

export async function* invokeStreamAsSse(body: AsyncIterable<Uint8Array>, call: UpstreamCall): AsyncGenerator<Uint8Array> {
  for await (const message of readEventStream(body, limitsOf(call))) {
    if (message.messageType !== 'event') {
      yield encoder.encode(errorEvent(streamExceptionError(message)));
      return;
    }
    if (message.type !== 'chunk') continue;
    const bytes = payloadJson(message).bytes;
    if (typeof bytes !== 'string') throw malformedChunk();
    const json = Buffer.from(bytes, 'base64').toString('utf8');
    yield encoder.encode(`event: ${typeOf(json)}\ndata: ${json}\n\n`);
  }
}

/** The event's `type`, read off its first bytes (Anthropic writes it first), else by parsing it. */
function typeOf(json: string): string {
  const leading = eventType.exec(json);
  if (leading) return leading[1];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw malformedChunk();
  }
  const type = (parsed as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !/^[a-z_]+$/.test(type)) throw malformedChunk();
  return type;
}

/** Anthropic's error event for a stream exception, its type as Anthropic names the same failure. */
function errorEvent(error: GatewayError): string {
  const type = error.kind === 'rate_limited' ? 'rate_limit_error' : error.kind === 'unavailable' ? 'overloaded_error' : error.kind === 'invalid_request' ? 'invalid_request_error' : 'api_error';
  return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message: error.message } })}\n\n`;
}

function malformedChunk(): GatewayError {
  return new GatewayError('upstream_error', 'upstream sent a malformed chunk event', { retryable: true });
}
