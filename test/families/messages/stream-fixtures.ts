/** ChatEvent sequences and an SSE reader shared by the stream encoder tests. */
import type { ChatEvent } from '../../../src/core/chat.js';
import { MessagesStreamEncoder } from '../../../src/families/messages/stream-encoder.js';

/** Thinking with a signature, text, then a tool call whose input arrives in three pieces. */
export const realisticEvents: ChatEvent[] = [
  { type: 'message_start', id: 'msg_upstream_01', model: 'upstream-model', usage: { inputTokens: 12, outputTokens: 1 } },
  { type: 'block_start', index: 0, block: { type: 'thinking' } },
  { type: 'thinking_delta', index: 0, text: 'The user wants ' },
  { type: 'thinking_delta', index: 0, text: 'the weather.' },
  { type: 'signature_delta', index: 0, signature: 'EqQBCkgIARABGAIiQ' },
  { type: 'block_stop', index: 0 },
  { type: 'block_start', index: 1, block: { type: 'text' } },
  { type: 'text_delta', index: 1, text: 'Let me check ' },
  { type: 'text_delta', index: 1, text: 'that "for" you.\n' },
  { type: 'block_stop', index: 1 },
  { type: 'block_start', index: 2, block: { type: 'tool_call', id: 'toolu_01', name: 'get_weather' } },
  { type: 'tool_input_delta', index: 2, json: '' },
  { type: 'tool_input_delta', index: 2, json: '{"city": "Pa' },
  { type: 'tool_input_delta', index: 2, json: 'ris"}' },
  { type: 'block_stop', index: 2 },
  {
    type: 'finish',
    reason: 'tool_use',
    stopSequence: null,
    usage: { inputTokens: 12, outputTokens: 57, cacheReadTokens: 3, cacheWriteTokens: 4 },
  },
];

export function encodeAll(events: ChatEvent[], opts = { clientModel: 'claude-client' }): string {
  const encoder = new MessagesStreamEncoder(opts);
  return events.map((event) => encoder.encode(event)).join('');
}

export interface SseEvent {
  event: string;
  data: Record<string, any>;
}

/** A strict reader: every event needs exactly one `event:` and one `data:` line, and `type` equal to the name. */
export function readSse(text: string): SseEvent[] {
  if (!text.endsWith('\n\n')) throw new Error('stream must end with a blank line');
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((chunk) => {
      const lines = chunk.split('\n');
      if (lines.length !== 2 || !lines[0].startsWith('event: ') || !lines[1].startsWith('data: ')) {
        throw new Error(`malformed event: ${JSON.stringify(chunk)}`);
      }
      const event = lines[0].slice('event: '.length);
      const data = JSON.parse(lines[1].slice('data: '.length));
      if (data.type !== event) throw new Error(`event ${event} carries type ${data.type}`);
      return { event, data };
    });
}
