/**
 * Encodes internal ChatEvents as legacy Completions server-sent events, the
 * way the official clients read them: `text_completion` objects with one id,
 * each choice carrying a `text` delta, `finish_reason` on the last choice
 * chunk, the usage chunk with empty `choices` when the client asked for it
 * (`stream_options.include_usage`), then `data: [DONE]`. Thoughts and other
 * blocks have no place in a completion and are left out. The frame around
 * each delta is built once per stream.
 */
import type { ChatEvent, FinishReason, Usage } from '../../core/chat.js';
import type { GatewayError } from '../../core/errors.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import { toTextFinishReason } from '../../dialects/completions/finish-reason.js';
import { renderTextUsage } from '../../dialects/completions/usage.js';
import { nowSeconds, toTextCompletionId } from './from-core.js';

export interface TextStreamOptions {
  clientModel: string;
  /** The client set `stream_options.include_usage`. */
  includeUsage: boolean;
}

const done = 'data: [DONE]\n\n';

export class CompletionsStreamEncoder {
  private head = '';
  private started = false;
  private finished = false;

  constructor(private readonly opts: TextStreamOptions) {}

  encode(event: ChatEvent): string {
    if (this.finished) return '';
    if (event.type === 'message_start') {
      if (!this.started) this.start(event.id);
      return '';
    }
    if (!this.started) this.start(undefined);
    if (event.type === 'text_delta') return event.text === '' ? '' : this.choice(JSON.stringify(event.text), 'null');
    if (event.type === 'finish') return this.finish(event.reason, event.usage);
    return '';
  }

  /** An error chunk, for a failure after the stream began; the official clients raise it. */
  error(err: GatewayError): string {
    this.finished = true;
    return `data: ${JSON.stringify(renderOpenAIError(err, 'chat-completions').body)}\n\n`;
  }

  private start(id: string | undefined): void {
    this.started = true;
    this.head = `data: {"id":${JSON.stringify(toTextCompletionId(id))},"object":"text_completion","created":${nowSeconds()},"model":${JSON.stringify(this.opts.clientModel)},`;
  }

  private choice(text: string, finishReason: string): string {
    return `${this.head}"choices":[{"text":${text},"index":0,"logprobs":null,"finish_reason":${finishReason}}]}\n\n`;
  }

  private finish(reason: FinishReason, usage: Usage): string {
    this.finished = true;
    let out = this.choice('""', JSON.stringify(toTextFinishReason(reason)));
    if (this.opts.includeUsage) out += `${this.head}"choices":[],"usage":${JSON.stringify(renderTextUsage(usage))}}\n\n`;
    return out + done;
  }
}
