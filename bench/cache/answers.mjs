/**
 * The fake upstreams' answers, plain and streamed, per dialect: a short text
 * reply, and on some turns one tool call after it (`call` = { id, name, args }),
 * with the usage the real APIs report, cache fields included; shaped after the
 * recorded answers in test/fixtures/upstream (and bench/lib/fake).
 */
import { dataEvent, namedEvent } from '../lib/fake/sse.mjs';

const CREATED = 1_767_225_600;
let counter = 0;
const nextId = () => (counter += 1).toString(16).padStart(8, '0');

/** Splits a reply into three stream deltas. */
function pieces(text) {
  const third = Math.ceil(text.length / 3);
  return [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)];
}

/** `usage` = { promptTokens, readTokens, write5mTokens, write1hTokens, outputTokens }. */
export function anthropicAnswer({ model, text, call, usage, stream }) {
  const id = `msg_cache${nextId()}`;
  const written = usage.write5mTokens + usage.write1hTokens;
  const counts = {
    input_tokens: usage.promptTokens - usage.readTokens - written,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: usage.readTokens,
    cache_creation: { ephemeral_5m_input_tokens: usage.write5mTokens, ephemeral_1h_input_tokens: usage.write1hTokens },
  };
  const stop = call ? 'tool_use' : 'end_turn';
  const message = (content, stopReason, output) => ({
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { ...counts, output_tokens: output, service_tier: 'standard' },
  });
  const toolUse = call && { type: 'tool_use', id: call.id, name: call.name, input: call.args };
  if (!stream) return { json: message([{ type: 'text', text }, ...(toolUse ? [toolUse] : [])], stop, usage.outputTokens) };
  return {
    events: [
      namedEvent('message_start', { type: 'message_start', message: message([], null, 1) }),
      namedEvent('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      namedEvent('ping', { type: 'ping' }),
      ...pieces(text).map((piece) => namedEvent('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } })),
      namedEvent('content_block_stop', { type: 'content_block_stop', index: 0 }),
      ...(toolUse
        ? [
            namedEvent('content_block_start', { type: 'content_block_start', index: 1, content_block: { ...toolUse, input: {} } }),
            namedEvent('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.args) } }),
            namedEvent('content_block_stop', { type: 'content_block_stop', index: 1 }),
          ]
        : []),
      namedEvent('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { ...counts, output_tokens: usage.outputTokens },
      }),
      namedEvent('message_stop', { type: 'message_stop' }),
    ],
  };
}

export function chatAnswer({ model, text, call, usage, stream }) {
  const id = `chatcmpl-cache${nextId()}`;
  const counts = {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.promptTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.readTokens, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
  const base = { id, created: CREATED, model, system_fingerprint: 'fp_cache' };
  const finish = call ? 'tool_calls' : 'stop';
  const toolCall = call && { id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } };
  if (!stream) {
    const message = { role: 'assistant', content: text, refusal: null, ...(toolCall ? { tool_calls: [toolCall] } : {}) };
    return { json: { ...base, object: 'chat.completion', choices: [{ index: 0, message, logprobs: null, finish_reason: finish }], usage: counts } };
  }
  const chunk = (delta, finishReason) => dataEvent({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });
  return {
    events: [
      chunk({ role: 'assistant', content: '' }, null),
      ...pieces(text).map((content) => chunk({ content }, null)),
      ...(toolCall
        ? [
            chunk({ tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }, null),
            chunk({ tool_calls: [{ index: 0, function: { arguments: toolCall.function.arguments } }] }, null),
          ]
        : []),
      chunk({}, finish),
      dataEvent({ ...base, object: 'chat.completion.chunk', choices: [], usage: counts }),
      'data: [DONE]\n\n',
    ],
  };
}

export function responsesAnswer({ model, text, call, usage, stream, request }) {
  const id = `resp_cache${nextId()}`;
  const itemId = `msg_cache${nextId()}`;
  const callItemId = `fc_cache${nextId()}`;
  const part = (value) => ({ type: 'output_text', annotations: [], logprobs: [], text: value });
  const item = (status, content) => ({ id: itemId, type: 'message', status, content, role: 'assistant' });
  const callItem = (status, args) => ({ id: callItemId, type: 'function_call', status, arguments: args, call_id: call.id, name: call.name });
  const output = [item('completed', [part(text)]), ...(call ? [callItem('completed', JSON.stringify(call.args))] : [])];
  const response = (finished) => ({
    id,
    object: 'response',
    created_at: CREATED,
    status: finished ? 'completed' : 'in_progress',
    background: false,
    completed_at: finished ? CREATED : null,
    error: null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    model,
    output: finished ? output : [],
    parallel_tool_calls: true,
    previous_response_id: null,
    prompt_cache_key: request.prompt_cache_key ?? null,
    prompt_cache_retention: request.prompt_cache_retention ?? null,
    reasoning: { effort: null, summary: null },
    store: request.store ?? true,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: [],
    usage: finished
      ? {
          input_tokens: usage.promptTokens,
          input_tokens_details: { cached_tokens: usage.readTokens },
          output_tokens: usage.outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: usage.promptTokens + usage.outputTokens,
        }
      : null,
    metadata: {},
  });
  if (!stream) return { json: response(true) };
  const where = { item_id: itemId, output_index: 0, content_index: 0 };
  const events = [
    { type: 'response.created', response: response(false) },
    { type: 'response.in_progress', response: response(false) },
    { type: 'response.output_item.added', output_index: 0, item: item('in_progress', []) },
    { type: 'response.content_part.added', ...where, part: part('') },
    ...pieces(text).map((delta) => ({ type: 'response.output_text.delta', ...where, delta, logprobs: [] })),
    { type: 'response.output_text.done', ...where, text, logprobs: [] },
    { type: 'response.content_part.done', ...where, part: part(text) },
    { type: 'response.output_item.done', output_index: 0, item: item('completed', [part(text)]) },
    ...(call
      ? [
          { type: 'response.output_item.added', output_index: 1, item: callItem('in_progress', '') },
          { type: 'response.function_call_arguments.delta', item_id: callItemId, output_index: 1, delta: JSON.stringify(call.args) },
          { type: 'response.function_call_arguments.done', item_id: callItemId, output_index: 1, arguments: JSON.stringify(call.args) },
          { type: 'response.output_item.done', output_index: 1, item: callItem('completed', JSON.stringify(call.args)) },
        ]
      : []),
    { type: 'response.completed', response: response(true) },
  ];
  return { events: events.map((event, sequence) => namedEvent(event.type, { ...event, sequence_number: sequence })) };
}

/** Gemini 3 signs its function calls (`thoughtSignature`) and wants the signature back with the call in later turns. */
export function geminiAnswer({ model, text, call, usage, stream }) {
  const responseId = `cache${nextId()}`;
  const metadata = (output) => ({
    promptTokenCount: usage.promptTokens,
    candidatesTokenCount: output,
    totalTokenCount: usage.promptTokens + output,
    // The real API leaves the cached count out when nothing was read.
    ...(usage.readTokens > 0 ? { cachedContentTokenCount: usage.readTokens, cacheTokensDetails: [{ modality: 'TEXT', tokenCount: usage.readTokens }] } : {}),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.promptTokens }],
  });
  const callPart = call && { functionCall: { name: call.name, args: call.args }, thoughtSignature: Buffer.from(`signature of ${call.id}`).toString('base64') };
  const chunk = (parts, finish, output) => ({
    candidates: [{ content: { parts, role: 'model' }, ...(finish ? { finishReason: 'STOP' } : {}), index: 0 }],
    usageMetadata: metadata(output),
    modelVersion: model,
    responseId,
  });
  if (!stream) return { json: chunk([{ text }, ...(callPart ? [callPart] : [])], true, usage.outputTokens) };
  const parts = [...pieces(text).map((piece) => [{ text: piece }]), ...(callPart ? [[callPart]] : [])];
  return {
    events: parts.map((chunkParts, index) => dataEvent(chunk(chunkParts, index === parts.length - 1, Math.ceil((usage.outputTokens * (index + 1)) / parts.length)))),
  };
}
