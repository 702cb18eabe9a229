/** OpenAI's prompt-cache fields on translated requests, for both OpenAI upstreams. */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/core/chat.js';
import { channelProblem } from '../../src/config/entity-rules.js';
import { describePlan } from '../../src/core/translation-plan.js';
import { toChatCompletionRequest } from '../../src/upstreams/protocols/chat-completions/convert-request.js';
import { openAiChatAdapter } from '../../src/upstreams/openai-chat/index.js';
import { toResponsesRequest } from '../../src/upstreams/protocols/responses/convert-request.js';
import { openAiResponsesAdapter } from '../../src/upstreams/openai-responses/index.js';
import { planOf } from './support/call.js';
import type { Prepared, UpstreamAdapter } from '../../src/upstreams/types.js';

const base: ChatRequest = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };
const converters = {
  // OpenAI-compatible servers other than OpenAI's may refuse the gateway's own additions: a channel opts in.
  'openai-chat': (request: ChatRequest, settings: Record<string, unknown> = {}, session?: string) => toChatCompletionRequest(request, 'gpt-x', { promptCacheKey: true, ...settings }, session),
  'openai-responses': (request: ChatRequest, settings: Record<string, unknown> = {}, session?: string) => toResponsesRequest(request, 'gpt-x', settings, session),
};
describe('an openai-chat channel that does not set promptCacheKey', () => {
  const marked: ChatRequest = { ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache: { ttl: '1h' } }] }] };
  it("forwards the client's own fields and adds none of the gateway's", () => {
    expect(toChatCompletionRequest({ ...base, cache: { key: 'client-key' } }, 'gpt-x', {}, 'session-1')).toMatchObject({ prompt_cache_key: 'client-key' });
    const body = toChatCompletionRequest(marked, 'gpt-x', {}, 'session-1');
    expect(body).not.toHaveProperty('prompt_cache_key');
    expect(body).not.toHaveProperty('prompt_cache_retention');
  });
});

const adapters: Record<string, UpstreamAdapter<unknown, Prepared<unknown>>> = { 'openai-chat': openAiChatAdapter as never, 'openai-responses': openAiResponsesAdapter as never };

describe.each(Object.keys(converters) as Array<keyof typeof converters>)('the %s upstream', (type) => {
  const convert = converters[type];

  it("sends the client's own key and retention", () => {
    const body = convert({ ...base, cache: { key: 'client-key', retention: 'in_memory' } }, {}, 'session-1');
    expect(body).toMatchObject({ prompt_cache_key: 'client-key', prompt_cache_retention: 'in_memory' });
  });

  it('else keys the cache by the session the router keeps together', () => {
    expect(convert(base, {}, 'session-1')).toMatchObject({ prompt_cache_key: 'session-1' });
    expect(convert(base)).not.toHaveProperty('prompt_cache_key');
  });

  it('sends a session key longer than OpenAI takes as its hash', () => {
    const key = convert(base, {}, 'x'.repeat(200)).prompt_cache_key as string;
    expect(key).toMatch(/^[\w-]{43}$/);
    expect(convert(base, {}, 'x'.repeat(200)).prompt_cache_key).toBe(key);
  });

  it('asks for 24-hour retention when the client marked its prompt for an hour, and for nothing on five-minute marks', () => {
    const marked = (ttl: '5m' | '1h'): ChatRequest => ({ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache: { ttl } }] }] });
    expect(convert(marked('1h'))).toHaveProperty('prompt_cache_retention', '24h');
    expect(convert(marked('5m'))).not.toHaveProperty('prompt_cache_retention');
    expect(convert({ ...base, cache: { system: { ttl: '1h' } } })).toHaveProperty('prompt_cache_retention', '24h');
  });

  it('sends neither field on a channel with promptCacheKey: false', () => {
    expect(convert(base, { promptCacheKey: false }, 'session-1')).not.toHaveProperty('prompt_cache_key');
    const body = convert({ ...base, cache: { key: 'k', retention: '24h' } }, { promptCacheKey: false }, 'session-1');
    expect(body).not.toHaveProperty('prompt_cache_key');
    expect(body).not.toHaveProperty('prompt_cache_retention');
  });

  it('plans the key and retention as native, marks as mapped to automatic prefix caching; ignored where the channel sends none', () => {
    const request: ChatRequest = { ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache: { ttl: '5m' } }] }], cache: { key: 'k', retention: '24h' } };
    const plan = planOf(adapters[type], request, { strict: true, settings: {} });
    expect(plan.refusal).toBeUndefined();
    expect(plan.decisions.filter((d) => d.field.startsWith('prompt_cache'))).toEqual([
      { field: 'prompt_cache_key', treatment: 'native' },
      { field: 'prompt_cache_retention', treatment: 'native' },
    ]);
    expect(describePlan(plan)).toBe('mapped=cache_control');
    const off = planOf(adapters[type], request, { strict: false, settings: { promptCacheKey: false } });
    expect(describePlan(off)).toBe('mapped=cache_control; ignored=prompt_cache_key,prompt_cache_retention');
  });
});

describe('the settings that turn prompt-cache fields off', () => {
  const channel = (type: string, settings: Record<string, unknown>) => ({ name: 'c', type, baseUrl: 'https://api.example.com/v1', apiKeys: ['k'], models: ['*'], settings });

  it.each([
    ['anthropic', 'cacheBreakpoints'],
    ['openai-chat', 'promptCacheKey'],
    ['openai-responses', 'promptCacheKey'],
  ])('a %s channel takes %s as true or false only', (type, key) => {
    expect(channelProblem(channel(type, { [key]: false }))).toBeUndefined();
    expect(channelProblem(channel(type, { [key]: 'no' }))).toEqual({ field: `settings.${key}`, message: 'must be true or false' });
  });
});
