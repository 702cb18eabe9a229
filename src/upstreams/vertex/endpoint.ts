/**
 * Where and how to call Vertex AI. Every model is addressed under
 * `<origin>/v1/projects/<project>/locations/<location>/publishers/<publisher>/models/`
 * (the project the `project` setting names, else the service-account key's),
 * the origin being the `endpoint` setting, else the channel's base URL, else
 * the location's public host (`aiplatform.googleapis.com` for `global`,
 * `aiplatform.<us|eu>.rep.googleapis.com` for a multi-region,
 * `<location>-aiplatform.googleapis.com` otherwise), with the key's Bearer
 * token (auth.ts).
 *
 * Two endpoints, one per protocol the type speaks: Google's models by the
 * content-generation protocol (`…/publishers/google/models/<model>:generateContent`,
 * `:streamGenerateContent?alt=sse`, `:countTokens`), Anthropic's by the
 * Messages protocol (`…/publishers/anthropic/models/<model>:rawPredict`,
 * `:streamRawPredict`, counts at `…/publishers/anthropic/models/count-tokens:rawPredict`)
 * with `anthropic_version: "vertex-2023-10-16"` in the body and the model in
 * the path, not the body (a count keeps it in the body: its path names none).
 */
import type { EndpointHeaders, RequestHeaders } from '../endpoint.js';
import { joinUrl } from '../http.js';
import { readBetaLists, type BetaLists } from '../protocols/messages/betas.js';
import { messagesHeaders, passThroughHeaders } from '../protocols/messages/headers.js';
import type { GenerateEndpoint } from '../protocols/generate/index.js';
import type { MessagesEndpoint, MessagesOperation } from '../protocols/messages/index.js';
import type { UpstreamCall } from '../types.js';
import { credentialUnusable, keyProject, serviceAccountToken } from './auth.js';
import { vertexSettingsOf, type VertexSettings } from './settings.js';

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/** The public host of a location. */
export function vertexOrigin(location: string): string {
  if (location === 'global') return 'https://aiplatform.googleapis.com';
  // The multi-regions keep processing within one geography.
  if (location === 'us' || location === 'eu') return `https://aiplatform.${location}.rep.googleapis.com`;
  return `https://${location}-aiplatform.googleapis.com`;
}

/** `<origin>/v1/projects/<project>/locations/<location>/` for a call's channel: what every Vertex address starts with. */
export function locationBase(call: UpstreamCall): string {
  const settings = vertexSettingsOf(call.channel);
  const origin = settings.endpoint || call.channel.baseUrl || vertexOrigin(settings.location);
  return joinUrl(origin, `/v1/projects/${projectOf(settings, call)}/locations/${settings.location}/`);
}

/** `<origin>/v1/projects/<project>/locations/<location>/publishers/<publisher>/models/` for a call's channel. */
export function publisherModels(call: UpstreamCall, publisher: 'google' | 'anthropic'): string {
  return `${locationBase(call)}publishers/${publisher}/models/`;
}

/**
 * The project a call is for: the channel's `project`, else the one its
 * service-account key names (known only per key, so not a schema default). A
 * channel that can name none cannot be served: it is benched like a refused credential.
 */
function projectOf(settings: VertexSettings, call: UpstreamCall): string {
  if (settings.project !== undefined) return settings.project;
  const fromKey = settings.auth === 'service-account' ? keyProject(call.apiKey) : undefined;
  if (fromKey === undefined) throw credentialUnusable(call.channel.name, 'no project to call for: set the `project` setting (an access token names none, nor does this key)');
  return fromKey;
}

/** A model name as a path segment: escaped, but for the `@` of a dated Anthropic model (`claude-sonnet-4-5@20250929`). */
export function modelSegment(model: string): string {
  const bare = model.startsWith('models/') ? model.slice('models/'.length) : model;
  return encodeURIComponent(bare).replace(/%40/g, '@');
}

/** The headers with the call's Bearer token: at once when the token is held (or is the key itself), after its fetch otherwise. */
export function withBearer(call: UpstreamCall, headers: RequestHeaders): EndpointHeaders {
  if (vertexSettingsOf(call.channel).auth === 'access-token') {
    headers.authorization = `Bearer ${call.apiKey}`;
    return headers;
  }
  const token = serviceAccountToken(call.apiKey, call.channel.name);
  if (typeof token === 'string') {
    headers.authorization = `Bearer ${token}`;
    return headers;
  }
  return token.then((fetched) => {
    headers.authorization = `Bearer ${fetched}`;
    return headers;
  });
}

/** Google's models, by the content-generation protocol. */
export const vertexGenerateEndpoint: GenerateEndpoint<VertexSettings> = {
  type: 'vertex',
  serves: 'Gemini models',
  settingsOf: vertexSettingsOf,
  url: (call, method) => `${publisherModels(call, 'google')}${modelSegment(call.upstreamModel)}:${method}`,
  headers: (call) => withBearer(call, { 'content-type': 'application/json' }),
  makesAudio: true,
};

const noBetas: readonly string[] = [];

/**
 * The betas a channel sends when its `betas` setting is unset: those Vertex
 * takes for Claude models. It refuses a request naming any other ("Unexpected
 * value(s) `…` for the `anthropic-beta` header"), and agents such as Claude
 * Code send every beta they know (`claude-code-*`, `effort-*`,
 * `advanced-tool-use-*`, `prompt-caching-scope-*`, `structured-outputs-*`,
 * `adaptive-thinking-*` are refused in reports against Vertex). Compiled from
 * Vertex's Claude documentation, those reports and public gateway
 * configurations; a channel's own `betas` lists replace it.
 */
export const VERTEX_BETAS: BetaLists = {
  allow: [
    'compact-*',
    'computer-use-*',
    'context-1m-*',
    'context-management-*',
    'dangerous-tool-use-*',
    'interleaved-thinking-*',
    'per-turn-control-*',
    'thinking-binding-controls-*',
    'thinking-display-updates-*',
    'tool-search-tool-*',
    'web-search-*',
  ],
};

/** Anthropic's models, by the Messages protocol. */
export const vertexMessagesEndpoint: MessagesEndpoint<VertexSettings> = {
  type: 'vertex',
  serves: 'Claude models',
  settingsOf: vertexSettingsOf,
  url: (call, operation, stream) =>
    operation === 'count-tokens'
      ? `${publisherModels(call, 'anthropic')}count-tokens:rawPredict`
      : `${publisherModels(call, 'anthropic')}${modelSegment(call.upstreamModel)}:${stream ? 'streamRawPredict' : 'rawPredict'}`,
  headers: (call, route, betas = noBetas) => {
    const lists = readBetaLists(vertexSettingsOf(call.channel)) ?? VERTEX_BETAS;
    return withBearer(call, route === 'translated' ? messagesHeaders(call, betas, lists) : passThroughHeaders(call, lists));
  },
  body: (body, call, operation) => vertexMessagesBody(body, call, operation as MessagesOperation | undefined),
};

/** The body Vertex takes for an Anthropic model: its version added; the model left out except in a count, where the body is the only place that names it. */
export function vertexMessagesBody(body: Record<string, unknown>, call: UpstreamCall, operation: MessagesOperation | undefined): Record<string, unknown> {
  if (operation === 'count-tokens') return { ...body, model: call.upstreamModel, anthropic_version: VERTEX_ANTHROPIC_VERSION };
  const { model: _model, ...rest } = body;
  return { ...rest, anthropic_version: VERTEX_ANTHROPIC_VERSION };
}
