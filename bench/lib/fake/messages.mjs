/** Anthropic Messages answers (`POST …/v1/messages`), built once. */
import { asBuffers, namedEvent } from './sse.mjs';

const usage = { input_tokens: 8, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

export const messagesJson = Buffer.from(
  JSON.stringify({
    id: 'msg_bench_0001',
    type: 'message',
    role: 'assistant',
    model: 'pass-model',
    content: [{ type: 'text', text: 'Hello from the fake upstream.' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage,
  }),
);

/** Nine events: start, block start, ping, three text deltas, block stop, delta with usage, stop. */
export const messagesStream = asBuffers([
  namedEvent('message_start', {
    type: 'message_start',
    message: {
      id: 'msg_bench_0001',
      type: 'message',
      role: 'assistant',
      model: 'pass-model',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  }),
  namedEvent('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  namedEvent('ping', { type: 'ping' }),
  ...['Hello', ' from the', ' fake upstream.'].map((text) => namedEvent('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })),
  namedEvent('content_block_stop', { type: 'content_block_stop', index: 0 }),
  namedEvent('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 7 },
  }),
  namedEvent('message_stop', { type: 'message_stop' }),
]);
