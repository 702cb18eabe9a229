/**
 * Legacy Completions on a server that offers `/completions` itself (vLLM,
 * Together, Fireworks, OpenAI's `gpt-3.5-turbo-instruct`), where the
 * provider's endpoint names its address and the channel declares it
 * (`completions` in endpoint.ts): the client's bytes go there as they are,
 * under the same rules as the Chat Completions pass-through (pass-through.ts):
 * the channel's model name, and the usage chunk asked for on a streaming
 * client's behalf and kept from it. The adapter part that takes the
 * `completions` dialect natively is the protocol's adapter with this
 * pass-through; a channel that does not declare it translates through chat.
 */
import type { Channel } from '../../../core/channel.js';
import { throwChatCompletionsStatus } from './errors.js';
import { whenHeaders, type RequestHeaders } from '../../endpoint.js';
import { forwardUntouched } from '../../pass-through.js';
import type { PassThroughRequest, PassThroughResult, UpstreamAdapter, UpstreamCall } from '../../types.js';
import type { ChatCompletionsEndpoint, CompletionsAddress } from './endpoint.js';
import type { ChatCompletionsSettings } from './settings.js';
import { isUsageOnly, usageMarkers, withoutChunks } from './usage-tap.js';
import { TextCompletionJsonTap, TextCompletionStreamTap } from './completions-tap.js';

/** `nativeFor` of an adapter whose endpoint can serve legacy Completions: its part for that dialect on a channel that declares it. */
export function completionsNativeFor<S extends ChatCompletionsSettings>(adapter: UpstreamAdapter<S>, endpoint: ChatCompletionsEndpoint<S>, address: CompletionsAddress) {
  const part: UpstreamAdapter<S> = { ...adapter, nativeDialect: 'completions', passThrough: completionsPassThrough(endpoint, address) };
  return (dialect: string, _upstreamModel: string, channel: Channel): UpstreamAdapter | undefined => {
    if (dialect === adapter.nativeDialect) return adapter as UpstreamAdapter;
    return dialect === 'completions' && address.offered(channel) ? (part as UpstreamAdapter) : undefined;
  };
}

function completionsPassThrough<S extends ChatCompletionsSettings>(endpoint: ChatCompletionsEndpoint<S>, address: CompletionsAddress) {
  return (request: PassThroughRequest, call: UpstreamCall): Promise<PassThroughResult> => whenHeaders(endpoint.headers(call), forward, endpoint, { request, address }, call);
}

async function forward(
  headers: RequestHeaders,
  endpoint: ChatCompletionsEndpoint<ChatCompletionsSettings>,
  { request, address }: { request: PassThroughRequest; address: CompletionsAddress },
  call: UpstreamCall,
): Promise<PassThroughResult> {
  const askUsage = request.stream && endpoint.settingsOf(call.channel).streamUsage && !clientAskedUsage(request.body);
  const result = await forwardUntouched(
    {
      url: address.url(call),
      headers,
      body: upstreamBody(endpoint, request, call, askUsage),
      stream: request.stream,
      taps: { sse: () => new TextCompletionStreamTap(), whole: () => new TextCompletionJsonTap() },
      throwFor: throwChatCompletionsStatus,
    },
    call,
  );
  if (!askUsage || !result.contentType.startsWith('text/event-stream')) return result;
  return { ...result, body: withoutChunks(result.body, usageMarkers, isUsageOnly) };
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
