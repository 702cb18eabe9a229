/**
 * What a chat family hands the shared pipeline: how to render answers and
 * errors in its dialect, and the request it parsed and validated.
 */
import type { ChatEvent, ChatRequest, ChatResponse, Dialect } from '../core/chat.js';
import type { GatewayError } from '../core/errors.js';
import type { ClientKey } from '../server/auth.js';

export interface RenderedError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Turns the internal event stream into the family's SSE (or chunked) bytes. */
export interface StreamEncoder {
  /** Written once before the first event (e.g. `[` for a JSON-array stream); optional. */
  open?(): string;
  encode(event: ChatEvent): string;
  /** The frame that reports a failure after the stream began. */
  error(error: GatewayError): string;
  /** Written once after the last event; optional. */
  close?(): string;
}

export interface ChatCodec {
  /** The family name written to request logs. */
  readonly family: string;
  /** The dialect this family speaks; upstreams natively speaking it get the pass-through path. */
  readonly dialect: Dialect;
  readonly streamContentType: string;
  renderResponse(response: ChatResponse, clientModel: string): unknown;
  createStreamEncoder(clientModel: string): StreamEncoder;
  renderError(error: GatewayError, requestId: string): RenderedError;
}

/** One authenticated, validated chat request, ready for routing. */
export interface ChatCall {
  requestId: string;
  key: ClientKey;
  clientIp: string;
  headers: Record<string, string | string[] | undefined>;
  model: string;
  stream: boolean;
  rawBody: Buffer;
  body: Record<string, unknown>;
  /** Builds the internal request; only called when the request is translated. */
  toCore(): ChatRequest;
  /** Dialect-specific routing word for pass-through (e.g. Gemini's method). */
  passThroughMethod?: string;
  startedAt: number;
}
