/**
 * The contract every upstream provider implements. Adding a provider is one
 * folder under src/upstreams/ exporting an UpstreamAdapter (for a dialect the
 * gateway already speaks, the protocol's factory around the provider's
 * endpoint, endpoint.ts), plus one line in registry.ts.
 */
import type { CallSignal } from '../core/call-signal.js';
import type { ChatEvent, ChatRequest, ChatResponse, Dialect, Usage } from '../core/chat.js';
import type { EmbeddingRequest, EmbeddingResponse } from '../core/embedding.js';
import type { RerankRequest, RerankResponse } from '../dialects/rerank/wire.js';
import type { ModerationRequest, ModerationResponse } from '../dialects/moderations/wire.js';
import type { AudioBody, AudioOperationName, AudioPassThroughResult, AudioRequest, AudioResponse, SpeechRequest } from '../dialects/openai-audio/wire.js';
import type { ImageBody, ImageOperationName, ImagePassThroughResult, ImageRequest, ImageResponse, ImageStreamResult } from '../dialects/openai-images/wire.js';
import type { UpstreamLimits } from '../core/upstream-limits.js';
import type { Channel } from '../core/channel.js';
import type { OutboundGuard } from '../tasks/outbound-guard.js';
import type { GatewayError } from '../core/errors.js';
import type { Prepared, PrepareOptions } from './plan.js';
import type { TappedEvent } from './sse.js';
import type { DeliveredSoFar } from './delivered-text.js';

export type { Prepared, PrepareOptions } from './plan.js';

export interface UpstreamCall {
  channel: Channel;
  /** The model name to send upstream (after the channel's model mapping). */
  upstreamModel: string;
  /** The credential chosen for this attempt. */
  apiKey: string;
  /** Aborted when the client goes away or the gateway gives up. */
  signal: CallSignal;
  requestId: string;
  /** Client request headers (lower-case), for the few that are forwarded (e.g. `anthropic-beta`). */
  clientHeaders: Record<string, string | string[] | undefined>;
  /** Milliseconds to wait for the upstream's response headers before failing over. */
  timeoutMs: number;
  /**
   * Milliseconds the upstream may stay silent while its answer's body arrives
   * before the call is ended (undici bodyTimeout); five minutes when absent.
   */
  idleTimeoutMs?: number;
  /** Size bounds on the answer; the defaults when absent. */
  limits?: UpstreamLimits;
  /**
   * The client's session, as the router keeps its turns together (see
   * routing/session-affinity): upstreams that key their prompt cache by a
   * string (OpenAI `prompt_cache_key`) send it when the client gave none.
   */
  sessionKey?: string;
  /** Checks addresses an upstream names (an image to download) and connects only to allowed ones; absent where none is needed. */
  outbound?: OutboundGuard;
}

export type ChatResult = { stream: false; response: ChatResponse } | { stream: true; events: AsyncIterable<ChatEvent> };

/**
 * A same-dialect exchange: the client's bytes go upstream untouched (model name
 * aside) and the upstream's bytes come back untouched. Usage is read from the
 * bytes as they pass, and is known once `body` has been fully iterated.
 */
export interface PassThroughResult {
  status: number;
  contentType: string;
  body: AsyncIterable<Uint8Array>;
  /** A plain answer, parsed: it was read whole and checked before delivery, and is parsed only once. */
  answer?: unknown;
  /**
   * An event stream's events, parsed once as they were checked: those of the
   * chunk `body` yielded last, until the next one is asked for.
   */
  events?: readonly TappedEvent[];
  /**
   * What the upstream reported: a plain answer's usage; a stream's final
   * usage, or, until it came (or when the stream was cut before it), only
   * the prompt's counters, never a placeholder output count.
   */
  usage(): Partial<Usage> | undefined;
  /** A stream's text, tool-call arguments and reasoning, as far as the client received them: the pipeline commits each written chunk. */
  delivered?: DeliveredSoFar;
  /** The upstream's own response id, when it could be read. */
  responseId?(): string | undefined;
}

export interface PassThroughRequest {
  /** The client's body bytes, exactly as received. */
  rawBody: Buffer;
  /** The same body parsed once (for reading `model`, `stream`). */
  body: Record<string, unknown>;
  stream: boolean;
  /** Dialect-specific routing words, e.g. the Gemini method (`generateContent`). */
  method?: string;
}

/**
 * A chat upstream. `Settings` is its channels' settings as its type's schema
 * outputs them, every default filled in (registry.ts ties the two, and hands
 * `prepare` the typed value); `P` what its `prepare` builds. As the registry
 * lists it, an adapter takes the channel's settings record.
 */
export interface UpstreamAdapter<Settings = Record<string, unknown>, P extends Prepared<unknown> = Prepared<unknown>> {
  /** The channel `type` this adapter serves. */
  readonly type: string;
  /** The client dialect this upstream speaks natively; such clients get the pass-through path. */
  readonly nativeDialect?: Dialect;
  /**
   * For a type whose upstream speaks several dialects, by model or by API (a
   * cloud serving Anthropic and Gemini models, Azure's two OpenAI APIs): the
   * adapter that takes `dialect` as it is for `upstreamModel`, if any. When
   * present it replaces `nativeDialect` (see `nativeAdapter`), and the
   * pass-through and counting calls go to the adapter it returns.
   */
  nativeFor?(dialect: Dialect, upstreamModel: string, channel: Channel): UpstreamAdapter | undefined;
  /**
   * Builds, before routing and without side effects, the upstream request
   * for a translated request, in one pass that records what it did with
   * each field (`decisions`, see core/translation-plan.ts). Never throws for
   * a request its family accepted: what cannot be served is a refusal, and
   * the router skips the channel. Its `decisions` alone are the plan (the
   * docs' plan tables read them; no upstream is called).
   */
  prepare(request: ChatRequest, options: PrepareOptions<Settings>): P;

