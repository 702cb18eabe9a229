/**
 * What a chat family hands the shared pipeline: how to render answers and
 * errors in its dialect, and the request it parsed and validated.
 */
import type { ChatEvent, ChatRequest, ChatResponse, Dialect } from '../core/chat.js';
import type { GatewayError } from '../core/errors.js';
import type { ClientKey } from '../http/auth.js';
import type { Channel } from '../core/channel.js';
import type { PassThroughRequest, PassThroughResult } from '../upstreams/types.js';

import type { RenderedError } from '../http/family-errors.js';

export type { RenderedError };

/** Turns the internal event stream into the family's SSE (or chunked) bytes. */
export interface StreamEncoder {
  /** Written once before the first event (e.g. `[` for a JSON-array stream); optional. */
  open?(): string;
  /**
   * A frame may be deferred until async work it depends on is done (e.g. a
   * family recording the finished answer before the client sees its end).
   */
  encode(event: ChatEvent): string | Promise<string>;
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
  /** A frame the family's clients ignore, sent while a streamed answer's first piece is awaited (wait-pings.ts); absent: none. */
  readonly keepAliveFrame?: string;
  /** The output limit the dialect implies when the client declares none (legacy Completions: 16), held against quotas and budgets; absent: the gateway's default. */
  readonly impliedOutputTokens?: number;
  /**
   * The client may not send thought text back verbatim (thoughts hidden, no
   * summaries): sealed reasoning state then carries the text its signature proves.
   */
  readonly reasoningTextHidden?: boolean;
  /** The plain answer's body; may be a promise (e.g. a family recording the answer before it is sent). */
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
  /**
   * The pass-through request for one channel, when it must differ from the
   * client's bytes (e.g. conversation state that only some channels hold).
   * Undefined: the client's bytes go as they are.
   */
  passThroughRequest?(channel: Channel): PassThroughRequest | undefined | Promise<PassThroughRequest | undefined>;
  /** Wraps a channel's pass-through answer before delivery (e.g. to map its ids and record it); a promise only when it must wait. */
  wrapPassThrough?(result: PassThroughResult, channel: Channel): PassThroughResult | Promise<PassThroughResult>;
  startedAt: number;
  /**
   * The client's session, when one is known: the turns of one session are
   * routed to the same channel and upstream key while it stays healthy, so
   * the upstream's prompt cache keeps hitting (see routing/session-affinity).
   * Set by the pipeline (see session-key.ts), only when it is needed.
   */
  sessionKey?: string;
  /**
   * What identifies the session in the body, asked only when the router has
   * a choice and no session header was sent: an id the client gave
   * (`sessionIdHint`), else the stable prefix of the conversation
   * (`sessionPrefixHint`: system, tools, the first messages).
   */
  sessionHint?(): string | undefined;
  /**
   * Another name later turns will know this session by (the id of the
   * response being stored, which a follow-up names as its
   * `previous_response_id`), as a hint; the pin is kept under both.
   */
  sessionAlias?(): string | undefined;
}
