/**
 * One fake upstream of the Messages, chat-completions and content-generation
 * dialects (told apart by the path) that always answers the same text, plain
 * or streamed as asked: the summary a compaction gets.
 */
import type { FakeReply, RecordedRequest } from '../upstreams/support/fake-upstream.js';

type Json = Record<string, any>;

export const SUMMARY = 'SUMMARY: goal echo SWITCHYARD_TOOL_OK; done; next: report it.';

const sse = (events: Array<[string | undefined, Json | string]>): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'text/event-stream' },
  chunks: events.map(([event, data]) => `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`),
});

const json = (value: Json): FakeReply => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });

export function summaryUpstream(request: RecordedRequest): FakeReply {
  const body = request.json<Json>();
  if (request.url.startsWith('/v1/messages')) return anthropic(body);
  if (request.url.includes('/chat/completions')) return chat(body);
  if (request.url.includes(':streamGenerateContent') || request.url.includes(':generateContent')) return gemini(request.url.includes(':stream'));
  return { status: 404, body: 'no such route' };
}

function anthropic(body: Json): FakeReply {
  const message = { id: 'msg_fake', type: 'message', role: 'assistant', model: body.model, stop_sequence: null };
  if (!body.stream) return json({ ...message, content: [{ type: 'text', text: SUMMARY }], stop_reason: 'end_turn', usage: { input_tokens: 80, output_tokens: 20 } });
  return sse([
    ['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 80, output_tokens: 1 } } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: SUMMARY.slice(0, 10) } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: SUMMARY.slice(10) } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 20 } }],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

function chat(body: Json): FakeReply {
  const base = { id: 'chatcmpl-fake', created: 1, model: body.model };
  const usage = { prompt_tokens: 80, completion_tokens: 20, total_tokens: 100 };
  if (!body.stream) return json({ ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: SUMMARY }, finish_reason: 'stop' }], usage });
  return sse([
    [undefined, { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: SUMMARY }, finish_reason: null }] }],
    [undefined, { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }],
    [undefined, { ...base, object: 'chat.completion.chunk', choices: [], usage }],
    [undefined, '[DONE]'],
  ]);
}

function gemini(stream: boolean): FakeReply {
  const answer = {
    candidates: [{ content: { role: 'model', parts: [{ text: SUMMARY }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 80, candidatesTokenCount: 20, totalTokenCount: 100 },
    modelVersion: 'gemini-fake',
  };
  return stream ? sse([[undefined, answer]]) : json(answer);
}
