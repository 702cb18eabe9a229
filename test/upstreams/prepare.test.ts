/**
 * Every chat adapter's `prepare` over a set of probe requests: it never
 * throws, and what it decided matches the body it built (a field it
 * forwards or maps is in the body, one it ignores is not; a refusal is the
 * plan's, never an exception).
 */
import { describe, expect, it } from 'vitest';
import type { BuiltinTool, ChatRequest } from '../../src/core/chat.js';
import { PlanRank, type TranslationPlan } from '../../src/core/translation-plan.js';
import { preparing } from '../../src/upstreams/plan.js';
import { anthropicAdapter } from '../../src/upstreams/anthropic/index.js';
import { geminiAdapter } from '../../src/upstreams/gemini/index.js';
import { openAiChatAdapter } from '../../src/upstreams/openai-chat/index.js';
import { openAiResponsesAdapter } from '../../src/upstreams/openai-responses/index.js';
import { simulatorAdapter } from '../../src/upstreams/simulator/index.js';
import type { Prepared, UpstreamAdapter } from '../../src/upstreams/types.js';
import { prepareWith } from './support/call.js';

const user = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] });
const base: ChatRequest = { model: 'm', messages: [user('hi')], stream: false };
const search: BuiltinTool = { type: 'builtin', dialect: 'responses', kind: 'web_search_preview', capability: 'web_search', raw: { type: 'web_search_preview' } };
const computer: BuiltinTool = { type: 'builtin', dialect: 'messages', kind: 'computer_20250124', raw: { type: 'computer_20250124', name: 'computer' } };
const fn = { type: 'function' as const, name: 'get_weather', parameters: { type: 'object', properties: {} } };

