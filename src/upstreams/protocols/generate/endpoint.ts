/** What a provider of the content-generation dialect supplies (see src/upstreams/endpoint.ts). */
import type { Endpoint, EndpointHeaders } from '../../endpoint.js';
import type { UpstreamCall } from '../../types.js';
import type { GenerateSettings } from './settings.js';

/**
 * The method a request goes to, the model being the call's: `generateContent`,
 * `streamGenerateContent?alt=sse`, `streamGenerateContent` (a JSON array),
 * `countTokens`, `batchEmbedContents`, or a native client's own method.
 */
export type GenerateMethod = string;

export interface GenerateEndpoint<Settings extends GenerateSettings> extends Endpoint<Settings> {
  url(call: UpstreamCall, method: GenerateMethod): string;
  headers(call: UpstreamCall): EndpointHeaders;
  /** Whether the provider's image models take OpenAI image requests, translated (images.ts). */
  readonly makesImages?: boolean;
  /** Whether its speech and audio-understanding models take OpenAI audio requests, translated (audio.ts). */
  readonly makesAudio?: boolean;
}
