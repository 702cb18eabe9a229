/**
 * Usage taps for the pass-through path: the upstream bytes go to the client
 * untouched while the tap reads usage and the response id from the one parse
 * the gateway makes of them (see pass-through.ts). A stream ends with
 * `message_stop`, or with an `error` event the client sees as it is.
 * `message_start` tells the prompt's counters (its `output_tokens` is a
 * placeholder, kept out of the usage); `message_delta` the final ones.
 * Content deltas add what they carry to the delivered text.
 */
import { promptPart, type Usage } from '../../../core/chat.js';
import { ReadingTap, type AnswerTap, type StreamTap } from '../../pass-through.js';
import { DeliveredText } from '../../delivered-text.js';
import type { SseEvent } from '../../sse.js';
import { applyMessagesUsage, usageFromMessages } from '../../../dialects/messages/usage.js';
import type { MessagesResponse, MessagesUsage } from '../../../dialects/messages/wire.js';

export class MessagesStreamUsageTap extends ReadingTap implements StreamTap {
  readonly delivered = new DeliveredText();
  private done = false;
  /** message_start's counters, placeholder output included: message_delta overwrites what it reports. */
  private started: Usage | undefined;

  see(sse: SseEvent, data: unknown): void {
    const type = sse.event ?? (data as { type?: unknown } | null)?.type;
    if (type === 'content_block_delta') {
      const delta = (data as { delta?: ContentDelta } | null)?.delta;
      if (delta) this.delivered.add(delta.text ?? delta.partial_json ?? delta.thinking);
    } else if (type === 'message_start') {
      const message = (data as { message?: { id?: string; usage?: MessagesUsage } } | null)?.message;
      if (!message) return;
      this.responseId = message.id;
      this.started = usageFromMessages(message.usage);
      this.reported = promptPart(this.started);
    } else if (type === 'message_delta') {
      const usage = (data as { usage?: MessagesUsage } | null)?.usage;
      if (usage) this.reported = applyMessagesUsage({ ...(this.started ?? usageFromMessages(undefined)) }, usage);
    } else if (type === 'message_stop' || type === 'error') {
      this.done = true;
    }
  }

  ended(): boolean {
    return this.done;
  }
}

/** The fields of a text_delta, input_json_delta or thinking_delta (one of them is set). */
interface ContentDelta {
  text?: string;
  partial_json?: string;
  thinking?: string;
}

export class MessagesJsonUsageTap extends ReadingTap implements AnswerTap {
  private answer: Partial<MessagesResponse> | undefined;

  read(answer: unknown): void {
    const json = answer as Partial<MessagesResponse>;
    this.answer = json;
    this.responseId = json.id;
    if (json.usage) this.reported = usageFromMessages(json.usage);
  }

  answerText(): string {
    const blocks = this.answer?.content;
    if (!Array.isArray(blocks)) return '';
    const text = new DeliveredText();
    for (const block of blocks as Array<{ text?: unknown; thinking?: unknown; input?: unknown } | null>) {
      if (!block) continue;
      text.add(block.text ?? block.thinking);
      if (block.input !== undefined) text.add(JSON.stringify(block.input));
    }
    text.commit();
    return text.text();
  }
}