const probes: Record<string, ChatRequest> = {
  plain: base,
  'system turn': { ...base, messages: [{ role: 'system', content: [{ type: 'text', text: 'be brief' }] }, user('hi')] },
  sampling: { ...base, topK: 5, seed: 7, presencePenalty: 0.5, frequencyPenalty: 0.5, temperature: 0.2 },
  'adaptive thinking': { ...base, thinking: { enabled: true, adaptive: true, effort: 'high' } },
  'web search': { ...base, tools: [fn, search] },
  'forced computer tool': { ...base, tools: [computer], toolChoice: { type: 'tool', name: 'computer_20250124' } },
  'left-out computer tool': { ...base, tools: [fn, computer] },
  'deferred tool': { ...base, tools: [{ ...fn, deferLoading: true }] },
  'generate features': { ...base, features: { generate: { cachedContent: 'cachedContents/x', logprobs: true } } },
  'messages features': { ...base, features: { messages: { mcp_servers: [{ type: 'url', url: 'https://mcp.example', name: 'x' }] } } },
  hints: { ...base, hints: { metadata: { a: 1 } } },
  'prompt cache': { ...base, cache: { key: 'client-key', retention: '24h' } },
  'json object': { ...base, responseFormat: { type: 'json_object' } },
  'stop sequences': { ...base, stopSequences: ['END'] },
  'system turn video': { ...base, messages: [{ role: 'system', content: [{ type: 'media', mediaType: 'video/mp4', data: 'AAAA' }] }, user('hi')] },
  'video input': { ...base, messages: [{ role: 'user', content: [{ type: 'media', mediaType: 'video/mp4', data: 'AAAA' }] }] },
  'image without data': { ...base, messages: [{ role: 'user', content: [{ type: 'media', mediaType: 'image/png' }] }] },
  'assistant image': { ...base, messages: [user('hi'), { role: 'assistant', content: [{ type: 'media', mediaType: 'image/png', data: 'AAAA' }] }, user('and?')] },
  'tool result image': {
    ...base,
    messages: [
      user('hi'),
      { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'get_weather', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', callId: 'c1', content: [{ type: 'media', mediaType: 'image/png', data: 'AAAA' }] }] },
    ],
  },
};

const adapters: Array<UpstreamAdapter<unknown, Prepared<unknown>>> = [anthropicAdapter, geminiAdapter, openAiChatAdapter, openAiResponsesAdapter, simulatorAdapter] as Array<
  UpstreamAdapter<unknown, Prepared<unknown>>
>;

/** Every key anywhere in the body. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keysOf(item, into);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (inner !== undefined) into.add(key);
      keysOf(inner, into);
    }
  }
  return into;
}

const treatment = (plan: TranslationPlan, field: string) => plan.decisions.find((decision) => decision.field === field)?.treatment;

/** The body's wire names of a field the plan names. */
const wireNames: Record<string, string[]> = {
  top_k: ['top_k', 'topK'],
  seed: ['seed'],
  presence_penalty: ['presence_penalty', 'presencePenalty'],
  frequency_penalty: ['frequency_penalty', 'frequencyPenalty'],
  prompt_cache_key: ['prompt_cache_key'],
  prompt_cache_retention: ['prompt_cache_retention'],
  cachedContent: ['cachedContent'],
  mcp_servers: ['mcp_servers'],
  metadata: ['metadata'],
};

describe.each(adapters.map((adapter) => [adapter.type, adapter] as const))('%s prepare', (_type, adapter) => {
  it.each(Object.entries(probes))('never throws, and its plan matches its body: %s', (_name, request) => {
    for (const strict of [false, true]) {
      const prepared = prepareWith(adapter, request, { strict, upstreamModel: 'upstream-model' });
      const plan = prepared.decisions;
      expect(plan.upstream).toBe(adapter.type);
      const refused = plan.decisions.some((decision) => decision.treatment === 'refused' || (strict && decision.treatment === 'hint'));
      expect(plan.refusal !== undefined).toBe(refused);
      // The simulator answers the request itself; the others' bodies are what goes upstream.
      if (adapter.type === 'simulator' || plan.refusal) continue;
      const keys = keysOf(prepared.body);
      for (const decision of plan.decisions) {
        const names = wireNames[decision.field];
        if (!names) continue;
        const present = names.some((name) => keys.has(name));
        if (decision.treatment === 'hint') expect(present, `${decision.field} is ignored yet in the body`).toBe(false);
        if (decision.treatment === 'native') expect(present, `${decision.field} is forwarded yet not in the body`).toBe(true);
      }
      const tools = keys.has('tools');
      if (treatment(plan, `tool ${search.kind}`) === 'mapped' || treatment(plan, `tool ${search.kind}`) === 'native') expect(JSON.stringify(prepared.body)).toMatch(/search/i);
      if (treatment(plan, `tool ${computer.kind}`) === 'hint') expect(JSON.stringify(prepared.body)).not.toContain('computer_20250124');
      if (request.tools?.some((tool) => tool.type === 'function')) expect(tools).toBe(true);
    }
  });

  it('refuses a tool the client forces but the upstream does not run, a feature of another dialect, and video input where it has no part for it', () => {
    const plan = (request: ChatRequest) => prepareWith(adapter, request).decisions;
    if (adapter.type !== 'anthropic') expect(plan(probes['forced computer tool']).refusal).toMatchObject({ kind: 'unsupported_feature', param: 'tool computer_20250124' });
    if (adapter.type !== 'gemini') expect(plan(probes['generate features']).refusal).toMatchObject({ kind: 'unsupported_feature' });
    // Gemini and Responses take any inline file; the simulator reads no media.
    if (adapter.type === 'anthropic' || adapter.type === 'openai-chat') expect(plan(probes['system turn video']).refusal).toMatchObject({ param: 'media type video/mp4' });
    if (adapter.type === 'anthropic' || adapter.type === 'openai-chat') expect(plan(probes['video input']).refusal).toMatchObject({ kind: 'unsupported_feature', param: 'media type video/mp4' });
  });
});

describe('every conversion a converter makes is a decision, named by the client field', () => {
  type Body = Record<string, any>;
  const schema = { type: 'object', properties: { answer: { type: 'string' } } };
  const jsonSchema: ChatRequest = { ...base, responseFormat: { type: 'json_schema', name: 'answer', schema } };
  const decided = (prepared: Prepared<unknown>, field: string) => prepared.decisions.decisions.filter((decision) => decision.field === field);

  it.each([
    [openAiChatAdapter, 'messages', 'thinking.budget_tokens', (body: Body) => body.reasoning_effort],
    [openAiChatAdapter, 'generate', 'thinkingConfig.thinkingBudget', (body: Body) => body.reasoning_effort],
    [openAiResponsesAdapter, 'messages', 'thinking.budget_tokens', (body: Body) => body.reasoning.effort],
    [openAiResponsesAdapter, 'generate', 'thinkingConfig.thinkingBudget', (body: Body) => body.reasoning.effort],
  ] as const)('%s: a thinking budget from a %s client is bucketed into an effort word, mapped', (adapter, dialect, field, effortOf) => {
    const prepared = prepareWith(adapter as UpstreamAdapter<unknown, Prepared<Body>>, { ...base, thinking: { enabled: true, budgetTokens: 20000 } }, { dialect });
    expect(effortOf(prepared.body)).toBe('high');
    expect(decided(prepared, field)).toEqual([{ field, treatment: 'mapped', note: 'bucketed into reasoning effort high' }]);
  });

  it.each([
    [openAiChatAdapter, 'chat-completions', 'messages', 'output_config.format', 'response_format', (body: Body) => body.response_format],
    [openAiResponsesAdapter, 'responses', 'chat-completions', 'response_format', 'text.format', (body: Body) => body.text?.format],
    [anthropicAdapter, 'messages', 'responses', 'text.format', 'output_config.format', (body: Body) => body.output_config?.format],
    [geminiAdapter, 'generate', 'messages', 'output_config.format', 'responseMimeType', (body: Body) => body.generationConfig?.responseJsonSchema],
  ] as const)('%s: structured output is native from its own dialect (%s), mapped from %s', (adapter, own, other, clientField, sentAs, formatOf) => {
    const typed = adapter as UpstreamAdapter<unknown, Prepared<Body>>;
    const native = prepareWith(typed, jsonSchema, { dialect: own });
    expect(formatOf(native.body)).toBeDefined();
    expect(native.decisions.decisions).toEqual([]);
    const mapped = prepareWith(typed, jsonSchema, { dialect: other });
    expect(formatOf(mapped.body)).toBeDefined();
    expect(mapped.decisions.decisions).toEqual([{ field: clientField, treatment: 'mapped', note: `as ${sentAs}` }]);
    // A request the gateway wrote itself names no client field.
    expect(prepareWith(typed, jsonSchema).decisions.decisions).toEqual([]);
  });

  it('anthropic: the older output_format shape is named as such', () => {
    const prepared = prepareWith(anthropicAdapter, jsonSchema, { dialect: 'chat-completions', settings: { outputFormatField: 'output_format' } });
    expect(prepared.body.output_format).toBeDefined();
    expect(prepared.decisions.decisions).toEqual([{ field: 'response_format', treatment: 'mapped', note: 'as output_format' }]);
  });

  it('anthropic: an effort word without a budget becomes a budget, mapped; the OpenAI types and gemini send the word itself', () => {
    const effort: ChatRequest = { ...base, thinking: { enabled: true, effort: 'high', includeThoughts: true } };
    const prepared = prepareWith(anthropicAdapter, effort, { dialect: 'chat-completions', settings: { cacheBreakpoints: false } });
    expect(prepared.body.thinking).toEqual({ type: 'enabled', budget_tokens: 32768 });
    expect(prepared.decisions.decisions).toEqual([{ field: 'reasoning_effort', treatment: 'mapped', note: 'budget_tokens 32768 by effort high' }]);
    expect(decided(prepareWith(anthropicAdapter, effort, { dialect: 'responses' }), 'reasoning.effort')).toHaveLength(1);
    for (const adapter of [openAiChatAdapter, openAiResponsesAdapter, geminiAdapter] as Array<UpstreamAdapter<unknown, Prepared<unknown>>>) {
      expect(prepareWith(adapter, effort, { dialect: 'chat-completions' }).decisions.decisions).toEqual([]);
    }
  });

  it('a Messages client hiding its thoughts: its own switch on gemini and openai-responses, a hint on openai-chat', () => {
    const omitted: ChatRequest = { ...base, thinking: { enabled: true, effort: 'low', includeThoughts: false } };
    const chat = prepareWith(openAiChatAdapter, omitted, { dialect: 'messages' });
    expect(decided(chat, 'thinking.display')).toEqual([{ field: 'thinking.display', treatment: 'hint', note: 'the upstream has no switch for it: thoughts come back as the server sends them' }]);
    expect(prepareWith(openAiChatAdapter, omitted, { dialect: 'messages', strict: true }).decisions.refusal).toMatchObject({ param: 'thinking.display' });
    const gemini = prepareWith(geminiAdapter, omitted, { dialect: 'messages' });
    expect(gemini.body.generationConfig).toMatchObject({ thinkingConfig: { includeThoughts: false } });
    expect(gemini.decisions.decisions).toEqual([]);
    const responses = prepareWith(openAiResponsesAdapter, omitted, { dialect: 'messages' });
    expect(responses.body.reasoning).toEqual({ effort: 'low' });
    expect(responses.decisions.decisions).toEqual([]);
    // A content-generation client that did not ask for thoughts said nothing about hiding them.
    expect(prepareWith(openAiChatAdapter, omitted, { dialect: 'generate' }).decisions.decisions).toEqual([]);
  });

  it.each([
    ['messages', 'metadata.user_id'],
    ['chat-completions', 'user'],
    [undefined, 'user'],
  ] as const)('gemini leaves out the end user id of a %s client, a hint', (dialect, field) => {
    const prepared = prepareWith(geminiAdapter, { ...base, user: 'user-1' }, { dialect });
    expect(JSON.stringify(prepared.body)).not.toContain('user-1');
    expect(prepared.decisions.decisions).toEqual([{ field, treatment: 'hint', note: 'the upstream has no end-user id' }]);
  });

  it('openai-responses drops stop sequences on a dropUnsupportedParams channel with a hint, refused when strict', () => {
    const stop: ChatRequest = { ...base, stopSequences: ['END'] };
    const prepared = prepareWith(openAiResponsesAdapter, stop, { settings: { dropUnsupportedParams: true } });
    expect(prepared.body).not.toHaveProperty('stop');
    expect(prepared.decisions.decisions).toEqual([
      { field: 'stop_sequences', treatment: 'hint', note: 'dropped, as the channel setting dropUnsupportedParams asks: the upstream has no stop sequences' },
    ]);
    expect(prepareWith(openAiResponsesAdapter, stop, { settings: { dropUnsupportedParams: true }, strict: true }).decisions.refusal).toMatchObject({ param: 'stop_sequences' });
    expect(prepareWith(openAiResponsesAdapter, stop).decisions.refusal).toMatchObject({ param: 'stop_sequences' });
  });
});

describe('preparing', () => {
  it('turns an unexpected error while building into a refusal naming it, never a throw', () => {
    const prepared = preparing<Prepared>('test', false, () => {
      throw new TypeError('cannot read x');
    });
    expect(prepared.decisions.decisions).toEqual([{ field: 'request', treatment: 'refused', note: 'could not translate it (cannot read x)' }]);
    expect(prepared.decisions.refusal).toMatchObject({ kind: 'unsupported_feature', param: 'request' });
  });

  it('lists decisions by rank, whatever order the body was built in, so the header and the first refusal stay stable', () => {
    const prepared = preparing<Prepared>('test', false, (plan) => {
      plan.refused('media type video/mp4', 'has no part for it', PlanRank.rules);
      plan.hint('top_k', undefined, PlanRank.sampling);
      plan.mapped('system messages', 'folded into the system prompt', PlanRank.systemTurns);
      return { body: {} };
    });
    expect(prepared.decisions.decisions.map((decision) => decision.field)).toEqual(['system messages', 'top_k', 'media type video/mp4']);
  });
});
