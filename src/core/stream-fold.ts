/**
 * The two bridges between plain and streamed answers: fold a stream of
 * ChatEvents into one ChatResponse, and replay a ChatResponse as events.
 */
import type { ChatEvent, ChatResponse, ToolCallPart, Usage } from './chat.js';
import { emptyUsage } from './chat.js';

type FoldedPart = ChatResponse['content'][number];

/** Accumulates events; `result()` is the answer so far (complete after `finish`). */
export class StreamFolder {
  private readonly parts: Array<FoldedPart & { json?: string }> = [];
  private readonly byIndex = new Map<number, FoldedPart & { json?: string }>();
  id = '';
  model = '';
  usage: Usage = emptyUsage();
  finished?: Extract<ChatEvent, { type: 'finish' }>;

  add(event: ChatEvent): void {
    switch (event.type) {
      case 'message_start':
        if (event.id) this.id = event.id;
        if (event.model) this.model = event.model;
        if (event.usage) this.usage = { ...this.usage, ...event.usage };
        break;
      case 'block_start': {
        const block = event.block;
        const part: FoldedPart & { json?: string } =
          block.type === 'text'
            ? { type: 'text', text: '' }
            : block.type === 'thinking'
              ? { type: 'thinking', text: '' }
              : block.type === 'redacted_thinking'
                ? { type: 'thinking', text: '', redactedData: block.data }
                : { type: 'tool_call', id: block.id, name: block.name, input: {}, json: '' };
        this.parts.push(part);
        this.byIndex.set(event.index, part);
        break;
      }
      case 'text_delta':
      case 'thinking_delta': {
        const part = this.byIndex.get(event.index);
        if (part && (part.type === 'text' || part.type === 'thinking')) part.text += event.text;
        break;
      }
      case 'signature_delta': {
        const part = this.byIndex.get(event.index);
        if (part?.type === 'thinking') part.signature = (part.signature ?? '') + event.signature;
        break;
      }
      case 'tool_input_delta': {
        const part = this.byIndex.get(event.index);
        if (part?.type === 'tool_call') part.json = (part.json ?? '') + event.json;
        break;
      }
      case 'block_stop':
        break;
      case 'finish':
        this.finished = event;
        this.usage = event.usage;
        break;
    }
  }

  result(): ChatResponse {
    const content = this.parts.map((part): FoldedPart => {
      if (part.type !== 'tool_call') return part;
      const { json, ...call } = part as ToolCallPart & { json?: string };
      return { ...call, input: json ? (JSON.parse(json) as Record<string, unknown>) : call.input };
    });
    return {
      id: this.id,
      model: this.model,
      content,
      finishReason: this.finished?.reason ?? 'other',
      stopSequence: this.finished?.stopSequence ?? null,
      usage: this.usage,
      ...(this.finished?.unreported ? { usageUnreported: true as const } : {}),
    };
  }
}

export async function foldStream(events: AsyncIterable<ChatEvent>): Promise<ChatResponse> {
  const folder = new StreamFolder();
  for await (const event of events) folder.add(event);
  return folder.result();
}

/** A plain answer as the event sequence a stream of it would have carried. */
export function* responseToEvents(response: ChatResponse): Generator<ChatEvent> {
  yield {
    type: 'message_start',
    id: response.id,
    model: response.model,
    usage: {
      inputTokens: response.usage.inputTokens,
      outputTokens: 0,
      cacheReadTokens: response.usage.cacheReadTokens,
      cacheWriteTokens: response.usage.cacheWriteTokens,
      ...(response.usage.cacheWrite1hTokens === undefined ? {} : { cacheWrite1hTokens: response.usage.cacheWrite1hTokens }),
    },
  };
  let index = 0;
  for (const part of response.content) {
    if (part.type === 'text') {
      yield { type: 'block_start', index, block: { type: 'text' } };
      if (part.text) yield { type: 'text_delta', index, text: part.text };
    } else if (part.type === 'thinking') {
      if (part.redactedData !== undefined) {
        yield { type: 'block_start', index, block: { type: 'redacted_thinking', data: part.redactedData } };
      } else {
        yield { type: 'block_start', index, block: { type: 'thinking' } };
        if (part.text) yield { type: 'thinking_delta', index, text: part.text };
        if (part.signature) yield { type: 'signature_delta', index, signature: part.signature };
      }
    } else {
      yield { type: 'block_start', index, block: { type: 'tool_call', id: part.id, name: part.name } };
      yield { type: 'tool_input_delta', index, json: JSON.stringify(part.input) };
    }
    yield { type: 'block_stop', index };
    index++;
  }
  yield { type: 'finish', reason: response.finishReason, stopSequence: response.stopSequence ?? null, usage: response.usage };
}
