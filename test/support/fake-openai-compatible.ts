/**
 * A loopback OpenAI-compatible chat-completions service, configured per
 * provider to behave like it: the path prefix its base URL has, the key it
 * wants, the request fields it refuses (answered with that provider's error
 * body), the output budget field it reads, whether a stream carries the
 * usage only on request or always, and the field its reasoning comes in.
 * DeepSeek's streamed answer and Groq's plain one are their recorded
 * answers (test/fixtures/upstream/openai-chat, see the README there).
 */
import type { ChatPresetName } from '../../src/upstreams/openai-chat/presets.js';
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from '../upstreams/support/fake-upstream.js';
import { fixtureChunks, fixtureJson, jsonReply, sseReply } from '../upstreams/support/fixtures.js';

type Body = Record<string, any>;

export interface ServiceProfile {
  /** Its base URL's path (`/openai/v1` for Groq), where it serves `/chat/completions`. */
  prefix: string;
  /** The Bearer key it wants; absent for a local server that checks none. */
  key?: string;
  /** The first field of a body it refuses, if any. */
  refuses(body: Body): string | undefined;
  /** Its error answer naming a refused field. */
  error(field: string): FakeReply;
  /** The output budget field it reads. */
  budget: 'max_tokens' | 'max_completion_tokens';
  /** `requested`: a stream's usage only with `stream_options.include_usage`; `always`: in its last chunk regardless. */
  streamUsage: 'requested' | 'always';
  /** The message field its reasoning comes in, for a service that returns it. */
  reasoning?: 'reasoning_content' | 'reasoning';
  /** Recorded answers given in place of the built one. */
  recorded?: { plain?: string; stream?: string };
}

const json = (status: number, body: unknown): FakeReply => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const openAiError = (status: number, message: string, param: string | null = null, code: string | null = null) => json(status, { error: { message, type: 'invalid_request_error', param, code } });
const listed = (fields: string[]) => (body: Body) => fields.find((field) => body[field] !== undefined);
const none = () => undefined;

/** Mistral's request schema: any other field is an error (pydantic's `extra_forbidden`). */
const MISTRAL_FIELDS = new Set([
  'model',
  'messages',
  'temperature',
  'top_p',
  'max_tokens',
  'stream',
  'stop',
  'random_seed',
  'response_format',
  'tools',
  'tool_choice',
  'presence_penalty',
  'frequency_penalty',
  'n',
  'parallel_tool_calls',
  'prediction',
  'prompt_mode',
  'safe_prompt',
]);

export const SERVICE_PROFILES: Readonly<Record<ChatPresetName, ServiceProfile>> = {
  deepseek: {
    prefix: '/v1',
    key: 'sk-deepseek-0123456789',
    refuses: (body) => listed(['logprobs', 'top_logprobs'])(body) ?? (body.response_format?.type === 'json_schema' ? 'response_format' : undefined),
    error: (field) => openAiError(400, `This ${field} type is unavailable now`, null, 'invalid_request_error'),
    budget: 'max_tokens',
    streamUsage: 'requested',
    reasoning: 'reasoning_content',
    recorded: { stream: 'deepseek-reasoning.chunks.txt' },
  },
  xai: {
    prefix: '/v1',
    key: 'xai-0123456789',
    refuses: listed(['presence_penalty', 'frequency_penalty']),
    error: (field) => json(400, { code: 'Client specified an invalid argument', error: `Argument not supported on this model: ${field}` }),
    budget: 'max_completion_tokens',
    streamUsage: 'requested',
    reasoning: 'reasoning_content',
  },
  mistral: {
    prefix: '/v1',
    key: 'mistral-0123456789',
    refuses: (body) => Object.keys(body).find((field) => !MISTRAL_FIELDS.has(field)),
    error: (field) =>
      json(422, {
        object: 'error',
        message: { detail: [{ type: 'extra_forbidden', loc: ['body', field], msg: 'Extra inputs are not permitted' }] },
        type: 'invalid_request_error',
        param: null,
        code: null,
      }),
    budget: 'max_tokens',
    streamUsage: 'always',
  },
  groq: {
    prefix: '/openai/v1',
    key: 'gsk_0123456789',
    refuses: (body) =>
      listed(['logprobs', 'logit_bias', 'top_logprobs'])(body) ??
      (body.n !== undefined && body.n !== 1 ? 'n' : undefined) ??
      (body.messages?.some((message: Body) => message.name !== undefined) ? 'messages[].name' : undefined),
    error: (field) => openAiError(400, `'${field}' : property '${field}' is unsupported`),
    budget: 'max_completion_tokens',
    streamUsage: 'requested',
    reasoning: 'reasoning',
    recorded: { plain: 'groq-reasoning.json' },
  },
  openrouter: { prefix: '/api/v1', key: 'sk-or-0123456789', refuses: none, error: (field) => openAiError(400, field), budget: 'max_tokens', streamUsage: 'always', reasoning: 'reasoning' },
  together: { prefix: '/v1', key: 'tgp-0123456789', refuses: none, error: (field) => openAiError(400, field), budget: 'max_tokens', streamUsage: 'always' },
  fireworks: { prefix: '/inference/v1', key: 'fw-0123456789', refuses: none, error: (field) => openAiError(400, field), budget: 'max_tokens', streamUsage: 'always' },
  cerebras: {
    prefix: '/v1',
    key: 'csk-0123456789',
    refuses: listed(['frequency_penalty', 'presence_penalty', 'parallel_tool_calls', 'logit_bias', 'service_tier']),
    error: (field) => openAiError(400, `Unsupported parameter: ${field}`, field, 'wrong_api_format'),
    budget: 'max_completion_tokens',
    streamUsage: 'always',
  },
  vllm: { prefix: '/v1', refuses: none, error: (field) => openAiError(400, field), budget: 'max_completion_tokens', streamUsage: 'requested', reasoning: 'reasoning_content' },
  ollama: { prefix: '/v1', refuses: none, error: (field) => openAiError(400, field), budget: 'max_tokens', streamUsage: 'requested', reasoning: 'reasoning' },
  'lm-studio': { prefix: '/v1', refuses: none, error: (field) => openAiError(400, field), budget: 'max_tokens', streamUsage: 'requested', reasoning: 'reasoning_content' },
};

