/**
 * Scripted fake of Chat Completions: POST /v1/chat/completions (JSON, or SSE
 * ending in `data: [DONE]` with `stream: true`; a usage chunk when
 * `stream_options.include_usage`), GET /v1/models. See common.mjs for the script.
 */
import { base62, decide, nowSeconds, pieces, routeBelow, runStandalone, startFakeServer, textOf, tokensOf, writeJson, writeSse } from './common.mjs';

function conversation(body) {
  const turns = [];
  for (const message of body?.messages ?? []) {
    if (message.role === 'tool' || message.role === 'function') turns.push({ kind: 'tool-result', text: textOf(message.content) });
    else if (message.role === 'user') turns.push({ kind: 'user', text: textOf(message.content) });
  }
  const tools = (body?.tools ?? [])
    .filter((t) => t.type === 'function' || t.type === 'custom')
    .map((t) => (t.type === 'custom' ? { name: t.custom?.name, custom: true } : { name: t.function?.name, parameters: t.function?.parameters }));
  return { turns, tools };
}

function usage(body, completion) {
  const prompt = tokensOf(body);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

/**
 * Answers one request of Chat Completions by its route below the API prefix
 * (`/chat/completions`, `/models`): shared with the cloud fakes that serve the
 * API under their own prefix and credentials (azure-openai.mjs). `opening`:
 * chunks a stream starts with before the completion's own (Azure's prompt
 * filter results).
 */
export function answerChat(req, res, { route, body, opening = [] }) {
  if (req.method === 'GET' && route === '/models') {
    return writeJson(res, 200, { object: 'list', data: [{ id: 'fake-chat-model', object: 'model', created: 1700000000, owned_by: 'fake' }] });
  }
  if (req.method !== 'POST' || route !== '/chat/completions') {
    return writeJson(res, 404, { error: { message: `fake openai-chat: no route ${req.method} ${route}`, type: 'invalid_request_error', param: null, code: 'not_found' } });
  }
  if (!Array.isArray(body?.messages))
    return writeJson(res, 400, { error: { message: "Missing required parameter: 'messages'.", type: 'invalid_request_error', param: 'messages', code: 'missing_required_parameter' } });
  const decision = decide({ ...conversation(body), raw: body });
  const id = `chatcmpl-${base62(29)}`;
  const created = nowSeconds();
  const model = body.model ?? 'fake-chat-model';
  const common = { id, object: 'chat.completion.chunk', created, model, service_tier: 'default', system_fingerprint: 'fp_fake0001' };
  let message;
  let finish;
  let completion;
  if (decision.kind === 'tool') {
    const args = typeof decision.args === 'string' ? decision.args : JSON.stringify(decision.args);
    const call = decision.custom
      ? { id: `call_${base62(24)}`, type: 'custom', custom: { name: decision.name, input: args } }
      : { id: `call_${base62(24)}`, type: 'function', function: { name: decision.name, arguments: args } };
    message = { role: 'assistant', content: null, tool_calls: [call], refusal: null, annotations: [] };
    finish = 'tool_calls';
    completion = tokensOf(call);
  } else {
    message = { role: 'assistant', content: decision.text, refusal: null, annotations: [] };
    finish = 'stop';
    completion = tokensOf(decision.text);
  }
  if (!body.stream) {
    return writeJson(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
      usage: usage(body, completion),
      service_tier: 'default',
      system_fingerprint: 'fp_fake0001',
    });
  }
  const events = opening.map((data) => ({ data }));
  const chunk = (delta, finishReason = null) => events.push({ data: { ...common, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], usage: null } });
  if (message.tool_calls) {
    chunk({ role: 'assistant', content: null, refusal: null });
    const call = message.tool_calls[0];
    if (call.type === 'function') {
      chunk({ tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] });
      for (const piece of pieces(call.function.arguments, 10)) chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] });
    } else {
      chunk({ tool_calls: [{ index: 0, ...call }] });
    }
  } else {
    chunk({ role: 'assistant', content: '', refusal: null });
    for (const piece of pieces(message.content, 6)) chunk({ content: piece });
  }
  chunk({}, finish);
  if (body.stream_options?.include_usage) events.push({ data: { ...common, choices: [], usage: usage(body, completion) } });
  events.push({ data: '[DONE]' });
  return writeSse(res, events);
}

export function start({ port } = {}) {
  return startFakeServer({
    name: 'openai-chat',
    port,
    basePath: '/v1',
    handle: (req, res, { url, body }) => answerChat(req, res, { route: routeBelow(url, '/v1'), body }),
  });
}

await runStandalone(import.meta.url, start);
