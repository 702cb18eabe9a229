/**
 * What a provider supplies to a protocol (src/upstreams/protocols/<dialect>/):
 * where each operation goes, the headers with the credential, the rules its
 * body follows beyond the dialect's, and how its streams are framed. A
 * protocol builds an adapter around one endpoint, once (not per call), so an
 * endpoint's members are plain functions read on every exchange.
 *
 * Each protocol names its operations and the context its headers take
 * (`MessagesEndpoint`, `GenerateEndpoint`, …); what every endpoint has is here.
 */
import type { StatusThrower } from './error-answer.js';
import type { PassThroughRequest, UpstreamCall } from './types.js';
import type { SettingsHolder } from './typed-settings.js';
import { bodyForUpstreamModel, type SseReframer } from './pass-through.js';

export type { SseReframer } from './pass-through.js';

export type RequestHeaders = Record<string, string>;

/**
 * A request's headers: a plain record for a static credential (the common
 * case, no await on the hot path), a promise where the credential is fetched
 * and cached (an OAuth token).
 */
export type EndpointHeaders = RequestHeaders | Promise<RequestHeaders>;

export interface Endpoint<Settings> {
  /** The channel `type` the adapter serves. */
  readonly type: string;
  /** A channel's settings, typed by the provider's schema (shared keys, the protocol's, the provider's). */
  settingsOf(channel: SettingsHolder): Settings;
  /**
   * The body as this provider takes it, from the body the dialect wrote (e.g.
   * the model moved to the URL, a version field added); absent, the body goes
   * as the dialect writes it. Read for translated requests, counts and
   * pass-through (a pass-through body is then parsed and written again).
   * `operation` is the protocol's name for the exchange where the protocol
   * passes one (the Messages protocol: `messages` or `count-tokens`), for a
   * provider whose rules differ between its operations. `headers` are the
   * request's, for a provider that moves a header into the body (Bedrock's
   * `anthropic_beta`); the rule may change them.
   */
  body?(body: Record<string, unknown>, call: UpstreamCall, operation?: string, headers?: RequestHeaders): Record<string, unknown>;
  /** How the upstream's streams become server-sent events; absent: they are server-sent events. */
  readonly sseFrom?: SseReframer;
  /**
   * Signs a request over its final address, headers and body (AWS Signature
   * Version 4), resolving to the headers to send; absent where the credential
   * is a header of its own.
   */
  sign?(call: UpstreamCall, url: string, headers: RequestHeaders, body: string | Buffer): Promise<RequestHeaders>;
  /** How the provider's non-2xx answer becomes an error, where its error body is not the dialect's; absent: the protocol's own reading. */
  readonly throwStatus?: StatusThrower;
  /**
   * What this endpoint serves within its type, where the type has several
   * protocol parts (`Claude models` on vertex): refusals and hints then name
   * the type and this ("the vertex upstream (Claude models)").
   */
  readonly serves?: string;
  /**
   * The origin sealed reasoning state of this endpoint's answers carries, and
   * the only one its translated requests give back; absent, the protocol's
   * own (see `Serving`).
   */
  readonly reasoningOrigin?: string;
}

/**
 * Who a protocol's translated requests are for, worked out once per
 * endpoint (never per request): the type, how refusals and hints name it,
 * and the origin of the reasoning state it makes and takes back.
 *
 * The origin rule (docs/decisions.md): state that the vendor says is valid
 * wherever its models run (Anthropic's thinking signatures, Gemini's thought
 * signatures) carries the protocol's origin, so any provider of the protocol
 * takes it back; state bound to the account that made it (OpenAI's encrypted
 * reasoning, `reasoning_details`) carries the provider's type, qualified by
 * protocol where the type has several.
 */
export interface Serving {
  readonly type: string;
  /** "anthropic upstream", "vertex upstream (Claude models)": what a refusal calls it. */
  readonly named: string;
  readonly reasoningOrigin: string;
}

/** The endpoint's `Serving`: `protocolOrigin` is the protocol's rule for it, which the endpoint may override. */
export function servingOf(endpoint: Endpoint<unknown>, protocolOrigin: string): Serving {
  return {
    type: endpoint.type,
    named: endpoint.serves ? `${endpoint.type} upstream (${endpoint.serves})` : `${endpoint.type} upstream`,
    reasoningOrigin: endpoint.reasoningOrigin ?? protocolOrigin,
  };
}

/**
 * Sends once the headers are known: at once for a record, after the promise
 * otherwise. `send` is built once per adapter and takes the call's values as
 * arguments, so the common synchronous case allocates no closure per call.
 */
export function whenHeaders<A, B, C, R>(headers: EndpointHeaders, send: (headers: RequestHeaders, a: A, b: B, c: C) => Promise<R>, a: A, b: B, c: C): Promise<R> {
  return headers instanceof Promise ? headers.then((known) => send(known, a, b, c)) : send(headers, a, b, c);
}

/** A translated body, as the endpoint's body rules want it. */
export function translatedBody(endpoint: Endpoint<unknown>, body: object, call: UpstreamCall, operation?: string, headers?: RequestHeaders): string {
  return JSON.stringify(endpoint.body ? endpoint.body(body as Record<string, unknown>, call, operation, headers) : body);
}

/** A native client's body: untouched (model mapping aside) unless the endpoint has body rules. */
export function nativeBody(endpoint: Endpoint<unknown>, request: PassThroughRequest, call: UpstreamCall, operation?: string, headers?: RequestHeaders): string | Buffer {
  return endpoint.body ? JSON.stringify(endpoint.body({ ...request.body, model: call.upstreamModel }, call, operation, headers)) : bodyForUpstreamModel(request, call);
}
