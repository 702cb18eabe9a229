/**
 * Renders an internal ChatResponse as a `text_completion` object: the
 * answer's text as the one choice's `text` (thoughts are not part of a
 * completion; a translated request carries no tools, so no calls come back).
 */
import type { ChatResponse } from '../../core/chat.js';
import { randomBase62 } from '../../core/random.js';
import { toTextFinishReason } from '../../dialects/completions/finish-reason.js';
import { renderTextUsage } from '../../dialects/completions/usage.js';
import type { TextCompletionObject } from '../../dialects/completions/wire.js';

export function toTextCompletionId(id: string | undefined): string {
  if (!id) return `cmpl-${randomBase62(29)}`;
  return id.startsWith('cmpl-') ? id : `cmpl-${id}`;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export function renderTextCompletion(res: ChatResponse, clientModel: string): TextCompletionObject {
  let text = '';
  for (const part of res.content) if (part.type === 'text') text += part.text;
  return {
    id: toTextCompletionId(res.id),
    object: 'text_completion',
    created: nowSeconds(),
    model: clientModel,
    choices: [{ text, index: 0, logprobs: null, finish_reason: toTextFinishReason(res.finishReason) }],
    usage: renderTextUsage(res.usage),
  };
}
