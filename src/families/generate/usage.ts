/**
 * The internal Usage → `usageMetadata`. The dialect counts cached prompt
 * tokens inside `promptTokenCount` and thoughts apart from
 * `candidatesTokenCount`; internally input excludes cache reads and output
 * includes thoughts. Per-modality prompt counts of a translated answer are an
 * estimate: each media part at the gateway's fixed media figure, the rest text.
 */
import type { Usage } from '../../core/chat.js';
import { MEDIA_PART_TOKENS } from '../../core/tokens.js';
import type { GenerateRequest } from './schema.js';
import { mediaKind } from './schema-enums.js';

export type Modality = 'TEXT' | 'IMAGE' | 'AUDIO' | 'VIDEO' | 'DOCUMENT';

export interface ModalityTokenCount {
  modality: Modality;
  tokenCount: number;
}

export interface UsageMetadata {
  promptTokenCount: number;
  cachedContentTokenCount?: number;
  candidatesTokenCount: number;
  toolUsePromptTokenCount?: number;
  thoughtsTokenCount?: number;
  totalTokenCount: number;
  promptTokensDetails?: ModalityTokenCount[];
  cacheTokensDetails?: ModalityTokenCount[];
  candidatesTokensDetails?: ModalityTokenCount[];
}

/** How many media parts of each modality the prompt holds. */
export type PromptMedia = Partial<Record<Exclude<Modality, 'TEXT'>, number>>;

const modalityByKind = { image: 'IMAGE', audio: 'AUDIO', video: 'VIDEO', document: 'DOCUMENT' } as const;

export function promptMediaOf(req: GenerateRequest): PromptMedia {
  const media: PromptMedia = {};
  const count = (mimeType: string) => {
    const kind = mediaKind(mimeType);
    if (kind === undefined || kind === 'text') return;
    const modality = modalityByKind[kind];
    media[modality] = (media[modality] ?? 0) + 1;
  };
  for (const content of req.contents) {
    for (const part of content.parts) {
      const file = part.inlineData ?? part.fileData;
      if (file) count(file.mimeType);
      for (const inner of part.functionResponse?.parts ?? []) {
        const innerFile = inner.inlineData ?? inner.fileData;
        if (innerFile) count(innerFile.mimeType);
      }
    }
  }
  return media;
}

export function renderUsageMetadata(usage: Partial<Usage> | undefined, media: PromptMedia = {}): UsageMetadata {
  const cached = usage?.cacheReadTokens ?? 0;
  const prompt = (usage?.inputTokens ?? 0) + cached + (usage?.cacheWriteTokens ?? 0);
  const output = usage?.outputTokens ?? 0;
  const thoughts = Math.min(usage?.reasoningTokens ?? 0, output);
  const candidates = output - thoughts;
  const out: UsageMetadata = { promptTokenCount: prompt, candidatesTokenCount: candidates, totalTokenCount: prompt + output };
  if (cached > 0) out.cachedContentTokenCount = cached;
  if (thoughts > 0) out.thoughtsTokenCount = thoughts;
  if (prompt > 0) out.promptTokensDetails = modalitySplit(prompt, media);
  if (cached > 0) out.cacheTokensDetails = [{ modality: 'TEXT', tokenCount: cached }];
  if (candidates > 0) out.candidatesTokensDetails = [{ modality: 'TEXT', tokenCount: candidates }];
  return out;
}

function modalitySplit(prompt: number, media: PromptMedia): ModalityTokenCount[] {
  const details: ModalityTokenCount[] = [];
  let remaining = prompt;
  for (const modality of ['IMAGE', 'AUDIO', 'VIDEO', 'DOCUMENT'] as const) {
    const tokens = Math.min(remaining, (media[modality] ?? 0) * MEDIA_PART_TOKENS);
    if (tokens > 0) details.push({ modality, tokenCount: tokens });
    remaining -= tokens;
  }
  if (remaining > 0 || details.length === 0) details.unshift({ modality: 'TEXT', tokenCount: remaining });
  return details;
}
