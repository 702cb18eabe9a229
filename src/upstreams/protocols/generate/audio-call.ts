/** One `generateContent` exchange of an audio request (audio.ts, transcribe.ts), and what is read of its answer. */
import { limitsOf } from '../../../core/upstream-limits.js';
import { callExchange } from '../../call-exchange.js';
import { translatedBody, type RequestHeaders } from '../../endpoint.js';
import type { UpstreamCall } from '../../types.js';
import { requestJsonOk } from '../../whole-answer.js';
import type { GenerateEndpoint } from './endpoint.js';
import { throwGeminiStatus } from './errors.js';
import type { GenerateSettings } from './settings.js';

/** What the gateway reads of a `generateContent` answer to an audio request. */
export interface AudioAnswer {
  candidates?: Array<{ content?: { parts?: Array<{ text?: string; inlineData?: { mimeType?: string; data?: string }; thought?: boolean }> }; finishReason?: string }>;
  promptFeedback?: { blockReason?: string };
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number; thoughtsTokenCount?: number };
}

/** One `generateContent` call: the JSON answer, within the call's bound. */
export function generateOnce(endpoint: GenerateEndpoint<GenerateSettings>, headers: RequestHeaders, body: object, call: UpstreamCall): Promise<AudioAnswer> {
  const sent = translatedBody(endpoint, body, call, 'generateContent', headers);
  return requestJsonOk<AudioAnswer>(callExchange(call, endpoint.url(call, 'generateContent'), headers, sent, throwGeminiStatus), limitsOf(call).maxBodyBytes);
}

/** The answer's token counts (thoughts are output). */
export function answerTokens(answer: AudioAnswer): { inputTokens?: number; outputTokens?: number } {
  const usage = answer.usageMetadata;
  if (!usage) return {};
  return { inputTokens: usage.promptTokenCount, outputTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0) };
}

/** The reason an answer holds nothing usable, for the error that says so. */
export function emptyReason(answer: AudioAnswer): string {
  const reason = answer.promptFeedback?.blockReason ?? answer.candidates?.[0]?.finishReason;
  return reason ? ` (${answer.promptFeedback?.blockReason ? 'blocked' : 'finish reason'} ${reason})` : '';
}
