/**
 * Scripted fake upstreams of the Messages, chat-completions and
 * content-generation dialects for Codex requests translated by the gateway,
 * in one handler that tells the dialect by the path. The script: a
 * conversation whose last turn is a tool result gets a text answer; any other
 * gets one call of the first offered tool it prefers (`exec`, then a
 * namespaced `spawn_agent`, then `exec_command`). Answers are streamed when
 * the request asks for it.
 */
import type { FakeReply, RecordedRequest } from '../../upstreams/support/fake-upstream.js';

type Json = Record<string, any>;

export const FAKE_TEXT = 'The tool said: ok';
const preferred = [(name: string) => name === 'exec', (name: string) => name.endsWith('__spawn_agent'), (name: string) => name === 'exec_command'];

interface Decision {
  tool?: { name: string; args: Json };
}

function decide(names: string[], afterToolResult: boolean): Decision {
  if (afterToolResult) return {};
  for (const wanted of preferred) {
    const name = names.find(wanted);
    if (name) return { tool: { name, args: name === 'exec' ? { input: 'text("ok")' } : { cmd: 'echo ok', message: 'go' } } };
  }
  return {};
}

export function codexFake(request: RecordedRequest): FakeReply {
  const body = request.json<Json>();
  if (request.url.startsWith('/v1/messages')) return anthropic(body);
  if (request.url.includes('/chat/completions')) return chat(body);
  if (request.url.includes(':streamGenerateContent') || request.url.includes(':generateContent')) return gemini(body, request.url.includes(':stream'));
  return { status: 404, body: 'no such route' };
}

const sse = (events: Array<[string | undefined, Json | string]>): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'text/event-stream' },
  chunks: events.map(([event, data]) => `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`),
});

const json = (value: Json): FakeReply => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });

function anthropic(body: Json): FakeReply {
  const last = body.messages.at(-1);
  const afterResult = Array.isArray(last.content) && last.content.some((block: Json) => block.type === 'tool_result');
  const { tool } = decide(
    (body.tools ?? []).map((t: Json) => t.name),
    afterResult,
  );
  const block = tool ? { type: 'tool_use', id: 'toolu_1', name: tool.name, input: tool.args } : { type: 'text', text: FAKE_TEXT };
  const usage = { input_tokens: 50, output_tokens: 7 };
  const message = { id: 'msg_fake', type: 'message', role: 'assistant', model: body.model, stop_sequence: null };
  const stop = tool ? 'tool_use' : 'end_turn';
  if (!body.stream) return json({ ...message, content: [block], stop_reason: stop, usage });
  const delta = tool ? { type: 'input_json_delta', partial_json: JSON.stringify(tool.args) } : { type: 'text_delta', text: FAKE_TEXT };
  const start = tool ? { ...block, input: {} } : { type: 'text', text: '' };
  return sse([
    ['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 50, output_tokens: 1 } } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: start }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 7 } }],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

function chat(body: Json): FakeReply {
  const afterResult = body.messages.at(-1)?.role === 'tool';
  const { tool } = decide(
    (body.tools ?? []).map((t: Json) => t.function.name),
    afterResult,
  );
  const call = tool && { index: 0, id: 'call_fake', type: 'function', function: { name: tool.name, arguments: JSON.stringify(tool.args) } };
  const finish = tool ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 50, completion_tokens: 7, total_tokens: 57 };
  const base = { id: 'chatcmpl-fake', created: 1, model: body.model };
  if (!body.stream) {
    const message = tool ? { role: 'assistant', content: null, tool_calls: [call] } : { role: 'assistant', content: FAKE_TEXT };
    return json({ ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage });
  }
  const delta = tool ? { role: 'assistant', tool_calls: [call] } : { role: 'assistant', content: FAKE_TEXT };
  return sse([
    [undefined, { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] }],
    [undefined, { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: finish }] }],
    [undefined, { ...base, object: 'chat.completion.chunk', choices: [], usage }],
    [undefined, '[DONE]'],
  ]);
}

function gemini(body: Json, stream: boolean): FakeReply {
  const afterResult = (body.contents.at(-1)?.parts ?? []).some((part: Json) => part.functionResponse);
  const names = (body.tools ?? []).flatMap((t: Json) => (t.functionDeclarations ?? []).map((d: Json) => d.name));
  const { tool } = decide(names, afterResult);
  const part = tool ? { functionCall: { name: tool.name, args: tool.args } } : { text: FAKE_TEXT };
  const answer = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 7, totalTokenCount: 57 },
    modelVersion: 'gemini-fake',
  };
  return stream ? sse([[undefined, answer]]) : json(answer);
}
