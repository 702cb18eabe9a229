/**
 * Renders an internal ChatResponse as a GenerateContent response: one
 * candidate, its parts (thoughts only when the client asked for them),
 * citations with a URL as `citationMetadata`, `usageMetadata`,
 * `modelVersion` (the model the client asked for) and `responseId`.
 */
import type { ChatResponse, TextPart } from '../../core/chat.js';
import { unwrapEnumText } from './enum-output.js';
import { isBlocked, toGenerateFinishReason } from '../../dialects/generate/finish-reason.js';
import { SignatureCarrier, thoughtToken } from './parts.js';
import { renderUsageMetadata, type PromptMedia } from '../../dialects/generate/usage.js';
import type { GeminiCandidate, GeminiCitationSource, GeminiPart, GeminiResponse } from '../../dialects/generate/wire.js';

export interface RenderOptions {
  /** `thinkingConfig.includeThoughts`: thoughts come back as parts marked `thought: true`. */
  includeThoughts: boolean;
  /** `responseMimeType: text/x.enum`: the answer is the bare enum value. */
  enumOutput: boolean;
  /** The prompt's media parts, for the per-modality token counts. */
  promptMedia?: PromptMedia;
}

export function renderGenerateResponse(res: ChatResponse, clientModel: string, opts: RenderOptions): GeminiResponse {
  const parts: GeminiPart[] = [];
  const signatures = new SignatureCarrier();
  const texts: TextPart[] = [];
  for (const part of res.content) {
    if (part.type === 'thinking') {
      if (opts.includeThoughts && part.text !== '') parts.push({ text: part.text, thought: true });
      const flushed = signatures.hold(thoughtToken(part, opts.includeThoughts));
      if (flushed) parts.push(flushed);
    } else if (part.type === 'text') {
      texts.push(part);
      if (!opts.enumOutput && part.text !== '') parts.push(signatures.attach({ text: part.text }));
    } else {
      parts.push(signatures.attach({ functionCall: { id: part.id, name: part.name, args: part.input } }));
    }
  }
  if (opts.enumOutput && texts.length > 0) parts.push(signatures.attach({ text: unwrapEnumText(texts.map((t) => t.text).join('')) }));
  const rest = signatures.flush();
  if (rest) parts.push(rest);

  const usageMetadata = renderUsageMetadata(res.usage, opts.promptMedia);
  if (isBlocked(res.finishReason, parts.length > 0)) {
    return { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata, modelVersion: clientModel, responseId: res.id };
  }
  // A turn with no part at all is refused by the official client's chat history.
  if (parts.length === 0) parts.push({ text: '' });
  const candidate: GeminiCandidate = {
    content: { role: 'model', parts },
    finishReason: toGenerateFinishReason(res.finishReason),
    index: 0,
  };
  const citations = citationSources(texts);
  if (citations.length > 0) candidate.citationMetadata = { citationSources: citations };
  return { candidates: [candidate], usageMetadata, modelVersion: clientModel, responseId: res.id };
}

/** Citations that name a URL, spanning the cited text part (indexes in UTF-8 bytes of the answer text). */
function citationSources(texts: TextPart[]): GeminiCitationSource[] {
  const sources: GeminiCitationSource[] = [];
  let offset = 0;
  for (const part of texts) {
    const length = Buffer.byteLength(part.text);
    for (const citation of part.citations ?? []) {
      const url = (citation as { url?: unknown } | null)?.url;
      if (typeof url === 'string') sources.push({ startIndex: offset, endIndex: offset + length, uri: url });
    }
    offset += length;
  }
  return sources;
}
