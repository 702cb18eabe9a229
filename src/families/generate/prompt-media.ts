/**
 * How many media parts of each modality a request's prompt holds, for the
 * per-modality prompt counts of a translated answer's usage.
 */
import type { PromptMedia } from '../../dialects/generate/usage.js';
import type { GenerateRequest } from '../../dialects/generate/schema.js';
import { mediaKind } from '../../dialects/generate/schema-enums.js';

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
