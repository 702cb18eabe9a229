/**
 * Encodes internal ChatEvents as Messages server-sent events, ready to write.
 *
 * The official clients need more than the spec draws: `event:` lines, a
 * `usage` object in `message_start`, and `usage` beside (not only inside) the
 * `delta` of `message_delta`. The encoder also repairs streams that skip
 * `message_start` or leave a block open at `finish`. Delta events, the bulk of
 * a stream, are written by hand to spare an object and a generic stringify each.
 */
import type { BlockStart, ChatEvent, FinishReason, Usage } from '../../core/chat.js';
import type { GatewayError } from '../../core/errors.js';
import { messagesErrorObject } from '../../dialects/messages/errors.js';
import { toMessageId } from './message-id.js';
import { toStopReason, toStopSequence } from '../../dialects/messages/finish-reason.js';
import { renderUsage } from '../../dialects/messages/usage.js';
import type { MessagesContentBlock, MessagesStreamEvent } from '../../dialects/messages/wire.js';

type Event<T extends MessagesStreamEvent['type']> = Extract<MessagesStreamEvent, { type: T }>;

export interface MessagesStreamEncoderOptions {
  /** The model name the client asked for; echoed in `message_start`. */
  clientModel: string;
  /** Used when the upstream gives no message id. */
  messageId?: string;
  /** Input tokens to report in `message_start` when the upstream reports none there. */
  inputTokensEstimate?: number;
}

const ping = 'event: ping\ndata: {"type":"ping"}\n\n';
const messageStop = 'event: message_stop\ndata: {"type":"message_stop"}\n\n';

function sse(type: string, data: object): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

function delta(index: number, body: string): string {
  return `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":${body}}\n\n`;
}

function blockStop(index: number): string {
  return `event: content_block_stop\ndata: {"type":"content_block_stop","index":${index}}\n\n`;
}

export class MessagesStreamEncoder {
  private started = false;
  private finished = false;
  private readonly openBlocks = new Set<number>();

  constructor(private readonly opts: MessagesStreamEncoderOptions) {}

  /** The SSE text for one event; empty when the event adds nothing (a repeated start, anything after finish). */
  encode(event: ChatEvent): string {
    if (this.finished) return '';
    if (event.type === 'message_start') return this.started ? '' : this.start(event.id, event.usage);
    const prefix = this.started ? '' : this.start(undefined, undefined);
    switch (event.type) {
      case 'block_start':
        this.openBlocks.add(event.index);
        return (
          prefix +
          sse('content_block_start', {
            type: 'content_block_start',
            index: event.index,
            content_block: startBlock(event.block),
          })
        );
      case 'text_delta':
        return prefix + delta(event.index, `{"type":"text_delta","text":${JSON.stringify(event.text)}}`);
      case 'thinking_delta':
        return prefix + delta(event.index, `{"type":"thinking_delta","thinking":${JSON.stringify(event.text)}}`);
      case 'signature_delta':
        return prefix + delta(event.index, `{"type":"signature_delta","signature":${JSON.stringify(event.signature)}}`);
      case 'tool_input_delta':
        return prefix + delta(event.index, `{"type":"input_json_delta","partial_json":${JSON.stringify(event.json)}}`);
      case 'block_stop':
        this.openBlocks.delete(event.index);
        return prefix + blockStop(event.index);
      case 'finish':
        return prefix + this.finish(event.reason, event.stopSequence, event.usage);
    }
  }

  /** An `error` event, for a failure after the response headers were sent. */
  error(err: GatewayError): string {
    this.finished = true;
    return sse('error', { type: 'error', error: messagesErrorObject(err) });
  }

  private start(id: string | undefined, usage: Partial<Usage> | undefined): string {
    this.started = true;
    const startUsage = renderUsage(usage);
    if (usage?.inputTokens === undefined && this.opts.inputTokensEstimate !== undefined) {
      startUsage.input_tokens = this.opts.inputTokensEstimate;
    }
    const message: Event<'message_start'>['message'] = {
      id: toMessageId(id ?? this.opts.messageId),
      type: 'message',
      role: 'assistant',
      model: this.opts.clientModel,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: startUsage,
    };
    return sse('message_start', { type: 'message_start', message }) + ping;
  }

  private finish(reason: FinishReason, stopSequence: string | null | undefined, usage: Usage): string {
    this.finished = true;
    let out = '';
    // Blocks left open by the upstream are closed in index order before the message ends.
    for (const index of [...this.openBlocks].sort((a, b) => a - b)) out += blockStop(index);
    this.openBlocks.clear();
    const finalUsage = renderUsage(usage);
    const messageDelta: Event<'message_delta'> = {
      type: 'message_delta',
      delta: {
        stop_reason: toStopReason(reason),
        stop_sequence: toStopSequence(reason, stopSequence),
        usage: finalUsage,
      },
      usage: finalUsage,
    };
    return out + sse('message_delta', messageDelta) + messageStop;
  }
}

function startBlock(block: BlockStart): MessagesContentBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: '' };
    case 'thinking':
      return { type: 'thinking', thinking: '', signature: '' };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    case 'tool_call':
      return { type: 'tool_use', id: block.id, name: block.name, input: {} };
  }
}
