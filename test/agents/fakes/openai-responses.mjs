/**
 * Scripted fake of the Responses API: POST /v1/responses (JSON, or SSE from
 * response.created to response.completed with `stream: true`), GET /v1/models.
 * Tools are looked for in `tools` (function, custom, inside `namespace`
 * tools) and in `additional_tools` input items. See common.mjs for the script.
 * Compaction as OpenAI does it: an input ending with a `compaction_trigger`
 * item, and `POST /v1/responses/compact`, are answered with one `compaction`
 * item whose `encrypted_content` is opaque (`fake-compaction-...`).
 */
import { decide, hex, nowSeconds, pieces, routeBelow, runStandalone, startFakeServer, textOf, tokensOf, writeJson, writeSse } from './common.mjs';

function collectTools(list, namespace, out) {
  for (const tool of list ?? []) {
    if (tool.type === 'namespace') collectTools(tool.tools, tool.name, out);
    else if (tool.type === 'function') out.push({ name: tool.name, parameters: tool.parameters, namespace });
    else if (tool.type === 'custom') out.push({ name: tool.name, custom: true, namespace });
  }
  return out;
}

function conversation(body) {
  const turns = [];
  const tools = collectTools(body?.tools, undefined, []);
  const input = typeof body?.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : (body?.input ?? []);
  for (const item of input) {
    const type = item.type ?? 'message';
    if (type === 'additional_tools') collectTools(item.tools, undefined, tools);
    else if (type === 'message' && item.role === 'user') turns.push({ kind: 'user', text: textOf(item.content) });
    else if (/_call_output$/.test(type)) turns.push({ kind: 'tool-result', text: textOf(item.output) });
  }
  return { turns, tools };
}

function usage(body, output) {
  const input = tokensOf(body);
  return { input_tokens: input, input_tokens_details: { cached_tokens: 0 }, output_tokens: output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + output };
}

function responseObject(body, id, created, status, output, usageValue) {
  return {
    id,
    object: 'response',
    created_at: created,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    max_tool_calls: null,
    model: body.model ?? 'fake-responses-model',
    output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    prompt_cache_key: body.prompt_cache_key ?? null,
    reasoning: { effort: body.reasoning?.effort ?? null, summary: body.reasoning?.summary ?? null },
    safety_identifier: null,
    service_tier: 'default',
    store: body.store ?? true,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: body.text?.verbosity ?? 'medium' },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_logprobs: 0,
    top_p: 1,
    truncation: 'disabled',
    usage: usageValue,
    user: null,
    metadata: {},
  };
}

function isCompactionTurn(body) {
  return Array.isArray(body?.input) && body.input.at(-1)?.type === 'compaction_trigger';
}

function compactionItem() {
  return { id: `cmp_${hex(24)}`, type: 'compaction', encrypted_content: `fake-compaction-${hex(16)}` };
}

/** `/v1/responses/compact`: the user messages kept, then one compaction item. */
function compactObject(body) {
  const input = typeof body?.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : (body?.input ?? []);
  const kept = input.filter((item) => (item.type ?? 'message') === 'message' && item.role === 'user');
  return { id: `resp_${hex(24)}`, object: 'response.compaction', created_at: nowSeconds(), output: [...kept, compactionItem()], usage: usage(body, 12) };
}

/**
 * Answers one request of the Responses API by its route below the API prefix
 * (`/responses`, `/responses/compact`, `/models`): shared with the cloud fakes
 * that serve the API under their own prefix and credentials (azure-openai.mjs).
 */
