/**
 * The answers of the loopback Vertex (fake-vertex.ts) beyond the publishers'
 * generate and rawPredict routes: its OpenAI-compatible endpoint
 * (`endpoints/openapi/chat/completions`, which takes a model named
 * `<publisher>/<model>` and answers as OpenAI does: a tool call when tools are
 * offered and no result came back yet, a stream's usage only when asked for)
 * and Google's embedding models' `:predict` (instances of `content`, one
 * prediction each with its vector and token count).
 */
import type { ScriptedReply } from './fake-vertex.js';

type Body = Record<string, any>;

const json = (status: number, body: unknown): ScriptedReply => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const googleError = (code: number, status: string, message: string) => json(code, { error: { code, message, status } });

export const OPENAPI_TEXT = 'Hello from Llama on Vertex.';
const usage = { prompt_tokens: 13, completion_tokens: 7, total_tokens: 20 };

export function openApiAnswer(body: Body): ScriptedReply {
  if (typeof body.model !== 'string' || !body.model.includes('/'))
    return googleError(400, 'INVALID_ARGUMENT', 'Model name must be in the format publisher/model, e.g. meta/llama-4-maverick-17b-128e-instruct-maas.');
  if (!Array.isArray(body.messages) || body.messages.length === 0) return googleError(400, 'INVALID_ARGUMENT', 'messages must not be empty.');
  const tool: string | undefined = body.tools?.[0]?.function?.name;
  const calls = tool && body.messages.at(-1)?.role !== 'tool' ? tool : undefined;
  const created = 1764000000;
  const id = 'chatcmpl-vertex-1';
  if (body.stream !== true) {
    const message: Body = calls
      ? { role: 'assistant', content: null, tool_calls: [{ id: 'call_vertex_1', type: 'function', function: { name: calls, arguments: '{"city":"Paris"}' } }] }
      : { role: 'assistant', content: OPENAPI_TEXT };
    return json(200, { id, object: 'chat.completion', created, model: body.model, choices: [{ index: 0, message, finish_reason: calls ? 'tool_calls' : 'stop' }], usage });
  }
  const chunk = (delta: Body, finish: string | null = null): Body => ({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] });
  const chunks = [chunk({ role: 'assistant', content: '' })];
  if (calls) chunks.push(chunk({ tool_calls: [{ index: 0, id: 'call_vertex_1', type: 'function', function: { name: calls, arguments: '{"city":"Paris"}' } }] }));
  else for (const piece of OPENAPI_TEXT.match(/.{1,6}/g) ?? []) chunks.push(chunk({ content: piece }));
  chunks.push(chunk({}, calls ? 'tool_calls' : 'stop'));
  if (body.stream_options?.include_usage === true) chunks.push({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage });
  const frames = [...chunks.map((one) => `data: ${JSON.stringify(one)}\n\n`), 'data: [DONE]\n\n'];
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: frames.join('') };
}

/** A vector per instance (halving values, exact as float32), its length the asked `outputDimensionality` (else 4), and the tokens of its text (a word each). */
export function predictAnswer(model: string, body: Body): ScriptedReply {
  if (!/^(text-embedding|gemini-embedding|text-multilingual-embedding)/.test(model)) return googleError(400, 'FAILED_PRECONDITION', `Model ${model} does not support predict.`);
  if (!Array.isArray(body.instances) || body.instances.length === 0) return googleError(400, 'INVALID_ARGUMENT', 'instances must not be empty.');
  const dimensions: number = body.parameters?.outputDimensionality ?? 4;
  const predictions = body.instances.map((instance: Body, index: number) => {
    if (typeof instance.content !== 'string') return undefined;
    const values = Array.from({ length: dimensions }, (_, at) => (index + 1) / 2 ** (at + 1));
    return { embeddings: { values, statistics: { token_count: instance.content.split(/\s+/).filter(Boolean).length, truncated: false } } };
  });
  if (predictions.includes(undefined)) return googleError(400, 'INVALID_ARGUMENT', 'Each instance must have a content.');
  return json(200, { predictions, metadata: { billableCharacterCount: 20 } });
}
