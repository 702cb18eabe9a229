/**
 * The `gemini` upstream: the Gemini API (base URL = the origin, e.g.
 * https://generativelanguage.googleapis.com, or empty for that default;
 * requests go to <base>/v1beta/models/<model>:<method>, key in `x-goog-api-key`).
 * Content-generation clients get the byte-for-byte pass-through; other
 * clients are translated.
 */
import type { UpstreamAdapter } from '../types.js';
import { geminiCountTokens } from '../protocols/generate/count-tokens.js';
import { prepareGemini, type GeminiPrepared } from '../protocols/generate/convert-request.js';
import type { GeminiSettings } from './settings.js';
import { geminiChat } from '../protocols/generate/chat.js';
import { geminiPassThrough } from '../protocols/generate/pass-through.js';
import { geminiEmbeddings } from '../protocols/generate/embed.js';

export const geminiAdapter: UpstreamAdapter<GeminiSettings, GeminiPrepared> = {
  type: 'gemini',
  nativeDialect: 'generate',
  prepare: prepareGemini,
  chat: geminiChat,
  passThrough: geminiPassThrough,
  countTokens: geminiCountTokens,
  embed: geminiEmbeddings,
};
