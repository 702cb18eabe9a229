/**
 * The streamed answer to a compaction the gateway performed (see
 * compaction.ts): the upstream's summary is gathered, never shown as text,
 * and the client gets the events Codex reads: `response.created`,
 * `response.in_progress`, then the one `compaction` item
 * (`output_item.added` and `output_item.done`) once the summary is whole,
 * then `response.completed` with the usage. A failure (an upstream that
 * wrote no summary too) gives `error` and `response.failed`, with no
 * compaction item.
 */
import type { ChatEvent, FinishReason, Usage } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { responseErrorCode, openAIErrorObject } from '../../dialects/openai/errors.js';
import type { ResponseObject, ResponsesStreamEventOf, ResponsesStreamEventType } from '../../dialects/responses/wire.js';
import type { ResponsesExchange } from './exchange.js';
import { finishResponse } from './response-object.js';
import type { StreamEncoder } from '../../pipeline/types.js';

export class CompactionStreamEncoder implements StreamEncoder {
  private started: boolean;
  private finished = false;
  private summary = '';
  private readonly response: ResponseObject;

  constructor(private readonly exchange: ResponsesExchange) {
    this.response = exchange.base();
    this.started = exchange.sequence > 0;
  }

  encode(event: ChatEvent): string | Promise<string> {
    if (this.finished) return '';
    const prefix = this.started ? '' : this.start();
    if (event.type === 'text_delta') this.summary += event.text;
    if (event.type === 'finish') return this.finish(prefix, event.reason, event.usage);
    return prefix;
  }

  error(err: GatewayError): string {
    if (this.finished) return '';
    const prefix = this.started ? '' : this.start();
    this.finished = true;
    const error = openAIErrorObject(err);
    this.response.status = 'failed';
    this.response.error = { code: responseErrorCode(err), message: error.message };
    return prefix + this.frame('error', { code: error.code, message: error.message, param: error.param, error }) + this.frame('response.failed', { response: this.response });
  }

  close(): string {
    if (this.finished) return '';
    return this.error(new GatewayError('upstream_error', 'upstream stream ended before the summary was complete'));
  }

  private start(): string {
    this.started = true;
    return this.frame('response.created', { response: this.response }) + this.frame('response.in_progress', { response: this.response });
  }

  private finish(prefix: string, reason: FinishReason, usage: Usage): Promise<string> | string {
    if (this.summary.trim() === '') return prefix + this.error(new GatewayError('upstream_error', 'the upstream wrote no summary for the compaction'));
    this.finished = true;
    const item = this.exchange.compactionOutput(this.summary);
    const frames = prefix + this.frame('response.output_item.added', { output_index: 0, item }) + this.frame('response.output_item.done', { output_index: 0, item });
    this.response.output = [item];
    finishResponse(this.response, reason, usage);
    const response = this.response;
    const terminal = response.status === 'completed' ? 'response.completed' : response.status === 'failed' ? 'response.failed' : 'response.incomplete';
    return this.exchange.record(response).then(() => frames + this.frame(terminal, { response }));
  }

  private frame<T extends ResponsesStreamEventType>(type: T, fields: Omit<ResponsesStreamEventOf<T>, 'type' | 'sequence_number'>): string {
    const data = JSON.stringify({ type, sequence_number: this.exchange.sequence++, ...fields });
    return `event: ${type}\ndata: ${data}\n\n`;
  }
}
