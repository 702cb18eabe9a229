/**
 * Scripted fake upstreams of four wire dialects for agent-loop tests: each
 * answers the way a coding agent's tool loop expects. A request whose last
 * turn carries a tool result gets text quoting it; a request whose prompt
 * asks for the shell (`USE_SHELL`) and offers `run_shell_command` gets one
 * call of it; anything else gets a greeting. Plain or streamed, as asked.
 */
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from '../upstreams/support/fake-upstream.js';

export const SHELL_TOOL = 'run_shell_command';
export const SHELL_ARGS = { command: 'echo SWITCHYARD_TOOL_OK' };
export const SIGNATURE = 'c2NyaXB0ZWQtc2lnbmF0dXJl';

type Answer = { kind: 'text'; text: string } | { kind: 'call' };
type Json = Record<string, any>;

function decide(bodyText: string, toolResult: boolean): Answer {
  if (toolResult) return { kind: 'text', text: 'The command printed SWITCHYARD_TOOL_OK.' };
  if (bodyText.includes('USE_SHELL') && bodyText.includes(SHELL_TOOL)) return { kind: 'call' };
  return { kind: 'text', text: 'Hello from the scripted upstream.' };
}

const sse = (frames: Array<[string | undefined, unknown]>, done = false): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'text/event-stream' },
  chunks: [...frames.map(([event, data]) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`), ...(done ? ['data: [DONE]\n\n'] : [])],
});
const json = (body: unknown): FakeReply => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

function gemini(request: RecordedRequest): FakeReply {
  const body = request.json<Json>();
  const last = body.contents.at(-1);
  const answer = decide(
    request.body.toString(),
    last.parts.some((part: Json) => part.functionResponse),
  );
  const parts = answer.kind === 'call' ? [{ functionCall: { name: SHELL_TOOL, args: SHELL_ARGS }, thoughtSignature: SIGNATURE }] : [{ text: answer.text }];
  const response = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 6, thoughtsTokenCount: 4, totalTokenCount: 30 },
    modelVersion: 'scripted-gemini',
    responseId: 'scripted-gemini-1',
  };
  return request.url.includes(':streamGenerateContent') ? sse([[undefined, response]]) : json(response);
}

function anthropic(request: RecordedRequest): FakeReply {
  const body = request.json<Json>();
  const last = body.messages.at(-1);
  const toolResult = Array.isArray(last.content) && last.content.some((block: Json) => block.type === 'tool_result');
  const answer = decide(request.body.toString(), toolResult);
  const block = answer.kind === 'call' ? { type: 'tool_use', id: 'toolu_scripted_1', name: SHELL_TOOL, input: SHELL_ARGS } : { type: 'text', text: answer.text };
  const stopReason = answer.kind === 'call' ? 'tool_use' : 'end_turn';
  const message = { id: 'msg_scripted', type: 'message', role: 'assistant', model: body.model, stop_sequence: null, usage: { input_tokens: 20, output_tokens: 10 } };
  if (!body.stream) return json({ ...message, content: [block], stop_reason: stopReason });
  const delta = answer.kind === 'call' ? { type: 'input_json_delta', partial_json: JSON.stringify(SHELL_ARGS) } : { type: 'text_delta', text: answer.text };
  const start = answer.kind === 'call' ? { ...block, input: {} } : { type: 'text', text: '' };
  return sse([
    ['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 20, output_tokens: 1 } } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: start }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 10 } }],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

function openAiChat(request: RecordedRequest): FakeReply {
  const body = request.json<Json>();
  const answer = decide(request.body.toString(), body.messages.at(-1).role === 'tool');
  const call = { id: 'call_scripted_1', type: 'function', function: { name: SHELL_TOOL, arguments: JSON.stringify(SHELL_ARGS) } };
  const message = answer.kind === 'call' ? { role: 'assistant', content: null, tool_calls: [call] } : { role: 'assistant', content: answer.text };
  const finish = answer.kind === 'call' ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 };
  const head = { id: 'chatcmpl-scripted', object: 'chat.completion', model: body.model };
  if (!body.stream) return json({ ...head, choices: [{ index: 0, message, finish_reason: finish }], usage });
  const delta = answer.kind === 'call' ? { role: 'assistant', tool_calls: [{ index: 0, ...call }] } : message;
  return sse(
    [
      [undefined, { ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta }] }],
      [undefined, { ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: finish }] }],
      [undefined, { ...head, object: 'chat.completion.chunk', choices: [], usage }],
    ],
    true,
  );
}

function openAiResponses(request: RecordedRequest): FakeReply {
  const body = request.json<Json>();
  const input = Array.isArray(body.input) ? body.input : [];
  const answer = decide(request.body.toString(), input.at(-1)?.type === 'function_call_output');
  const item =
    answer.kind === 'call'
      ? { type: 'function_call', id: 'fc_scripted', call_id: 'call_scripted_1', name: SHELL_TOOL, arguments: JSON.stringify(SHELL_ARGS), status: 'completed' }
      : { type: 'message', id: 'msg_scripted', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: answer.text, annotations: [] }] };
  const usage = { input_tokens: 20, output_tokens: 10, total_tokens: 30, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };
  const response = { id: 'resp_scripted', object: 'response', status: 'completed', model: body.model, output: [item], usage };
  if (!body.stream) return json(response);
  const frames: Array<[string, unknown]> = [['response.created', { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } }]];
  if (answer.kind === 'call') {
    frames.push(['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: { ...item, arguments: '' } }]);
    frames.push(['response.function_call_arguments.delta', { type: 'response.function_call_arguments.delta', output_index: 0, delta: item.arguments }]);
  } else {
    frames.push(['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } }]);
    frames.push(['response.content_part.added', { type: 'response.content_part.added', output_index: 0, content_index: 0, part: { type: 'output_text', text: '' } }]);
    frames.push(['response.output_text.delta', { type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: (answer as { text: string }).text }]);
    frames.push(['response.content_part.done', { type: 'response.content_part.done', output_index: 0, content_index: 0 }]);
  }
  frames.push(['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }]);
  frames.push(['response.completed', { type: 'response.completed', response }]);
  return sse(frames);
}

export interface AgentUpstreams {
  gemini: FakeUpstream;
  anthropic: FakeUpstream;
  openaiChat: FakeUpstream;
  openaiResponses: FakeUpstream;
  close(): Promise<void>;
}

export async function startAgentUpstreams(): Promise<AgentUpstreams> {
  const [g, a, c, r] = await Promise.all([startFakeUpstream(gemini), startFakeUpstream(anthropic), startFakeUpstream(openAiChat), startFakeUpstream(openAiResponses)]);
  return {
    gemini: g,
    anthropic: a,
    openaiChat: c,
    openaiResponses: r,
    close: async () => {
      await Promise.all([g.close(), a.close(), c.close(), r.close()]);
    },
  };
}
