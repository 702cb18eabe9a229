/**
 * Encodes internal ChatEvents as streamed GenerateContent chunks. Each chunk
 * is a whole GenerateContent response holding the new parts; the last one
 * carries `finishReason` and `usageMetadata` (and at least an empty text
 * part, as the service sends). Two framings:
 * - `alt=sse`: `data: <chunk>` and a blank line per chunk; no `event:` lines
 *   and no `[DONE]` (the official client drops the first, fails on the second);
 * - otherwise one JSON array of the chunks, as the service sends it.
 * Text and visible thoughts go out delta by delta; a function call goes out
 * whole when its block ends; enum answers are held until the end to unwrap them.
 */
import type { ChatEvent, FinishReason, Usage } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { unwrapEnumText } from './enum-output.js';
import { googleErrorBody } from '../../dialects/generate/errors.js';
import { isBlocked, toGenerateFinishReason } from '../../dialects/generate/finish-reason.js';
import type { RenderOptions } from './from-core.js';
import { SignatureCarrier, thoughtToken } from './parts.js';
import type { GeminiCandidate, GeminiPart, GeminiResponse } from '../../dialects/generate/wire.js';
import { renderUsageMetadata } from '../../dialects/generate/usage.js';

export interface GenerateStreamOptions extends RenderOptions {
  clientModel: string;
  /** Server-sent events (`alt=sse`); false for the JSON-array form. */
  sse: boolean;
  /** Used when the upstream gives no response id. */
  responseId?: string;
}

type Block = { type: 'text' } | { type: 'thinking'; text: string; signature: string; redactedData?: string } | { type: 'tool_call'; id: string; name: string; json: string };

export class GenerateStreamEncoder {
  private responseId: string;
  private readonly blocks = new Map<number, Block>();
  private readonly signatures = new SignatureCarrier();
  private enumText = '';
  private chunks = 0;
  private opened = false;
  private emittedParts = false;
  private finished = false;

  constructor(private readonly opts: GenerateStreamOptions) {
    this.responseId = opts.responseId ?? '';
  }

  open(): string {
    if (this.opts.sse) return '';
    this.opened = true;
    return '[';
  }

  close(): string {
    return this.opts.sse ? '' : ']';
  }

  encode(event: ChatEvent): string {
    if (this.finished) return '';
    switch (event.type) {
      case 'message_start':
        if (event.id) this.responseId = event.id;
        return '';
      case 'block_start':
        this.blocks.set(event.index, startBlock(event.block));
        return '';
      case 'text_delta':
        if (this.opts.enumOutput) {
          this.enumText += event.text;
          return '';
        }
        return event.text === '' ? '' : this.parts([this.signatures.attach({ text: event.text })]);
      case 'thinking_delta': {
        const block = this.blocks.get(event.index);
        if (block?.type === 'thinking' && !this.opts.includeThoughts) block.text += event.text;
        return this.opts.includeThoughts && event.text !== '' ? this.parts([{ text: event.text, thought: true }]) : '';
      }
      case 'signature_delta': {
        const block = this.blocks.get(event.index);
        if (block?.type === 'thinking') block.signature += event.signature;
        return '';
      }
      case 'tool_input_delta': {
        const block = this.blocks.get(event.index);
        if (block?.type === 'tool_call') block.json += event.json;
        return '';
      }
      case 'block_stop':
        return this.stopBlock(event.index);
      case 'finish':
        return this.finish(event.reason, event.usage);
    }
  }

  /** An error chunk, for a failure after the response began; it also ends the JSON array. */
  error(err: GatewayError): string {
    this.finished = true;
    const json = JSON.stringify(googleErrorBody(err));
    if (this.opts.sse) return `${this.chunks === 0 ? '\r\n\r\n' : ''}data: ${json}\r\n\r\n`;
    // An encoder that did not open the array itself follows bytes it cannot see (pass-through): assume chunks came before.
    const separator = this.opened && this.chunks === 0 ? '' : ',\r\n';
    return `${separator}${json}]`;
  }

  private stopBlock(index: number): string {
    const block = this.blocks.get(index);
    this.blocks.delete(index);
    if (block?.type === 'thinking') {
      const token = thoughtToken({ type: 'thinking', text: block.text, signature: block.signature || undefined, redactedData: block.redactedData }, this.opts.includeThoughts);
      const flushed = this.signatures.hold(token);
      return flushed ? this.parts([flushed]) : '';
    }
    if (block?.type === 'tool_call') {
      const args = parseArguments(block.json, block.name);
      return this.parts([this.signatures.attach({ functionCall: { id: block.id, name: block.name, args } })]);
    }
    return '';
  }

  private finish(reason: FinishReason, usage: Usage): string {
    this.finished = true;
    const parts: GeminiPart[] = [];
    if (this.opts.enumOutput && this.enumText !== '') parts.push(this.signatures.attach({ text: unwrapEnumText(this.enumText) }));
    const rest = this.signatures.flush();
    if (rest) parts.push(rest);
    const usageMetadata = renderUsageMetadata(usage, this.opts.promptMedia);
    if (isBlocked(reason, this.emittedParts || parts.length > 0)) {
      return this.frame({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata, modelVersion: this.opts.clientModel, responseId: this.responseId });
    }
    // Every chunk holds a part: the official client's chat drops a turn whose last chunk has none.
    if (parts.length === 0) parts.push({ text: '' });
    const candidate: GeminiCandidate = { content: { role: 'model', parts }, finishReason: toGenerateFinishReason(reason), index: 0 };
    return this.frame({ candidates: [candidate], usageMetadata, modelVersion: this.opts.clientModel, responseId: this.responseId });
  }

  private parts(parts: GeminiPart[]): string {
    this.emittedParts = true;
    return this.frame({
      candidates: [{ content: { role: 'model', parts }, index: 0 }],
      modelVersion: this.opts.clientModel,
      responseId: this.responseId,
    });
  }

  private frame(chunk: GeminiResponse): string {
    const json = JSON.stringify(chunk);
    const first = this.chunks === 0;
    this.chunks++;
    if (this.opts.sse) return `data: ${json}\r\n\r\n`;
    return first ? json : `,\r\n${json}`;
  }
}

function startBlock(block: Extract<ChatEvent, { type: 'block_start' }>['block']): Block {
  switch (block.type) {
    case 'text':
      return { type: 'text' };
    case 'thinking':
      return { type: 'thinking', text: '', signature: '' };
    case 'redacted_thinking':
      return { type: 'thinking', text: '', signature: '', redactedData: block.data };
    case 'tool_call':
      return { type: 'tool_call', id: block.id, name: block.name, json: '' };
  }
}

function parseArguments(json: string, name: string): Record<string, unknown> {
  if (json === '') return {};
  try {
    return JSON.parse(json) as Record<string, unknown>;
  } catch {
    throw new GatewayError('upstream_error', `upstream returned function call "${name}" with arguments that are not valid JSON`);
  }
}