export const REASONING = 'The user greets me; a short greeting back.';
const usage = { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 };

/** The answer text a client gets from a profile's service, plain or streamed (a recorded answer's own where it has one). */
export function answerText(name: ChatPresetName, stream: boolean): string {
  const recorded = SERVICE_PROFILES[name].recorded?.[stream ? 'stream' : 'plain'];
  if (!recorded) return `Hello from ${name}.`;
  if (!stream) return fixtureJson('openai-chat', recorded).choices[0].message.content;
  return fixtureChunks('openai-chat', recorded)
    .map((line) => JSON.parse(line).choices[0]?.delta?.content ?? '')
    .join('');
}

export async function startServiceFake(name: ChatPresetName): Promise<FakeUpstream> {
  const profile = SERVICE_PROFILES[name];
  return startFakeUpstream((request) => serve(name, profile, request));
}

function serve(name: ChatPresetName, profile: ServiceProfile, request: RecordedRequest): FakeReply {
  if (request.method !== 'POST' || request.url !== `${profile.prefix}/chat/completions`) return openAiError(404, `Unknown request URL: ${request.method} ${request.url}`);
  if (profile.key && request.headers.authorization !== `Bearer ${profile.key}`) return openAiError(401, 'Invalid API key', null, 'invalid_api_key');
  const body = request.json<Body>();
  const refused = profile.refuses(body);
  if (refused) return profile.error(refused);
  const model = String(body.model);
  if (!body.stream) return profile.recorded?.plain ? jsonReply('openai-chat', profile.recorded.plain) : json(200, completion(name, profile, model));
  if (profile.recorded?.stream) return sseReply('openai-chat', profile.recorded.stream);
  const withUsage = profile.streamUsage === 'always' || body.stream_options?.include_usage === true;
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    chunks: [...streamed(name, profile, model, withUsage).map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`), 'data: [DONE]\n\n'],
  };
}

function completion(name: ChatPresetName, profile: ServiceProfile, model: string): Body {
  const message: Body = { role: 'assistant', content: answerText(name, false) };
  if (profile.reasoning) message[profile.reasoning] = REASONING;
  return { id: `chatcmpl-${name}-1`, object: 'chat.completion', created: 1764000000, model, choices: [{ index: 0, message, finish_reason: 'stop' }], usage };
}

function streamed(name: ChatPresetName, profile: ServiceProfile, model: string, withUsage: boolean): Body[] {
  const chunk = (delta: Body, finish: string | null = null): Body => ({
    id: `chatcmpl-${name}-2`,
    object: 'chat.completion.chunk',
    created: 1764000000,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunks = [chunk({ role: 'assistant', content: '' })];
  if (profile.reasoning) chunks.push(chunk({ [profile.reasoning]: REASONING }));
  for (const piece of answerText(name, true).match(/.{1,5}/g) ?? []) chunks.push(chunk({ content: piece }));
  const last = chunk({}, 'stop');
  // A service that always sends the usage puts it on its last chunk; one asked for it sends a chunk of its own.
  if (withUsage && profile.streamUsage === 'always') last.usage = usage;
  chunks.push(last);
  if (withUsage && profile.streamUsage === 'requested') chunks.push({ id: `chatcmpl-${name}-2`, object: 'chat.completion.chunk', created: 1764000000, model, choices: [], usage });
  return chunks;
}
