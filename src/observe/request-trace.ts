/**
 * What the trace span of one HTTP request says, and the interface the HTTP
 * hook talks to. The SDK behind it (`tracing.ts`) is loaded only when traces
 * are on; this file imports nothing of OpenTelemetry, so the hook and the
 * context can name its types at no cost.
 *
 * Names follow the OpenTelemetry HTTP server and GenAI semantic conventions;
 * the rest is `switchyard.*`. A span never holds a prompt, a credential or a
 * query string: the path is read without its query, the key by its name.
 */
import type { RouteNote } from './access-log.js';

export type SpanAttributes = Record<string, string | number | boolean>;

export interface RequestStart {
  method: string;
  /** The path without its query (a Gemini client may put its key there). */
  path: string;
  /** The matched route pattern (`/v1/messages`), absent when nothing matched. */
  route?: string;
  requestId: string;
  /** Only `traceparent` and `tracestate` are read. */
  headers: Record<string, string | string[] | undefined>;
}

export interface RequestEnd {
  status: number;
  note?: RouteNote;
  /** The channel that served, when the note names one that is still known. */
  channel?: { name: string; type: string };
  clientLeft: boolean;
}

export interface TracedRequest {
  end(outcome: RequestEnd): void;
}

export interface RequestTracer {
  start(request: RequestStart): TracedRequest;
  /** Sends what is buffered now. */
  forceFlush(): Promise<void>;
  /** Sends what is buffered and stops; at gateway close. */
  shutdown(): Promise<void>;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

/** `POST /v1/messages`; the method alone when no route matched (the path would make one name per URL). */
export function spanName(request: RequestStart): string {
  const method = METHODS.has(request.method) ? request.method : 'HTTP';
  return request.route ? `${method} ${request.route}` : method;
}

export function startAttributes(request: RequestStart): SpanAttributes {
  const attributes: SpanAttributes = {
    'http.request.method': METHODS.has(request.method) ? request.method : '_OTHER',
    'url.path': request.path,
    'switchyard.request_id': request.requestId,
  };
  if (request.route) attributes['http.route'] = request.route;
  return attributes;
}

/** The GenAI conventions' well-known provider names; any other channel type is named as it is. */
const PROVIDER_NAMES: Record<string, string> = {
  'openai-chat': 'openai',
  'openai-responses': 'openai',
  'openai-videos': 'openai',
  gemini: 'gcp.gemini',
};

export function providerName(channelType: string): string {
  return PROVIDER_NAMES[channelType] ?? channelType;
}

export function endAttributes(outcome: RequestEnd): SpanAttributes {
  const attributes: SpanAttributes = { 'http.response.status_code': outcome.status };
  if (outcome.status >= 500) attributes['error.type'] = String(outcome.status);
  if (outcome.clientLeft) attributes['switchyard.client_left'] = true;
  const note = outcome.note;
  if (!note) return attributes;
  const set = (name: string, value: string | number | undefined) => {
    if (value !== undefined) attributes[name] = value;
  };
  set('switchyard.key', note.key);
  set('switchyard.family', note.family);
  set('switchyard.channel_id', note.channel);
  set('switchyard.channel', outcome.channel?.name);
  set('switchyard.channel_type', outcome.channel?.type);
  set('switchyard.attempts', note.attempts);
  if (note.operation) {
    set('gen_ai.operation.name', note.operation);
    set('gen_ai.request.model', note.model);
    set('gen_ai.response.model', note.upstreamModel);
    set('gen_ai.provider.name', outcome.channel && providerName(outcome.channel.type));
    set('gen_ai.usage.input_tokens', note.inputTokens);
    set('gen_ai.usage.output_tokens', note.outputTokens);
  } else {
    set('switchyard.model', note.model);
  }
  return attributes;
}
