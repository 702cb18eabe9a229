/**
 * The Messages answer, stream-event and error schemas describe both
 * directions: every recorded Anthropic answer and stream event, and every
 * message, event and error the family writes, parse with them, and parsing
 * drops nothing (a field the schema does not name would be stripped).
 */
import { describe, expect, it } from 'vitest';
import type { ChatResponse, Usage } from '../../../src/core/chat.js';
import { GatewayError } from '../../../src/core/errors.js';
import { renderMessagesError } from '../../../src/dialects/messages/errors.js';
import { messageObjectSchema, messagesErrorBodySchema, messagesStreamEventSchema } from '../../../src/dialects/messages/schema.js';
import { renderMessage } from '../../../src/families/messages/from-core.js';
import { MessagesStreamEncoder } from '../../../src/families/messages/stream-encoder.js';
import { encodeAll, readSse, realisticEvents } from '../../families/messages/stream-fixtures.js';
import { fixtureChunks, fixtureFiles, fixtureJson } from '../../upstreams/support/fixtures.js';

function expectWhole(schema: { safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown } }, value: unknown): void {
  const result = schema.safeParse(value);
  expect(result.error).toBeUndefined();
  expect(result.data).toEqual(value);
}

describe('recorded Anthropic answers', () => {
  const files = fixtureFiles('anthropic-messages');

  it('a field the schema does not name is dropped by parsing, so the comparison sees it', () => {
    const event = { type: 'content_block_stop', index: 0, unnamed: 1 };
    expect(messagesStreamEventSchema().parse(event)).not.toEqual(event);
  });

  /** Fields a recording left out where the API writes them (the fixtures README says which). */
  const shortened: Record<string, object> = { 'anthropic-json-tool.1.json': { stop_sequence: null } };

  it.each(files.filter((file) => file.endsWith('.json')))('%s parses as a message object', (file) => {
    expectWhole(messageObjectSchema(), { ...fixtureJson<object>('anthropic-messages', file), ...shortened[file] });
  });

  it.each(files.filter((file) => file.endsWith('.chunks.txt')))('every event of %s parses as a stream event', (file) => {
    for (const event of fixtureChunks('anthropic-messages', file)) expectWhole(messagesStreamEventSchema(), JSON.parse(event));
  });
});

const usage: Usage = { inputTokens: 12, outputTokens: 30, cacheReadTokens: 4, cacheWriteTokens: 8, cacheWrite1hTokens: 8, reasoningTokens: 10 };

describe("the family's answers", () => {
  it('a message with every block it writes parses as a message object', () => {
    const response: ChatResponse = {
      id: 'resp_1',
      model: 'up',
      content: [
        { type: 'thinking', text: 'Let me see.', signature: 'c2ln' },
        { type: 'thinking', text: '', redactedData: 'cmVkYWN0ZWQ=' },
        { type: 'text', text: 'It is sunny.', citations: [{ type: 'web_search_result_location', url: 'https://example.com' }] },
        { type: 'tool_call', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
      ],
      finishReason: 'tool_use',
      stopSequence: null,
      usage,
    };
    expectWhole(messageObjectSchema(), JSON.parse(JSON.stringify(renderMessage(response, 'claude-client'))));
  });

  it('every event the stream encoder writes parses as a stream event, the error event too', () => {
    const events = readSse(encodeAll(realisticEvents));
    expect(events.length).toBeGreaterThan(5);
    for (const event of events) {
      expect(event.data.type).toBe(event.event);
      expectWhole(messagesStreamEventSchema(), event.data);
    }
    const encoder = new MessagesStreamEncoder({ clientModel: 'claude-client' });
    const [failed] = readSse(encoder.error(new GatewayError('overloaded', 'every channel is busy')));
    expectWhole(messagesStreamEventSchema(), failed.data);
  });

  it('error bodies parse as error bodies', () => {
    expectWhole(messagesErrorBodySchema(), renderMessagesError(new GatewayError('rate_limited', 'slow down', { retryAfterSeconds: 3 }), 'req_1').body);
    expectWhole(messagesErrorBodySchema(), renderMessagesError(new GatewayError('invalid_request', 'bad'), 'req_2').body);
  });
});
