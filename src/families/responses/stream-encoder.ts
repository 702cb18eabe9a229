/**
 * Encodes internal ChatEvents as Responses server-sent events, in the order
 * the official clients check strictly: `response.created` first, then items
 * appended in `output_index` order, each opened by `output_item.added` (with a
 * non-empty id) and closed by `output_item.done` repeating its identity, every
 * item-scoped event carrying the item's id, `content_index` appended in order,
 * a `sequence_number` on every event, and always a terminal event
 * (`response.completed`, `response.incomplete` or `response.failed`) with the
 * full object and its usage.
 *
 * Consecutive text blocks share one message item (one content part each);
 * item grouping and tool names follow from-core.ts. A custom tool call's
 * input is known whole only when its block ends (the upstream streams the
 * JSON of its stand-in function), so it goes out as one delta then. The frame of the `finish` event is
 * returned once the answer is recorded (see exchange.ts).
 */
import type { BlockStart, ChatEvent, FinishReason, Usage } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { thinkingProof } from './encrypted.js';
import { responseErrorCode, openAIErrorObject } from '../../dialects/openai/errors.js';
import type { ResponsesExchange } from './exchange.js';
import { customInput, customToolCallItem, functionCallItem, newMessageItem, outputText, reasoningItem } from './from-core.js';
import { visibleItem } from './items.js';
import { finishResponse } from './response-object.js';
import type {
  CustomToolCallOutputItem,
  FunctionCallOutputItem,
  MessageOutputItem,
  OutputItem,
  OutputTextContent,
  ReasoningOutputItem,
  ResponseObject,
  ResponsesStreamEventOf,
  ResponsesStreamEventType,
} from '../../dialects/responses/wire.js';

type Block =
  | { kind: 'text'; item: MessageOutputItem; outputIndex: number; contentIndex: number; part: OutputTextContent; open: boolean }
  | { kind: 'reasoning'; item: ReasoningOutputItem; outputIndex: number; text: string; signature?: string; redacted?: string; open: boolean; summaryOpen: boolean }
  | { kind: 'tool'; item: FunctionCallOutputItem; outputIndex: number; args: string; open: boolean }
  | { kind: 'custom'; item: CustomToolCallOutputItem; outputIndex: number; args: string; open: boolean };

const terminalEvent: Record<ResponseObject['status'], ResponsesStreamEventType> = {
  completed: 'response.completed',
  incomplete: 'response.incomplete',
  failed: 'response.failed',
  in_progress: 'response.completed',
  queued: 'response.completed',
  cancelled: 'response.failed',
};

export class ResponsesStreamEncoder {
  private started = false;
  private finished = false;
  private readonly response: ResponseObject;
  private readonly output: OutputItem[] = [];
  private readonly blocks = new Map<number, Block>();
  /** The message item text blocks are currently appended to. */
  private message: { item: MessageOutputItem; outputIndex: number } | undefined;

  constructor(private readonly exchange: ResponsesExchange) {
    this.response = exchange.base();
    // An encoder made after events already went out (a pass-through that broke) only reports the failure.
    this.started = exchange.sequence > 0;
  }

  encode(event: ChatEvent): string | Promise<string> {
    if (this.finished) return '';
    const prefix = this.started ? '' : this.start();
    switch (event.type) {
      case 'message_start':
        return prefix;
      case 'block_start':
        return prefix + this.startBlock(event.index, event.block);
      case 'text_delta': {
        const block = this.blocks.get(event.index);
        if (block?.kind !== 'text') return prefix;
        block.part.text += event.text;
        return (
          prefix +
          this.frame('response.output_text.delta', {
            item_id: block.item.id,
            output_index: block.outputIndex,
            content_index: block.contentIndex,
            delta: event.text,
            logprobs: [],
          })
        );
      }
      case 'thinking_delta':
        return prefix + this.thinkingDelta(event.index, event.text);
      case 'signature_delta': {
        const block = this.blocks.get(event.index);
        if (block?.kind === 'reasoning') block.signature = (block.signature ?? '') + event.signature;
        return prefix;
      }
      case 'tool_input_delta': {
        const block = this.blocks.get(event.index);
        if (block?.kind === 'custom') block.args += event.json;
        if (block?.kind !== 'tool') return prefix;
        block.args += event.json;
        return (
          prefix +
          this.frame('response.function_call_arguments.delta', {
            item_id: block.item.id,
            output_index: block.outputIndex,
            delta: event.json,
          })
        );
      }
      case 'block_stop':
        return prefix + this.stopBlock(event.index);
      case 'finish':
        return this.finish(prefix, event.reason, event.usage);
    }
  }

