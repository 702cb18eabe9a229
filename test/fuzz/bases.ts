/**
 * A valid base request body per route, each filling in most of the fields
 * its dialect has, so that mutating one field at a time reaches deep into
 * every family's validation. Each is answered with a 2xx by a fresh gateway
 * (checked by catalogue.test.ts), so a 4xx after a mutation is the mutation's
 * doing.
 */

/** A 1×1 PNG: real image bytes for the fields that take base64 or a data URL. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4AWM4ISf3HwAEugIEzCecNQAAAABJRU5ErkJggg==';
export const PNG_DATA_URL = `data:image/png;base64,${PNG_BASE64}`;
/** Another colour, where two images must differ (face swap). */
export const OTHER_PNG_DATA_URL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4AWOQkzvxHwADZgIEQbrbuAAAAABJRU5ErkJggg==';

const SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string', description: 'a city' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
  required: ['city'],
};

export const messagesBody = () => ({
  model: 'fuzz-model',
  max_tokens: 64,
  system: [{ type: 'text', text: 'be brief', cache_control: { type: 'ephemeral' } }],
  messages: [
    { role: 'user', content: 'weather?' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'checking' },
        { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Oslo' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_01', content: [{ type: 'text', text: 'sunny' }], is_error: false },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'a note' }, title: 'note' },
        { type: 'text', text: 'and tomorrow?' },
      ],
    },
  ],
  metadata: { user_id: 'u-1' },
  stop_sequences: ['STOP'],
  stream: false,
  temperature: 0.5,
  top_k: 5,
  tools: [{ name: 'get_weather', description: 'weather by city', input_schema: SCHEMA }],
  tool_choice: { type: 'auto', disable_parallel_tool_use: true },
  output_config: { effort: 'low' },
  context_management: { edits: [] },
});

export const messagesCountBody = () => {
  const { max_tokens: _omit, stream: _stream, ...rest } = messagesBody();
  return rest;
};

export const MESSAGES_MEDIA = ['messages.2.content.1.source.data'];

export const responsesBody = () => ({
  model: 'fuzz-model',
  instructions: 'be brief',
  input: [
    { role: 'developer', content: 'answer in English' },
    {
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: 'weather?' },
        { type: 'input_image', image_url: PNG_DATA_URL, detail: 'low' },
        { type: 'input_file', filename: 'note.txt', file_data: 'data:text/plain;base64,YSBub3Rl' },
      ],
    },
    { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
    { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
  ],
  tools: [{ type: 'function', name: 'get_weather', description: 'weather by city', parameters: SCHEMA, strict: false }],
  tool_choice: 'auto',
  parallel_tool_calls: true,
  max_output_tokens: 64,
  temperature: 0.5,
  top_p: 0.9,
  metadata: { run: 'fuzz' },
  store: true,
  stream: false,
  truncation: 'disabled',
  text: { format: { type: 'text' }, verbosity: 'low' },
  reasoning: { effort: 'low', summary: 'auto' },
  include: ['reasoning.encrypted_content'],
  user: 'u-1',
});

export const responsesCountBody = () => {
  const { stream: _stream, store: _store, ...rest } = responsesBody();
  return rest;
};

export const RESPONSES_MEDIA = ['input.1.content.1.image_url', 'input.1.content.2.file_data'];

export const generateBody = () => ({
  contents: [
    { role: 'user', parts: [{ text: 'weather?' }, { inlineData: { mimeType: 'image/png', data: PNG_BASE64 } }] },
    { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }] },
    { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { forecast: 'sunny' } } }, { text: 'tomorrow?' }] },
  ],
  systemInstruction: { parts: [{ text: 'be brief' }] },
  tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'weather by city', parameters: SCHEMA }] }],
  toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
  generationConfig: {
    stopSequences: ['STOP'],
    temperature: 0.5,
    topP: 0.9,
    topK: 5,
    maxOutputTokens: 64,
    candidateCount: 1,
    seed: 7,
    thinkingConfig: { includeThoughts: false, thinkingBudget: 0 },
  },
  labels: { run: 'fuzz' },
});

export const GENERATE_MEDIA = ['contents.0.parts.1.inlineData.data'];

export const videoBody = () => ({ model: 'sora-2', prompt: 'a cat on a wall', seconds: '4', size: '720x1280', metadata: {} });

export const remixBody = () => ({ prompt: 'the cat at night' });

export const generationBody = () => ({
  model: 'sora-2',
  prompt: 'a cat on a wall',
  duration: 4,
  width: 720,
  height: 1280,
  fps: 24,
  seed: 3,
  user: 'u-1',
  n: 1,
  metadata: {},
});

