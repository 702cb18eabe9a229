/**
 * Where and how to call a Gemini channel: base URL = the origin (empty means
 * the public service), requests to `<base>/<version>/models/<model>:<method>`
 * with the key in `x-goog-api-key`, never in the URL. The API version is the
 * channel setting `apiVersion` (default `v1beta`). Its image models take
 * OpenAI image requests, and its speech and audio-understanding models OpenAI
 * audio requests, translated (protocols/generate/images.ts, audio.ts).
 */
import { joinUrl } from '../http.js';
import type { GenerateEndpoint } from '../protocols/generate/index.js';
import type { UpstreamCall } from '../types.js';
import { geminiSettingsOf, type GeminiSettings } from './settings.js';

export const DEFAULT_GEMINI_ORIGIN = 'https://generativelanguage.googleapis.com';

/** `method` is `generateContent`, `streamGenerateContent?alt=sse`, `streamGenerateContent` (JSON array), `countTokens` or `batchEmbedContents`. */
export function geminiUrl(call: UpstreamCall, method: string): string {
  const version = geminiSettingsOf(call.channel).apiVersion;
  const model = call.upstreamModel.startsWith('models/') ? call.upstreamModel.slice('models/'.length) : call.upstreamModel;
  return joinUrl(call.channel.baseUrl || DEFAULT_GEMINI_ORIGIN, `/${version}/models/${encodeURIComponent(model)}:${method}`);
}

/** A channel without a key sends no key header, never an empty one. */
export function geminiHeaders(call: UpstreamCall): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (call.apiKey) headers['x-goog-api-key'] = call.apiKey;
  return headers;
}

export const geminiEndpoint: GenerateEndpoint<GeminiSettings> = { type: 'gemini', settingsOf: geminiSettingsOf, url: geminiUrl, headers: geminiHeaders, makesImages: true, makesAudio: true };
