/**
 * Answers of the openai-responses upstream holding records of its own web
 * searches (the `web_search` tool a translated request mapped to), plain and
 * streamed: the records are skipped, the text and usage come through, and
 * output tokens never count below reasoning tokens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat.js';
import { openAiResponsesAdapter } from '../../../src/upstreams/openai-responses/index.js';
import { usageFromResponses } from '../../../src/dialects/responses/usage.js';
import { testCall, sendChat } from '../support/call.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { asFolded, collect, foldEvents } from '../support/fold-events.js';

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());

const searchRecord = { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'weather paris' } };
const message = {
  id: 'msg_1',
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text: 'Sunny.', annotations: [{ type: 'url_citation', start_index: 0, end_index: 6, url: 'https://example.com', title: 'x' }] }],
};
const usage = { input_tokens: 20, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 9 } };
const response = { id: 'resp_1', object: 'response', model: 'gpt-x', status: 'completed', output: [searchRecord, message], usage };

function request(stream: boolean): ChatRequest {
  return {
    model: 'gpt-x',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'weather?' }] }],
    tools: [{ type: 'builtin', dialect: 'messages', kind: 'web_search_20250305', capability: 'web_search', raw: { type: 'web_search_20250305', name: 'web_search' } }],
    stream,
  };
}

function sse(events: Array<Record<string, unknown>>): string[] {
  return events.map((event, i) => `event: ${event.type as string}\ndata: ${JSON.stringify({ ...event, sequence_number: i })}\n\n`);
}

describe('openai-responses answers with web_search_call records', () => {
  it('plain: the record is skipped, the text kept, output counted at least as reasoning', async () => {
    upstream.reply({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(response) });
    const result = await sendChat(openAiResponsesAdapter, request(false), testCall({ baseUrl: `${upstream.origin}/v1` }));
    const folded = result.stream ? foldEvents(await collect(result.events)) : asFolded(result.response);
    expect(folded.content).toEqual([{ type: 'text', text: 'Sunny.' }]);
    expect(folded.finishReason).toBe('stop');
    expect(folded.usage).toMatchObject({ outputTokens: 9, reasoningTokens: 9 });
    expect(upstream.requests.at(-1)?.json<{ tools: unknown[] }>().tools).toEqual([{ type: 'web_search' }]);
  });

  it('streamed: search events and items make no blocks', async () => {
    const scope = { output_index: 0, item_id: 'ws_1' };
    upstream.reply({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      chunks: sse([
        { type: 'response.created', response: { ...response, status: 'in_progress', output: [], usage: null } },
        { type: 'response.output_item.added', output_index: 0, item: { ...searchRecord, status: 'in_progress' } },
        { type: 'response.web_search_call.in_progress', ...scope },
        { type: 'response.web_search_call.searching', ...scope },
        { type: 'response.web_search_call.completed', ...scope },
        { type: 'response.output_item.done', output_index: 0, item: searchRecord },
        { type: 'response.output_item.added', output_index: 1, item: { ...message, status: 'in_progress', content: [] } },
        { type: 'response.content_part.added', item_id: 'msg_1', output_index: 1, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } },
        { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 1, content_index: 0, delta: 'Sunny.' },
        { type: 'response.output_text.annotation.added', item_id: 'msg_1', output_index: 1, content_index: 0, annotation_index: 0, annotation: message.content[0].annotations[0] },
        { type: 'response.output_text.done', item_id: 'msg_1', output_index: 1, content_index: 0, text: 'Sunny.' },
        { type: 'response.content_part.done', item_id: 'msg_1', output_index: 1, content_index: 0, part: message.content[0] },
        { type: 'response.output_item.done', output_index: 1, item: message },
        { type: 'response.completed', response },
      ]),
    });
    const result = await sendChat(openAiResponsesAdapter, request(true), testCall({ baseUrl: `${upstream.origin}/v1` }));
    expect(result.stream).toBe(true);
    const folded = foldEvents(await collect((result as { events: AsyncIterable<never> }).events));
    expect(folded.content).toEqual([{ type: 'text', text: 'Sunny.' }]);
    expect(folded.usage).toMatchObject({ inputTokens: 20, outputTokens: 9, reasoningTokens: 9 });
  });

  it('usage: reasoning tokens are part of the output tokens', () => {
    expect(usageFromResponses({ input_tokens: 1, output_tokens: 30, output_tokens_details: { reasoning_tokens: 10 } })).toMatchObject({ outputTokens: 30, reasoningTokens: 10 });
    expect(usageFromResponses({ input_tokens: 1, output_tokens: 0, output_tokens_details: { reasoning_tokens: 10 } })).toMatchObject({ outputTokens: 10 });
  });
});
