/**
 * OpenAI Responses answers (`POST …/v1/responses`), built once per value of
 * `store` (the service echoes it), shaped as the recorded answers in
 * test/fixtures/upstream/openai-responses (openai-pdf-input-file.1.*).
 */
import { asBuffers, namedEvent } from './sse.mjs';

const RESPONSE_ID = 'resp_bench0001';
const ITEM_ID = 'msg_bench0001';
const CREATED = 1_767_225_600;
const TEXT = 'Hello from the fake upstream.';

const usage = {
  input_tokens: 8,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 7,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 15,
};

const textPart = (text) => ({ type: 'output_text', annotations: [], logprobs: [], text });
const message = (status, content) => ({ id: ITEM_ID, type: 'message', status, content, role: 'assistant' });

function responseObject(store, finished) {
  return {
    id: RESPONSE_ID,
    object: 'response',
    created_at: CREATED,
    status: finished ? 'completed' : 'in_progress',
    background: false,
    completed_at: finished ? CREATED : null,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: 64,
    max_tool_calls: null,
    model: 'resp-native',
    output: finished ? [message('completed', [textPart(TEXT)])] : [],
    parallel_tool_calls: true,
    previous_response_id: null,
    prompt_cache_key: null,
    reasoning: { effort: null, summary: null },
    safety_identifier: null,
    service_tier: 'default',
    store,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: [],
    top_logprobs: 0,
    top_p: 1,
    truncation: 'disabled',
    usage: finished ? usage : null,
    user: null,
    metadata: {},
  };
}

/** Eleven events, each with its `sequence_number`: lifecycle, item and part added, three deltas, the `.done` events, completed with usage. */
function stream(store) {
  const events = [
    { type: 'response.created', response: responseObject(store, false) },
    { type: 'response.in_progress', response: responseObject(store, false) },
    { type: 'response.output_item.added', output_index: 0, item: message('in_progress', []) },
    { type: 'response.content_part.added', item_id: ITEM_ID, output_index: 0, content_index: 0, part: textPart('') },
    ...['Hello', ' from the', ' fake upstream.'].map((delta) => ({
      type: 'response.output_text.delta',
      item_id: ITEM_ID,
      output_index: 0,
      content_index: 0,
      delta,
      logprobs: [],
    })),
    { type: 'response.output_text.done', item_id: ITEM_ID, output_index: 0, content_index: 0, text: TEXT, logprobs: [] },
    { type: 'response.content_part.done', item_id: ITEM_ID, output_index: 0, content_index: 0, part: textPart(TEXT) },
    { type: 'response.output_item.done', output_index: 0, item: message('completed', [textPart(TEXT)]) },
    { type: 'response.completed', response: responseObject(store, true) },
  ];
  return asBuffers(events.map((event, sequence) => namedEvent(event.type, { ...event, sequence_number: sequence })));
}

/** `store` → the plain answer and the stream. */
export const responsesAnswers = new Map([true, false].map((store) => [store, { json: Buffer.from(JSON.stringify(responseObject(store, true))), stream: stream(store) }]));