  /**
   * The origin the reasoning state of a prepared request's answer is sealed
   * with: the one its protocol's converters give back (`Serving` in
   * endpoint.ts; for a type of several protocols, that of the part that
   * prepared it). Absent: the type.
   */
  reasoningOrigin?(prepared: P): string;

  /**
   * Send a prepared request (its plan did not refuse) and read the answer.
   * Resolves once the upstream answered with a success status (so the
   * router can still fail over before any byte reaches the client); rejects
   * with a GatewayError otherwise. Errors after a stream began are thrown by
   * the event iterator.
   */
  chat(prepared: P, request: ChatRequest, call: UpstreamCall): Promise<ChatResult>;

  /** Serve a request in the adapter's native dialect without translating it. */
  passThrough?(request: PassThroughRequest, call: UpstreamCall): Promise<PassThroughResult>;

  /**
   * Count a native-dialect request's input tokens with the upstream's own
   * counting endpoint (nothing is generated). Rejects like `passThrough`; a
   * 404 (the upstream has no counting endpoint) leaves the count to the gateway.
   */
  countTokens?(request: PassThroughRequest, call: UpstreamCall): Promise<CountTokensResult>;

  /** Compute embeddings; absent when the upstream type has none (its channels are then never asked). */
  embed?(request: EmbeddingRequest, call: UpstreamCall): Promise<EmbeddingResponse>;

  /**
   * Forward an OpenAI `/v1/embeddings` body as it is (token-array inputs,
   * base64 encoding and unknown fields included), for upstreams whose own
   * endpoint is that one.
   */
  embedPassThrough?(request: PassThroughRequest, call: UpstreamCall): Promise<EmbeddingPassThroughResult>;

  /** Rerank (`POST /v1/rerank`); absent when the type has none (its channels are then never asked). */
  rerank?: PlainOperation<RerankRequest, RerankResponse>;

  /** Moderations (`POST /v1/moderations`); absent when the type has none. */
  moderations?: PlainOperation<ModerationRequest, ModerationResponse>;

  /** OpenAI image generation and editing (`/v1/images/generations`, `/v1/images/edits`); absent when the type has none. */
  images?: ImageOperation;

  /** OpenAI audio (`/v1/audio/speech`, `/v1/audio/transcriptions`, `/v1/audio/translations`); absent when the type has none. */
  audio?: AudioOperation;
}

/** Audio: which channels of the type serve an operation, and how (computed, or the client's body passed to the server's own endpoint). */
export interface AudioOperation {
  offered(channel: Channel, operation: AudioOperationName): boolean;
  /**
   * What the channel's server cannot make of the request (a format, a
   * field it would drop), decided before routing: the channel is skipped,
   * and when every channel of the model refuses, the first refusal is the
   * client's 400. Absent: it takes every request it is offered.
   */
  refusal?(request: AudioRequest, channel: Channel): GatewayError | undefined;
  serve?(request: AudioRequest, call: UpstreamCall): Promise<AudioResponse>;
  /** Speech asked as `stream_format: sse`, made by the upstream and written as OpenAI's events as it comes; resolves once the first audio is in hand. */
  serveStream?(request: SpeechRequest, call: UpstreamCall): Promise<AudioPassThroughResult>;
  /** Resolves once the server answered 2xx, before its bytes (they are streamed on as they come). */
  passThrough?(operation: AudioOperationName, body: AudioBody, call: UpstreamCall): Promise<AudioPassThroughResult>;
}

/** Images: which channels of the type make or edit them, and how (computed, or the client's body passed to the server's own endpoint). */
export interface ImageOperation {
  offered(channel: Channel, operation: ImageOperationName): boolean;
  serve?(request: ImageRequest, call: UpstreamCall): Promise<ImageResponse>;
  passThrough?(operation: ImageOperationName, body: ImageBody, call: UpstreamCall): Promise<ImagePassThroughResult>;
  /** The client's streamed request passed as it is; resolves once the server answered 2xx, before its events. */
  passThroughStream?(operation: ImageOperationName, body: ImageBody, call: UpstreamCall, expectedImages: number): Promise<ImageStreamResult>;
}

/**
 * A plain JSON operation beside chat (rerank, moderations): which channels
 * of the type serve it, and how: computed from the internal request (the
 * simulator) or the client's body passed to the server's own endpoint.
 */
export interface PlainOperation<Request, Response> {
  /** Whether the channel serves it (a setting may declare that its server has the endpoint). */
  offered(channel: Channel): boolean;
  serve?(request: Request, call: UpstreamCall): Promise<Response>;
  passThrough?(request: PassThroughRequest, call: UpstreamCall): Promise<EmbeddingPassThroughResult>;
}

/** An upstream's plain JSON answer (embeddings, rerank, moderations) kept byte for byte, with the usage read from it. */
export interface EmbeddingPassThroughResult {
  status: number;
  contentType: string;
  body: Buffer;
  inputTokens?: number;
}

/** An upstream's answer to a count, kept byte for byte for a client of the same dialect. */
export interface CountTokensResult {
  status: number;
  contentType: string;
  body: Buffer;
  /** The count read from the answer. */
  inputTokens: number;
}
