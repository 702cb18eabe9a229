/**
 * Folds a ChatEvent stream into the answer it describes, checking the event
 * discipline on the way: message_start first, blocks numbered from 0 in start
 * order, deltas only inside their open block, exactly one finish, at the end.
 */
import type { ChatEvent, ChatResponse, FinishReason, TextPart, ThinkingPart, ToolCallPart, Usage } from '../../../src/core/chat.js';

export interface FoldedStream {
  id?: string;
  model?: string;
  startUsage?: Partial<Usage>;
  content: Array<TextPart | ThinkingPart | ToolCallPart>;
  finishReason: FinishReason;
  stopSequence?: string | null;
  usage: Usage;
  eventCount: number;
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

export function foldEvents(events: ChatEvent[]): FoldedStream {
  if (events[0]?.type !== 'message_start') throw new Error(`first event is ${events[0]?.type}, not message_start`);
  const start = events[0];
  const content: FoldedStream['content'] = [];
  const toolJson = new Map<number, string>();
  const open = new Set<number>();
  let finish: Extract<ChatEvent, { type: 'finish' }> | undefined;
  for (const event of events.slice(1)) {
    if (finish) throw new Error(`event ${event.type} after finish`);
    switch (event.type) {
      case 'message_start':
        throw new Error('second message_start');
      case 'block_start': {
        if (event.index !== content.length) throw new Error(`block ${event.index} started, expected ${content.length}`);
        const block = event.block;
        if (block.type === 'text') content.push({ type: 'text', text: '' });
        else if (block.type === 'thinking') content.push({ type: 'thinking', text: '' });
        else if (block.type === 'redacted_thinking') content.push({ type: 'thinking', text: '', redactedData: block.data });
        else {
          content.push({ type: 'tool_call', id: block.id, name: block.name, input: {} });
          toolJson.set(event.index, '');
        }
        open.add(event.index);
        break;
      }
      case 'block_stop': {
        if (!open.delete(event.index)) throw new Error(`block_stop for block ${event.index} that is not open`);
        const json = toolJson.get(event.index);
        if (json !== undefined) (content[event.index] as ToolCallPart).input = json === '' ? {} : JSON.parse(json);
        break;
      }
      case 'finish':
        if (open.size > 0) throw new Error(`finish with open blocks ${[...open]}`);
        finish = event;
        break;
      default: {
        if (!open.has(event.index)) throw new Error(`${event.type} for block ${event.index} that is not open`);
        const part = content[event.index];
        if (event.type === 'text_delta' && part.type === 'text') part.text += event.text;
        else if (event.type === 'thinking_delta' && part.type === 'thinking') part.text += event.text;
        else if (event.type === 'signature_delta' && part.type === 'thinking') part.signature = (part.signature ?? '') + event.signature;
        else if (event.type === 'tool_input_delta' && part.type === 'tool_call') toolJson.set(event.index, toolJson.get(event.index) + event.json);
        else throw new Error(`${event.type} in a ${part.type} block`);
      }
    }
  }
  if (!finish) throw new Error('stream ended without finish');
  return {
    id: start.id,
    model: start.model,
    startUsage: start.usage,
    content,
    finishReason: finish.reason,
    stopSequence: finish.stopSequence,
    usage: finish.usage,
    eventCount: events.length,
  };
}

/** The same shape for a plain answer, to compare both paths with one set of expectations. */
export function asFolded(response: ChatResponse): Pick<FoldedStream, 'content' | 'finishReason' | 'usage'> {
  return { content: response.content, finishReason: response.finishReason, usage: response.usage };
}
