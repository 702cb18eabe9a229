/**
 * Counting for a content-generation client on a Gemini channel: the client's
 * body goes to `<base>/<version>/models/<model>:countTokens` (the channel's
 * model in the path). A `generateContentRequest` names its model too
 * (`models/<name>`); when the channel maps the model, that name is mapped as
 * well. The answer is `{"totalTokens": N, …}`; the service leaves a zero out.
 */
import { requestCount } from '../../count-tokens.js';
import type { CountTokensResult, PassThroughRequest, UpstreamCall } from '../../types.js';
import { geminiHeaders, geminiUrl } from '../../gemini/endpoint.js';
import { throwGeminiStatus } from './errors.js';

export function geminiCountTokens(request: PassThroughRequest, call: UpstreamCall): Promise<CountTokensResult> {
  return requestCount(
    {
      url: geminiUrl(call, 'countTokens'),
      headers: geminiHeaders(call),
      body: bodyWithInnerModel(request, call.upstreamModel),
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
