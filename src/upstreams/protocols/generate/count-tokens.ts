/**
 * Counting for a content-generation client on a channel of that dialect: the
 * client's body goes to the endpoint's `countTokens` method
 * (`<base>/<version>/models/<model>:countTokens` for gemini, the channel's
 * model in the path). A `generateContentRequest` names its model too
 * (`models/<name>`); when the channel maps the model, that name is mapped as
 * well. The answer is `{"totalTokens": N, …}`; the service leaves a zero out.
 */
import { requestCount } from '../../count-tokens.js';
import type { CountTokensResult, PassThroughRequest, UpstreamCall } from '../../types.js';
import { whenHeaders, type RequestHeaders } from '../../endpoint.js';
import type { GenerateEndpoint } from './endpoint.js';
import { throwGeminiStatus } from './errors.js';
import type { GenerateSettings } from './settings.js';

export function generateCountTokens<S extends GenerateSettings>(endpoint: GenerateEndpoint<S>) {
  return (request: PassThroughRequest, call: UpstreamCall): Promise<CountTokensResult> => whenHeaders(endpoint.headers(call), send, endpoint, request, call);
}

function send(headers: RequestHeaders, endpoint: GenerateEndpoint<GenerateSettings>, request: PassThroughRequest, call: UpstreamCall): Promise<CountTokensResult> {
  return requestCount(
    {
      url: endpoint.url(call, 'countTokens'),
      headers,
      body: countBody(endpoint, request, call),
      readCount: (answer) => {
        const total = answer.totalTokens ?? 0;
        return typeof total === 'number' ? total : undefined;
      },
      throwFor: throwGeminiStatus,
    },
    call,
  );
}

const innerKeys = ['generateContentRequest', 'generate_content_request'] as const;

function bodyWithInnerModel(request: PassThroughRequest, upstreamModel: string): string | Buffer {
  for (const key of innerKeys) {
    const inner = request.body[key];
    if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) continue;
    const named = (inner as Record<string, unknown>).model;
    if (typeof named !== 'string') return request.rawBody;
    const wanted = named.startsWith('models/') ? `models/${bareModel(upstreamModel)}` : bareModel(upstreamModel);
    if (named === wanted) return request.rawBody;
    return JSON.stringify({ ...request.body, [key]: { ...inner, model: wanted } });
  }
  return request.rawBody;
}

function bareModel(model: string): string {
  return model.startsWith('models/') ? model.slice('models/'.length) : model;
}

/** The client's body, its inner model mapped, after the endpoint's body rules when it has them. */
function countBody(endpoint: GenerateEndpoint<GenerateSettings>, request: PassThroughRequest, call: UpstreamCall): string | Buffer {
  const body = bodyWithInnerModel(request, call.upstreamModel);
  if (!endpoint.body) return body;
  return JSON.stringify(endpoint.body(typeof body === 'string' ? (JSON.parse(body) as Record<string, unknown>) : request.body, call));
}
