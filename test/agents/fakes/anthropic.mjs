/**
 * Scripted fake of the Messages API: POST /v1/messages (JSON, or SSE with
 * `stream: true`) and POST /v1/messages/count_tokens. See common.mjs for the script.
 * The cloud fakes that host Anthropic's models (vertex.mjs) answer with
 * `messagesAnswer`, `messageBody` and `messageEvents`: the same script, their
 * own routes, credentials and framing.
 */
import { base62, decide, pieces, runStandalone, startFakeServer, textOf, tokensOf, writeJson, writeSse } from './common.mjs';

function conversation(body) {
  const turns = [];
  for (const message of body?.messages ?? []) {
    if (message.role !== 'user') continue;
    const content = Array.isArray(message.content) ? message.content : [{ type: 'text', text: String(message.content ?? '') }];
    const results = content.filter((block) => block.type === 'tool_result');
    if (results.length) turns.push({ kind: 'tool-result', text: results.map((block) => textOf(block.content)).join('\n') });
    else turns.push({ kind: 'user', text: textOf(content) });
  }
  const tools = (body?.tools ?? []).filter((t) => t.name && (t.input_schema || !t.type || t.type === 'custom')).map((t) => ({ name: t.name, parameters: t.input_schema }));
  return { turns, tools };
}

/** What the script answers to a Messages body (the model named by `model`, else the body's). */
export function messagesAnswer(body, model = body?.model ?? 'claude-fake') {
  const decision = decide({ ...conversation(body), raw: body });
  const id = `msg_01${base62(22)}`;
  const inputTokens = tokensOf(body);
  if (decision.kind === 'tool') {
    const block = { type: 'tool_use', id: `toolu_01${base62(22)}`, name: decision.name, input: decision.args };
    return { id, model, inputTokens, blocks: [{ type: 'text', text: 'Running it.' }, block], stopReason: 'tool_use', outputTokens: tokensOf(block) + 3 };
  }
  return { id, model, inputTokens, blocks: [{ type: 'text', text: decision.text }], stopReason: 'end_turn', outputTokens: tokensOf(decision.text) };
}

function usage(inputTokens, outputTokens) {
  return {
    input_tokens: inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

/** The stream of an answer, as `{ event, data }` in order (SSE here, other framings elsewhere). */
export function messageEvents(a) {
  const events = [];
  const push = (data) => events.push({ event: data.type, data });
  push({
    type: 'message_start',
    message: { model: a.model, id: a.id, type: 'message', role: 'assistant', content: [], stop_reason: null, stop_sequence: null, usage: usage(a.inputTokens, 1) },
  });
  a.blocks.forEach((block, index) => {
    if (block.type === 'text') {
      push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      push({ type: 'ping' });
      for (const piece of pieces(block.text, 8)) push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
    } else {
      push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } });
      for (const piece of pieces(JSON.stringify(block.input), 12)) push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    push({ type: 'content_block_stop', index });
  });
  push({
    type: 'message_delta',
    delta: { stop_reason: a.stopReason, stop_sequence: null },
    usage: { input_tokens: a.inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: a.outputTokens },
  });
  push({ type: 'message_stop' });
  return events;
}

/** The non-streamed message of an answer. */
export function messageBody(a) {
  return {
    model: a.model,
    id: a.id,
    type: 'message',
    role: 'assistant',
    content: a.blocks,
    stop_reason: a.stopReason,
    stop_sequence: null,
    usage: usage(a.inputTokens, a.outputTokens),
  };
}

export function start({ port } = {}) {
  return startFakeServer({
    name: 'anthropic',
    port,
    async handle(req, res, { url, body }) {
      if (req.method === 'POST' && url.pathname === '/v1/messages/count_tokens') return writeJson(res, 200, { input_tokens: tokensOf(body) });
      if (req.method !== 'POST' || url.pathname !== '/v1/messages') {
        return writeJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `fake anthropic: no route ${req.method} ${url.pathname}` } });
      }
      if (!body?.messages) return writeJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'messages: Field required' } });
      const a = messagesAnswer(body);
      if (body.stream) return writeSse(res, messageEvents(a));
      return writeJson(res, 200, messageBody(a));
    },
  });
}

await runStandalone(import.meta.url, start);
