/**
 * Where and how to call Amazon Bedrock Runtime for Anthropic models, by the
 * Messages protocol over InvokeModel: `POST <origin>/model/<model id>/invoke`
 * and `/invoke-with-response-stream`, the origin being the `endpoint`
 * setting, else the channel's base URL, else
 * `https://bedrock-runtime.<region>.amazonaws.com`.
 *
 * The body is the Messages body with Bedrock's rules: no `model` (the path
 * names it), `anthropic_version: "bedrock-2023-05-31"`, and the betas as a
 * body field (`anthropic_beta: [...]`), not a header; no `anthropic-*`
 * header goes. Streams are AWS event streams, re-framed as the dialect's
 * server-sent events (invoke-stream.ts). Each request is signed last, over
 * what is sent (signing.ts).
 */
import type { RequestHeaders } from '../endpoint.js';
import { joinUrl } from '../http.js';
import type { BetaLists } from '../protocols/messages/betas.js';
import { readBetaLists } from '../protocols/messages/betas.js';
import { messagesHeaders, passThroughHeaders } from '../protocols/messages/headers.js';
import type { MessagesEndpoint } from '../protocols/messages/index.js';
import type { UpstreamCall } from '../types.js';
import { throwBedrockStatus } from './errors.js';
import { invokeStreamAsSse } from './invoke-stream.js';
import { bedrockSettingsOf, type BedrockSettings } from './settings.js';
import { authorizedHeaders } from './signing.js';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/**
 * The betas a channel sends when its `betas` setting is unset: those Bedrock
 * takes for Claude models (it refuses a request naming another with "invalid
 * beta flag", and agents such as Claude Code send every beta they know).
 * Compiled from Bedrock's Claude documentation and public gateway
 * configurations; a channel's own `betas` lists replace it.
 */
export const BEDROCK_BETAS: BetaLists = {
  allow: [
    'compact-*',
    'computer-use-*',
    'context-1m-*',
    'context-management-*',
    'effort-*',
    'fine-grained-tool-streaming-*',
    'interleaved-thinking-*',
    'mid-conversation-*',
    'thinking-binding-controls-*',
    'thinking-display-updates-*',
    'tool-search-tool-*',
  ],
};

/** The public origin of a region's Bedrock Runtime. */
export function bedrockOrigin(region: string): string {
  return `https://bedrock-runtime.${region}.amazonaws.com`;
}

/** `<origin>/model/<model id>/` for a call's channel (its upstream model unless told another): the id escaped whole (`anthropic.claude-…-v1:0`, an inference profile ARN). */
export function modelPath(call: UpstreamCall, modelId: string = call.upstreamModel): string {
  const settings = bedrockSettingsOf(call.channel);
  const origin = settings.endpoint || call.channel.baseUrl || bedrockOrigin(settings.region);
  return joinUrl(origin, `/model/${encodeURIComponent(modelId)}/`);
}

function betaLists(settings: BedrockSettings): BetaLists {
  return readBetaLists(settings) ?? BEDROCK_BETAS;
}

const noBetas: readonly string[] = [];

export const bedrockMessagesEndpoint: MessagesEndpoint<BedrockSettings> = {
  type: 'bedrock',
  settingsOf: bedrockSettingsOf,
  url: (call, _operation, stream) => `${modelPath(call)}${stream ? 'invoke-with-response-stream' : 'invoke'}`,
  headers: (call, route, betas = noBetas) => {
    const lists = betaLists(bedrockSettingsOf(call.channel));
    return route === 'translated' ? messagesHeaders(call, betas, lists) : passThroughHeaders(call, lists);
  },
  body: (body, _call, _operation, headers) => bedrockMessagesBody(body, headers),
  sseFrom: invokeStreamAsSse,
  sign: authorizedHeaders,
  throwStatus: throwBedrockStatus,
};

/**
 * The body InvokeModel takes: the model and `stream` left out, Bedrock's version added,
 * the `anthropic-beta` header's names moved into `anthropic_beta`. The
 * request's `anthropic-*` headers are removed (Bedrock reads none), and the
 * answer is asked for as JSON or as an event stream.
 */
export function bedrockMessagesBody(body: Record<string, unknown>, headers: RequestHeaders | undefined): Record<string, unknown> {
  // The address says whether the answer streams; Bedrock refuses a `stream` key.
  const { model: _model, stream, ...rest } = body;
  const out: Record<string, unknown> = { anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...rest };
  if (!headers) return out;
  const betas = headers['anthropic-beta'];
  if (betas) out.anthropic_beta = betas.split(',').map((name) => name.trim());
  for (const name in headers) if (name.startsWith('anthropic-')) delete headers[name];
  headers.accept = stream === true ? 'application/vnd.amazon.eventstream' : 'application/json';
  return out;
}
