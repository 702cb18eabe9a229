/**
 * Usage taps for the legacy Completions pass-through (completions.ts): the
 * same reading as the Chat Completions taps (usage-tap.ts; the two APIs
 * share the usage fields), over `text_completion` objects whose choices
 * carry `text` instead of a message. A stream has ended once a choice
 * carried its `finish_reason` (the usage chunk and `[DONE]` may follow) or
 * an error chunk went by.
 */
import { promptPart } from '../../../core/chat.js';
import { ReadingTap, type AnswerTap, type StreamTap } from '../../pass-through.js';
import { DeliveredText } from '../../delivered-text.js';
import type { SseEvent } from '../../sse.js';
import { usageFromChatCompletion } from '../../../dialects/chat-completions/usage.js';
import type { ChatCompletionUsage } from '../../../dialects/chat-completions/wire.js';

/** A `text_completion` object as the tap reads it: every field optional. */
interface TextCompletionView {
  id?: string;
  choices?: Array<{ text?: string | null; finish_reason?: string | null } | null>;
  usage?: ChatCompletionUsage | null;
  error?: unknown;
}

export class TextCompletionStreamTap extends ReadingTap implements StreamTap {
  readonly delivered = new DeliveredText();
  private done = false;
  private finished = false;

  see(_event: SseEvent, data: unknown): void {
    const chunk = data as TextCompletionView | null;
    if (!chunk || typeof chunk !== 'object') return;
    if (this.responseId === undefined && typeof chunk.id === 'string' && chunk.id !== '') this.responseId = chunk.id;
    const choices = chunk.choices;
    if (Array.isArray(choices)) {
      for (const choice of choices) {
        this.delivered.add(choice?.text);
        if (choice?.finish_reason) this.finished = this.done = true;
      }
    }
    if (chunk.error !== undefined) this.done = true;
    if (chunk.usage) {
      const usage = usageFromChatCompletion(chunk.usage);
      this.reported = this.finished ? usage : promptPart(usage);
    }
  }

  ended(): boolean {
    return this.done;
  }
}

export class TextCompletionJsonTap extends ReadingTap implements AnswerTap {
  private answer: TextCompletionView | undefined;

  read(answer: unknown): void {
    const json = answer as TextCompletionView;
    this.answer = json;
    this.responseId = json.id;
    if (json.usage) this.reported = usageFromChatCompletion(json.usage);
  }

  answerText(): string {
    const choices = this.answer?.choices;
    if (!Array.isArray(choices)) return '';
    let text = '';
    for (const choice of choices) text += choice?.text ?? '';
    return text;
  }
}