  /** A failure after the stream began: an `error` event, then `response.failed` with what was produced. */
  error(err: GatewayError): string {
    if (this.finished) return '';
    const prefix = this.started ? '' : this.start();
    this.finished = true;
    const error = openAIErrorObject(err);
    const frames = this.frame('error', { code: error.code, message: error.message, param: error.param, error });
    this.response.status = 'failed';
    this.response.error = { code: responseErrorCode(err), message: error.message };
    this.response.output = this.output;
    return prefix + frames + this.frame('response.failed', { response: this.exchange.visible(this.response) });
  }

  /** A stream that ended without its finish event still gets a terminal event. */
  close(): string {
    if (this.finished) return '';
    return this.error(new GatewayError('upstream_error', 'upstream stream ended before the answer was complete'));
  }

  private start(): string {
    this.started = true;
    const response = this.exchange.visible(this.response);
    return this.frame('response.created', { response }) + this.frame('response.in_progress', { response });
  }

  private startBlock(index: number, start: BlockStart): string {
    if (start.type === 'text') return this.startText(index);
    let out = this.closeMessage();
    const outputIndex = this.output.length;
    if (start.type === 'tool_call') {
      const identity = this.exchange.toolNames.identity(start.name);
      const item = identity.custom ? customToolCallItem(start.id, identity, '') : functionCallItem(start.id, identity, '');
      item.status = 'in_progress';
      this.output.push(item);
      if (item.type === 'custom_tool_call') this.blocks.set(index, { kind: 'custom', item, outputIndex, args: '', open: true });
      else this.blocks.set(index, { kind: 'tool', item, outputIndex, args: '', open: true });
      return out + this.frame('response.output_item.added', { output_index: outputIndex, item: { ...item } });
    }
    const item = reasoningItem({ type: 'thinking', text: '' }, { summaries: false });
    this.output.push(item);
    const redacted = start.type === 'redacted_thinking' ? start.data : undefined;
    this.blocks.set(index, { kind: 'reasoning', item, outputIndex, text: '', redacted, open: true, summaryOpen: false });
    out += this.frame('response.output_item.added', { output_index: outputIndex, item: { ...item, summary: [] } });
    return out;
  }

  private startText(index: number): string {
    let out = '';
    if (!this.message) {
      const item = newMessageItem('in_progress');
      this.message = { item, outputIndex: this.output.length };
      this.output.push(item);
      out += this.frame('response.output_item.added', { output_index: this.message.outputIndex, item: { ...item, content: [] } });
    }
    const { item, outputIndex } = this.message;
    const part = outputText('');
    const contentIndex = item.content.length;
    item.content.push(part);
    this.blocks.set(index, { kind: 'text', item, outputIndex, contentIndex, part, open: true });
    return out + this.frame('response.content_part.added', { item_id: item.id, output_index: outputIndex, content_index: contentIndex, part: outputText('') });
  }

  private thinkingDelta(index: number, text: string): string {
    const block = this.blocks.get(index);
    if (block?.kind !== 'reasoning') return '';
    block.text += text;
    if (!this.exchange.summaries) return '';
    let out = '';
    const scope = { item_id: block.item.id, output_index: block.outputIndex, summary_index: 0 };
    if (!block.summaryOpen) {
      block.summaryOpen = true;
      out += this.frame('response.reasoning_summary_part.added', { ...scope, part: { type: 'summary_text', text: '' } });
    }
    return out + this.frame('response.reasoning_summary_text.delta', { ...scope, delta: text });
  }

  private stopBlock(index: number): string {
    const block = this.blocks.get(index);
    if (!block?.open) return '';
    block.open = false;
    switch (block.kind) {
      case 'text': {
        const scope = { item_id: block.item.id, output_index: block.outputIndex, content_index: block.contentIndex };
        return this.frame('response.output_text.done', { ...scope, text: block.part.text, logprobs: [] }) + this.frame('response.content_part.done', { ...scope, part: block.part });
      }
      case 'tool': {
        const { item } = block;
        item.arguments = block.args === '' ? '{}' : block.args;
        item.status = 'completed';
        const scope = { item_id: item.id, output_index: block.outputIndex };
        return this.frame('response.function_call_arguments.done', { ...scope, name: item.name, arguments: item.arguments }) + this.itemDone(item, block.outputIndex);
      }
      case 'custom':
        return this.stopCustom(block);
      case 'reasoning':
        return this.stopReasoning(block);
    }
  }

