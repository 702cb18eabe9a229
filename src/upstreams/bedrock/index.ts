/**
 * The `bedrock` upstream: Amazon Bedrock Runtime. Anthropic models (ids
 * naming `anthropic.claude`, bare or as an inference profile such as
 * `us.anthropic.claude-…` or its ARN) are spoken to by the Messages protocol
 * over InvokeModel (endpoint.ts), so Messages clients pass through with
 * every Anthropic feature Bedrock takes; every client of another dialect is
 * translated to it. Bedrock counts tokens through an API of its own shape,
 * not the Messages `count_tokens`, so counts are the gateway's estimate.
 */
import type { Channel } from '../../core/channel.js';
import type { Dialect } from '../../core/chat.js';
import { multiProtocolAdapter } from '../multi-protocol.js';
import { messagesProtocol } from '../protocols/messages/index.js';
import type { UpstreamAdapter } from '../types.js';
import { bedrockMessagesEndpoint } from './endpoint.js';
import { bedrockSettingsOf, type BedrockSettings } from './settings.js';

const { countTokens: _noCount, ...invokeSide } = messagesProtocol(bedrockMessagesEndpoint);

/** Anthropic's models on Bedrock, through InvokeModel. */
export const bedrockInvokeAdapter: UpstreamAdapter<BedrockSettings> = invokeSide as UpstreamAdapter<BedrockSettings>;

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
  translatedBy: () => bedrockInvokeAdapter,
  nativeBy,
});
