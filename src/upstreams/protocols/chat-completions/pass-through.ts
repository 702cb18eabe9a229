/**
 * Same-dialect path: a Chat Completions client served by a channel of that
 * dialect. The client's bytes go to the endpoint's `chat` address
 * (`<base>/chat/completions` for openai-chat) untouched,
 * unless the body must change: the channel maps the model to another name,
 * or a streaming client did not ask for the usage chunk. The gateway needs
 * the usage to bill, so it asks for it (`stream_options.include_usage`) and
 * keeps that chunk from the client, who did not ask to see it. Channel
 * setting `streamUsage: false` (servers that refuse the option) sends the
 * bytes as they are; usage is then estimated.
 */
import { throwChatCompletionsStatus } from './errors.js';
import { whenHeaders, type RequestHeaders } from '../../endpoint.js';
import { forwardUntouched } from '../../pass-through.js';
import type { PassThroughRequest, PassThroughResult, UpstreamCall } from '../../types.js';
import type { ChatCompletionsEndpoint } from './endpoint.js';
import type { ChatCompletionsSettings } from './settings.js';
import { ChatCompletionJsonUsageTap, ChatCompletionStreamUsageTap, isUsageOnly, usageMarkers, withoutChunks } from './usage-tap.js';

export function chatCompletionsPassThrough<S extends ChatCompletionsSettings>(endpoint: ChatCompletionsEndpoint<S>) {
  return (request: PassThroughRequest, call: UpstreamCall): Promise<PassThroughResult> => whenHeaders(endpoint.headers(call), forward, endpoint, request, call);
}

async function forward(headers: RequestHeaders, endpoint: ChatCompletionsEndpoint<ChatCompletionsSettings>, request: PassThroughRequest, call: UpstreamCall): Promise<PassThroughResult> {
  const askUsage = request.stream && endpoint.settingsOf(call.channel).streamUsage && !clientAskedUsage(request.body);
  const result = await forwardUntouched(
    {
      url: endpoint.url(call, 'chat'),
      headers,
      body: upstreamBody(endpoint, request, call, askUsage),
      stream: request.stream,
      taps: { sse: () => new ChatCompletionStreamUsageTap(), whole: () => new ChatCompletionJsonUsageTap() },
      throwFor: throwChatCompletionsStatus,
    },
    call,
  );
  if (!result.contentType.startsWith('text/event-stream')) return result;
  const skipped = endpoint.skippedChunks;
  if (askUsage)
    return { ...result, body: withoutChunks(result.body, skipped ? [...usageMarkers, skipped.marker] : usageMarkers, skipped ? (chunk) => isUsageOnly(chunk) || skipped.skips(chunk) : isUsageOnly) };
  return skipped ? { ...result, body: withoutChunks(result.body, [skipped.marker], skipped.skips) } : result;
}

function clientAskedUsage(body: Record<string, unknown>): boolean {
  const options = body.stream_options as { include_usage?: unknown } | null | undefined;
  return options?.include_usage === true;
}

function upstreamBody(endpoint: ChatCompletionsEndpoint<ChatCompletionsSettings>, request: PassThroughRequest, call: UpstreamCall, askUsage: boolean): string | Buffer {
  const sameModel = request.body.model === call.upstreamModel;
  if (sameModel && !askUsage && !endpoint.body) return request.rawBody;
  const body: Record<string, unknown> = { ...request.body, model: call.upstreamModel };
  if (askUsage) body.stream_options = { ...(request.body.stream_options as object | undefined), include_usage: true };
  return JSON.stringify(endpoint.body ? endpoint.body(body, call) : body);
}
