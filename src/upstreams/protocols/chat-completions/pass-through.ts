/**
 * Same-dialect path: a Chat Completions client served by an `openai-chat`
 * channel. The client's bytes go to `<base>/chat/completions` untouched,
 * unless the body must change: the channel maps the model to another name,
 * or a streaming client did not ask for the usage chunk. The gateway needs
 * the usage to bill, so it asks for it (`stream_options.include_usage`) and
 * keeps that chunk from the client, who did not ask to see it. Channel
 * setting `streamUsage: false` (servers that refuse the option) sends the
 * bytes as they are; usage is then estimated.
 */
import { joinUrl } from '../../http.js';
import { chatCompletionsHeaders } from '../../openai-chat/endpoint.js';
import { throwChatCompletionsStatus } from './errors.js';
import { forwardUntouched } from '../../pass-through.js';
import type { PassThroughRequest, PassThroughResult, UpstreamCall } from '../../types.js';
import { openAiChatSettingsOf } from '../../openai-chat/settings.js';
import { ChatCompletionJsonUsageTap, ChatCompletionStreamUsageTap, withoutUsageChunk } from './usage-tap.js';

export async function chatCompletionsPassThrough(request: PassThroughRequest, call: UpstreamCall): Promise<PassThroughResult> {
  const askUsage = request.stream && openAiChatSettingsOf(call.channel).streamUsage && !clientAskedUsage(request.body);
  const result = await forwardUntouched(
    {
      url: joinUrl(call.channel.baseUrl, '/chat/completions'),
      headers: chatCompletionsHeaders(call),
      body: upstreamBody(request, call, askUsage),
      stream: request.stream,
      taps: { sse: () => new ChatCompletionStreamUsageTap(), whole: () => new ChatCompletionJsonUsageTap() },
      throwFor: throwChatCompletionsStatus,
    },
    call,
  );
  return askUsage && result.contentType.startsWith('text/event-stream') ? { ...result, body: withoutUsageChunk(result.body) } : result;
}

function clientAskedUsage(body: Record<string, unknown>): boolean {
  const options = body.stream_options as { include_usage?: unknown } | null | undefined;
  return options?.include_usage === true;
}

function upstreamBody(request: PassThroughRequest, call: UpstreamCall, askUsage: boolean): string | Buffer {
  const sameModel = request.body.model === call.upstreamModel;
  if (sameModel && !askUsage) return request.rawBody;
  const body: Record<string, unknown> = { ...request.body, model: call.upstreamModel };
  if (askUsage) body.stream_options = { ...(request.body.stream_options as object | undefined), include_usage: true };
  return JSON.stringify(body);
}
