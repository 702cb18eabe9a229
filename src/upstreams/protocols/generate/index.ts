/**
 * The content-generation protocol: speaking that dialect to an upstream, at
 * the endpoint a provider supplies (gemini today). Content-generation clients
 * get the byte-for-byte pass-through; other clients are translated.
 */
import { servingOf } from '../../endpoint.js';
import type { UpstreamAdapter } from '../../types.js';
import { generateChat } from './chat.js';
import { GENERATE_REASONING_ORIGIN, prepareGenerate, type GeneratePrepared } from './convert-request.js';
import { generateCountTokens } from './count-tokens.js';
import { generateEmbeddings } from './embed.js';
import { generateImages } from './images.js';
import { generateAudio } from './audio.js';
import type { GenerateEndpoint } from './endpoint.js';
import { generatePassThrough } from './pass-through.js';
import type { GenerateSettings } from './settings.js';

export type { GenerateEndpoint, GenerateMethod } from './endpoint.js';

/** The adapter of a provider of the content-generation dialect, built once around its endpoint. */
export function generateProtocol<S extends GenerateSettings>(endpoint: GenerateEndpoint<S>): UpstreamAdapter<S, GeneratePrepared> {
  const serving = servingOf(endpoint, GENERATE_REASONING_ORIGIN);
  const adapter: UpstreamAdapter<S, GeneratePrepared> = {
    type: endpoint.type,
    nativeDialect: 'generate',
    prepare: (request, options) => prepareGenerate(request, options, serving),
    reasoningOrigin: () => serving.reasoningOrigin,
    chat: generateChat(endpoint),
    passThrough: generatePassThrough(endpoint),
    countTokens: generateCountTokens(endpoint),
    embed: generateEmbeddings(endpoint),
  };
  if (endpoint.makesImages) adapter.images = generateImages(endpoint);
  if (endpoint.makesAudio) adapter.audio = generateAudio(endpoint);
  return adapter;
}
