/**
 * Fake upstreams of the four wire dialects that report prompt-cache usage as
 * the real services word it, plain and streamed: Anthropic with reads and
 * writes of both lifetimes, OpenAI (chat and responses) and Gemini with reads.
 * Every answer is the text `cached`.
 */
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from '../upstreams/support/fake-upstream.js';

type Json = Record<string, any>;

/** What every fake reports: 10 fresh prompt tokens, 1000 read from the cache, 5 output tokens; Anthropic also writes 100 (5 min) + 200 (1 h). */
export const REPORTED = { fresh: 10, read: 1000, written5m: 100, written1h: 200, output: 5 };

const sse = (frames: Array<[string | undefined, unknown]>, done = false): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'text/event-stream' },
  chunks: [...frames.map(([event, data]) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`), ...(done ? ['data: [DONE]\n\n'] : [])],
});
const json = (body: unknown): FakeReply => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const { fresh, read, written5m, written1h, output } = REPORTED;
const prompt = fresh + read;

function anthropic(request: RecordedRequest): FakeReply {
  const body = request.json<Json>();
  const usage = {
    input_tokens: fresh,
    cache_read_input_tokens: read,
    cache_creation_input_tokens: written5m + written1h,
    cache_creation: { ephemeral_5m_input_tokens: written5m, ephemeral_1h_input_tokens: written1h },
    output_tokens: output,
  };
  const message = { id: 'msg_cache', type: 'message', role: 'assistant', model: body.model, stop_sequence: null };
  if (!body.stream) return json({ ...message, content: [{ type: 'text', text: 'cached' }], stop_reason: 'end_turn', usage });
  return sse([
    ['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'cached' } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: output } }],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

function openAiChat(request: RecordedRequest): FakeReply {
  const body = request.json<Json>();
  const usage = { prompt_tokens: prompt, completion_tokens: output, total_tokens: prompt + output, prompt_tokens_details: { cached_tokens: read } };
  const head = { id: 'chatcmpl-cache', created: 1, model: body.model };
  if (!body.stream) return json({ ...head, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'cached' }, finish_reason: 'stop' }], usage });
  return sse(
    [
      [undefined, { ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: 'cached' } }] }],
      [undefined, { ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }],
      [undefined, { ...head, object: 'chat.completion.chunk', choices: [], usage }],
    ],
    true,
  );
}

function openAiResponses(request: RecordedRequest): FakeReply {
  const body = request.json<Json>();
  const item = { type: 'message', id: 'msg_cache', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'cached', annotations: [] }] };
  const usage = { input_tokens: prompt, input_tokens_details: { cached_tokens: read }, output_tokens: output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: prompt + output };
  const response = { id: 'resp_cache', object: 'response', created_at: 1, status: 'completed', model: body.model, output: [item], usage };
  if (!body.stream) return json(response);
  return sse([
    ['response.created', { type: 'response.created', response: { ...response, status: 'in_progress', output: [], usage: null } }],
    ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } }],
    ['response.content_part.added', { type: 'response.content_part.added', output_index: 0, content_index: 0, part: { type: 'output_text', text: '' } }],
    ['response.output_text.delta', { type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'cached' }],
    ['response.content_part.done', { type: 'response.content_part.done', output_index: 0, content_index: 0 }],
    ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
    ['response.completed', { type: 'response.completed', response }],
  ]);
}

function gemini(request: RecordedRequest): FakeReply {
  const response = {
    candidates: [{ content: { role: 'model', parts: [{ text: 'cached' }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: prompt, cachedContentTokenCount: read, candidatesTokenCount: output, totalTokenCount: prompt + output },
    modelVersion: 'gemini-cache',
    responseId: 'gemini-cache-1',
  };
  return request.url.includes(':streamGenerateContent') ? sse([[undefined, response]]) : json(response);
}

export interface CacheUpstreams {
  anthropic: FakeUpstream;
  openaiChat: FakeUpstream;
  openaiResponses: FakeUpstream;
  gemini: FakeUpstream;
  close(): Promise<void>;
}

export async function startCacheUpstreams(): Promise<CacheUpstreams> {
  const [a, c, r, g] = await Promise.all([startFakeUpstream(anthropic), startFakeUpstream(openAiChat), startFakeUpstream(openAiResponses), startFakeUpstream(gemini)]);
  return { anthropic: a, openaiChat: c, openaiResponses: r, gemini: g, close: async () => void (await Promise.all([a.close(), c.close(), r.close(), g.close()])) };
}