export function answerResponses(req, res, { route, body }) {
  if (req.method === 'GET' && route === '/models') {
    return writeJson(res, 200, { object: 'list', data: [{ id: 'fake-responses-model', object: 'model', created: 1700000000, owned_by: 'fake' }] });
  }
  if (req.method === 'POST' && route === '/responses/compact') return writeJson(res, 200, compactObject(body));
  if (req.method !== 'POST' || route !== '/responses') {
    return writeJson(res, 404, { error: { message: `fake openai-responses: no route ${req.method} ${route}`, type: 'invalid_request_error', param: null, code: 'not_found' } });
  }
  if (body?.input === undefined)
    return writeJson(res, 400, { error: { message: "Missing required parameter: 'input'.", type: 'invalid_request_error', param: 'input', code: 'missing_required_parameter' } });
  const decision = decide({ ...conversation(body), raw: body });
  const id = `resp_${hex(24)}`;
  const created = nowSeconds();
  let item;
  let outputTokens;
  if (isCompactionTurn(body)) {
    item = compactionItem();
    outputTokens = 12;
  } else if (decision.kind === 'tool' && decision.custom) {
    item = { id: `ctc_${hex(24)}`, type: 'custom_tool_call', status: 'completed', call_id: `call_${hex(12)}`, name: decision.name, input: decision.args };
    outputTokens = tokensOf(decision.args);
  } else if (decision.kind === 'tool') {
    item = { id: `fc_${hex(24)}`, type: 'function_call', status: 'completed', arguments: JSON.stringify(decision.args), call_id: `call_${hex(12)}`, name: decision.name };
    outputTokens = tokensOf(item.arguments);
  } else {
    item = { id: `msg_${hex(24)}`, type: 'message', status: 'completed', content: [{ type: 'output_text', annotations: [], logprobs: [], text: decision.text }], role: 'assistant' };
    outputTokens = tokensOf(decision.text);
  }
  if (decision.kind === 'tool' && decision.namespace && decision.namespace !== 'functions') item.namespace = decision.namespace;
  const done = responseObject(body, id, created, 'completed', [item], usage(body, outputTokens));
  if (!body.stream) return writeJson(res, 200, done);

  const events = [];
  let seq = 0;
  const push = (data) => events.push({ event: data.type, data: { type: data.type, sequence_number: seq++, ...data } });
  push({ type: 'response.created', response: responseObject(body, id, created, 'in_progress', [], null) });
  push({ type: 'response.in_progress', response: responseObject(body, id, created, 'in_progress', [], null) });
  if (item.type === 'message') {
    const text = item.content[0].text;
    push({ type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } });
    push({ type: 'response.content_part.added', item_id: item.id, output_index: 0, content_index: 0, part: { type: 'output_text', annotations: [], logprobs: [], text: '' } });
    for (const piece of pieces(text, 6)) push({ type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: piece, logprobs: [] });
    push({ type: 'response.output_text.done', item_id: item.id, output_index: 0, content_index: 0, text, logprobs: [] });
    push({ type: 'response.content_part.done', item_id: item.id, output_index: 0, content_index: 0, part: item.content[0] });
  } else if (item.type === 'function_call') {
    push({ type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } });
    for (const piece of pieces(item.arguments, 10)) push({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index: 0, delta: piece });
    push({ type: 'response.function_call_arguments.done', item_id: item.id, output_index: 0, arguments: item.arguments });
  } else if (item.type === 'compaction') {
    push({ type: 'response.output_item.added', output_index: 0, item });
  } else {
    push({ type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', input: '' } });
    for (const piece of pieces(item.input, 20)) push({ type: 'response.custom_tool_call_input.delta', item_id: item.id, output_index: 0, delta: piece });
    push({ type: 'response.custom_tool_call_input.done', item_id: item.id, output_index: 0, input: item.input });
  }
  push({ type: 'response.output_item.done', output_index: 0, item });
  push({ type: 'response.completed', response: done });
  return writeSse(res, events);
}

export function start({ port } = {}) {
  return startFakeServer({
    name: 'openai-responses',
    port,
    basePath: '/v1',
    handle: (req, res, { url, body }) => answerResponses(req, res, { route: routeBelow(url, '/v1'), body }),
  });
}

await runStandalone(import.meta.url, start);