  private stopCustom(block: Extract<Block, { kind: 'custom' }>): string {
    const { item } = block;
    item.input = customInput(parseArgs(block.args));
    item.status = 'completed';
    const scope = { item_id: item.id, output_index: block.outputIndex };
    let out = item.input === '' ? '' : this.frame('response.custom_tool_call_input.delta', { ...scope, delta: item.input });
    out += this.frame('response.custom_tool_call_input.done', { ...scope, input: item.input });
    return out + this.itemDone(item, block.outputIndex);
  }

  private stopReasoning(block: Extract<Block, { kind: 'reasoning' }>): string {
    const { item } = block;
    let out = '';
    if (block.summaryOpen) {
      const scope = { item_id: item.id, output_index: block.outputIndex, summary_index: 0 };
      const part = { type: 'summary_text' as const, text: block.text };
      item.summary = [part];
      out += this.frame('response.reasoning_summary_text.done', { ...scope, text: block.text }) + this.frame('response.reasoning_summary_part.done', { ...scope, part });
    }
    const proof = thinkingProof({ signature: block.signature, redactedData: block.redacted });
    if (proof !== undefined) item.encrypted_content = proof;
    return out + this.itemDone(item, block.outputIndex);
  }

  private closeMessage(status: MessageOutputItem['status'] = 'completed'): string {
    if (!this.message) return '';
    const { item, outputIndex } = this.message;
    this.message = undefined;
    let out = '';
    for (const [index, block] of this.blocks) if (block.kind === 'text' && block.open && block.item === item) out += this.stopBlock(index);
    item.status = status;
    return out + this.itemDone(item, outputIndex);
  }

  private itemDone(item: OutputItem, outputIndex: number): string {
    return this.frame('response.output_item.done', { output_index: outputIndex, item: visibleItem(item, this.exchange.include) });
  }

  private finish(prefix: string, reason: FinishReason, usage: Usage): Promise<string> | string {
    this.finished = true;
    let out = prefix;
    // Blocks the upstream left open are closed in the order they started.
    for (const [index, block] of [...this.blocks].sort(([a], [b]) => a - b)) if (block.open && block.kind !== 'text') out += this.stopBlock(index);
    if (reason === 'refusal' && !this.output.some((item) => item.type === 'message')) {
      const item = newMessageItem('in_progress');
      const outputIndex = this.output.length;
      this.output.push(item);
      const scope = { item_id: item.id, output_index: outputIndex, content_index: 0 };
      const part = { type: 'refusal' as const, refusal: '' };
      item.content.push(part);
      out += this.frame('response.output_item.added', { output_index: outputIndex, item: { ...item, content: [] } });
      out += this.frame('response.content_part.added', { ...scope, part });
      out += this.frame('response.refusal.done', { ...scope, refusal: '' }) + this.frame('response.content_part.done', { ...scope, part });
      this.message = { item, outputIndex };
    }
    const last = this.output[this.output.length - 1];
    out += this.closeMessage(reason === 'length' && this.message?.item === last ? 'incomplete' : 'completed');
    this.response.output = this.output;
    finishResponse(this.response, reason, usage);
    const response = this.response;
    const frames = out;
    return this.exchange.record(response).then(() => frames + this.frame(terminalEvent[response.status], { response: this.exchange.visible(response) }));
  }

  private frame<T extends ResponsesStreamEventType>(type: T, fields: Omit<ResponsesStreamEventOf<T>, 'type' | 'sequence_number'>): string {
    const data = JSON.stringify({ type, sequence_number: this.exchange.sequence++, ...fields });
    return `event: ${type}\ndata: ${data}\n\n`;
  }
}

/** The streamed JSON of a custom tool's stand-in function; text that is not a JSON object stands for the input itself. */
function parseArgs(json: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(json);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Not JSON: taken as it is.
  }
  return json === '' ? {} : { input: json };
}