const accountFilter = { channelId: '', instanceId: '', modes: ['FAST'], remark: '' };

export const imagineBody = () => ({ prompt: 'a lighthouse at dawn --ar 3:2', botType: 'MID_GEN', state: 'fuzz', accountFilter, base64Array: [PNG_DATA_URL] });
export const blendBody = () => ({ base64Array: [PNG_DATA_URL, PNG_DATA_URL], dimensions: 'SQUARE', botType: 'MID_GEN', state: 'fuzz' });
export const describeBody = () => ({ base64: PNG_DATA_URL, botType: 'MID_GEN', state: 'fuzz' });
export const shortenBody = () => ({ prompt: 'a very long prompt about a lighthouse at dawn', botType: 'MID_GEN' });
export const faceSwapBody = () => ({ sourceBase64: PNG_DATA_URL, targetBase64: OTHER_PNG_DATA_URL, state: 'fuzz' });
export const uploadBody = () => ({ base64Array: [PNG_DATA_URL] });

export const keyBody = () => ({
  name: 'fuzz key',
  quota: 10,
  models: ['fuzz-*'],
  allowIps: ['127.0.0.1', '10.0.0.0/8'],
  rpm: 1000,
  tpm: 100000,
  expiresAt: '2099-01-01T00:00:00Z',
  strictTranslation: false,
  status: 'active',
});

export const channelBody = () => ({
  name: 'fuzz channel',
  type: 'simulator',
  baseUrl: 'http://127.0.0.1:9/',
  apiKey: ['sk-upstream-fuzz'],
  models: ['fuzz-only-*'],
  modelMapping: { 'fuzz-only-a': 'fuzz-only-b' },
  priority: 0,
  weight: 1,
  enabled: false,
  settings: { latencyMs: 0, taskSeconds: 3600 },
});

export const chatCompletionsBody = () => ({
  model: 'fuzz-model',
  max_completion_tokens: 64,
  temperature: 0.5,
  messages: [
    { role: 'system', content: 'Be brief.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this image?' },
        { type: 'image_url', image_url: { url: PNG_DATA_URL } },
      ],
    },
  ],
  tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }],
  tool_choice: 'auto',
  response_format: { type: 'text' },
  stop: ['END'],
});

export const CHAT_COMPLETIONS_MEDIA = ['messages.1.content.1.image_url.url'];

export const completionsBody = () => ({ model: 'fuzz-model', prompt: 'Once upon a time', max_tokens: 32, temperature: 0.5, stop: ['\n\n'], user: 'fuzz-user' });

export const embeddingsBody = () => ({ model: 'fuzz-embed', input: ['the cat', 'a dog'], encoding_format: 'float', dimensions: 8 });
export const rerankBody = () => ({ model: 'fuzz-rerank', query: 'the cat', documents: ['the cat sat', { text: 'a dog' }], top_n: 2, return_documents: true });
export const moderationsBody = () => ({
  model: 'fuzz-moderation',
  input: [
    { type: 'text', text: 'the cat' },
    { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
  ],
});

export const imageGenerationBody = () => ({ model: 'fuzz-image', prompt: 'a lighthouse', n: 1, size: '32x32', response_format: 'b64_json', quality: 'low', user: 'fuzz-user' });
/** An edit's text fields; the form carries no file, so the base request is the 400 naming `image`. */
export const imageEditBody = () => ({ model: 'fuzz-image', prompt: 'add a moon', n: '1', size: '32x32', response_format: 'b64_json' });

export const speechBody = () => ({ model: 'fuzz-tts', input: 'hello there', voice: 'alloy', response_format: 'wav', speed: 1.5 });
/** A transcription's text fields; the form carries no file, so the base request is the 400 naming `file`. */
export const transcriptionBody = () => ({ model: 'fuzz-whisper', language: 'en', response_format: 'verbose_json', temperature: '0.2' });

export const embedContentBody = () => ({ content: { parts: [{ text: 'the cat' }] }, taskType: 'RETRIEVAL_DOCUMENT', outputDimensionality: 8 });

export const batchEmbedContentsBody = () => ({
  requests: [
    { model: 'models/fuzz-embed', content: { parts: [{ text: 'the cat' }] } },
    { model: 'models/fuzz-embed', content: { parts: [{ text: 'a dog' }] } },
  ],
});

export const batchBody = (fixtures: { fileId: string }) => ({ input_file_id: fixtures.fileId, endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { run: 'fuzz' } });

export const messageBatchBody = () => ({
  requests: [{ custom_id: 'fuzz-1', params: { model: 'fuzz-model', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] } }],
});
