/**
 * The `bedrock` upstream: Amazon Bedrock Runtime. Anthropic models (ids
 * naming `anthropic.claude`, bare or as an inference profile such as
 * `us.anthropic.claude-…` or its ARN) are spoken to by the Messages protocol
 * over InvokeModel (endpoint.ts), so Messages clients pass through with
 * every Anthropic feature Bedrock takes; every client of another dialect is
 * translated to it. Every other model (Nova, Llama, Mistral, DeepSeek,
 * gpt-oss…), and Anthropic's too with `anthropicApi: converse`, is spoken to
 * by the Converse protocol (converse-endpoint.ts), every client translated.
 * A Messages client's count of an Anthropic model goes to Bedrock's
 * CountTokens (count-tokens.ts); every other count is the gateway's estimate.
 */
import type { Channel } from '../../core/channel.js';
import type { Dialect } from '../../core/chat.js';
import { multiProtocolAdapter } from '../multi-protocol.js';
import { converseProtocol } from '../protocols/converse/index.js';
import { messagesProtocol } from '../protocols/messages/index.js';
import type { UpstreamAdapter } from '../types.js';
import { converseEndpoint } from './converse-endpoint.js';
import { bedrockCountTokens } from './count-tokens.js';
import { bedrockMessagesEndpoint } from './endpoint.js';
import { bedrockSettingsOf, type BedrockSettings } from './settings.js';

/** Anthropic's models on Bedrock, through InvokeModel, counted by CountTokens (the Messages `count_tokens` is no Bedrock route). */
export const bedrockInvokeAdapter: UpstreamAdapter<BedrockSettings> = { ...messagesProtocol(bedrockMessagesEndpoint), countTokens: bedrockCountTokens } as UpstreamAdapter<BedrockSettings>;

/** Every model by the Converse API. */
export const bedrockConverseAdapter: UpstreamAdapter<BedrockSettings> = converseProtocol(converseEndpoint) as UpstreamAdapter<BedrockSettings>;

/** Whether a Bedrock model id (a foundation model, an inference profile or an ARN of either) is Anthropic's. */
export function isAnthropicModel(upstreamModel: string): boolean {
  return upstreamModel.includes('anthropic.claude') || upstreamModel.startsWith('claude');
}

/** Messages clients of an Anthropic model pass through InvokeModel, unless the channel sends Anthropic models to Converse too. */
function nativeBy(dialect: Dialect, upstreamModel: string, channel: Channel): UpstreamAdapter<BedrockSettings> | undefined {
  if (dialect !== 'messages' || !isAnthropicModel(upstreamModel)) return undefined;
  return bedrockSettingsOf(channel).anthropicApi === 'invoke' ? bedrockInvokeAdapter : undefined;
}

export const bedrockAdapter = multiProtocolAdapter<BedrockSettings>({
  type: 'bedrock',
  translatedBy: (upstreamModel, settings) => (isAnthropicModel(upstreamModel) && settings.anthropicApi === 'invoke' ? bedrockInvokeAdapter : bedrockConverseAdapter),
  nativeBy,
});
