/**
 * Claude Code 2.1.328's recorded request bodies (test/fixtures/agents): they
 * validate, convert to the internal request as decided, and every upstream type
 * plans and converts them without refusal.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat.js';
import { describePlan } from '../../../src/core/translation-plan.js';
import { messagesToCore } from '../../../src/families/messages/to-core.js';
import { parseMessagesRequest } from '../../../src/families/messages/validate.js';
import { toMessagesRequest } from '../../../src/upstreams/protocols/messages/convert-request.js';
import { toGeminiRequest } from '../../../src/upstreams/protocols/generate/convert-request.js';
import { toChatCompletionRequest } from '../../../src/upstreams/protocols/chat-completions/convert-request.js';
import { toResponsesRequest } from '../../../src/upstreams/protocols/responses/convert-request.js';
import { defaultAdapters } from '../../../src/upstreams/registry.js';
import { simulateAnswer } from '../../../src/upstreams/simulator/answer.js';
import { planOf } from '../../upstreams/support/call.js';

const body = (file: string) => (JSON.parse(readFileSync(new URL(`../../fixtures/agents/claude-code-2.1.328/${file}`, import.meta.url), 'utf8')) as { body: Record<string, unknown> }).body;

const files = {
  opusFirst: '02-claude-opus-5-tool-first-turn.json',
  opusToolResult: '03-claude-opus-5-tool-result-turn.json',
  sonnetFirst: '05-claude-sonnet-4-5-tool-first-turn.json',
  sonnetToolResult: '06-claude-sonnet-4-5-tool-result-turn.json',
};
const core = (file: string): ChatRequest => messagesToCore(parseMessagesRequest(body(file)));

describe('Claude Code request bodies convert to the internal request as decided', () => {
  it('the newest shape: system-role messages as system turns, adaptive thinking with effort, thoughts omitted', () => {
    const req = core(files.opusToolResult);
    expect(req.messages.map((m) => m.role)).toEqual(['user', 'system', 'assistant', 'user', 'system']);
    expect(req.messages[2].content.at(-1)).toMatchObject({ type: 'tool_call', name: 'Bash', input: { command: 'echo SWITCHYARD_TOOL_OK' } });
    expect(req.messages[3].content[0]).toMatchObject({ type: 'tool_result', content: [{ type: 'text', text: 'SWITCHYARD_TOOL_OK' }] });
    expect(req.thinking).toEqual({ enabled: true, adaptive: true, effort: 'high', includeThoughts: false });
    expect(req.system?.startsWith('You are a Claude agent')).toBe(true);
    expect(req.system).not.toContain('x-anthropic-billing-header');
    expect(Object.keys(req.hints ?? {})).toEqual(['x-anthropic-billing-header', 'context_management']);
    expect(req.cache).toEqual({ system: { ttl: '5m' } });
    expect(req.messages.at(-1)!.content.at(-1)!).toHaveProperty('cache', { ttl: '5m' });
    expect(req.features).toBeUndefined();
    expect(req.tools?.every((tool) => tool.type === 'function')).toBe(true);
    expect(req.tools?.flatMap((tool) => (tool.type === 'function' && tool.deferLoading ? [tool.name] : []))).toEqual(['DeferredToolPlaceholder']);
    expect(JSON.parse(req.user!)).toHaveProperty('device_id');
  });

  it('the claude-sonnet-4-5 shape: enabled thinking with its budget, no system turns', () => {
    const req = core(files.sonnetToolResult);
    expect(req.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(req.thinking).toEqual({ enabled: true, budgetTokens: 31999, includeThoughts: false });
  });
});

// Claude Code's cache marks are mapped to each upstream's prompt cache; the simulator has none. The OpenAI types take
// the sonnet shape's thinking budget as an effort word (`budget`); `ignored` is what else an upstream leaves out
// (Gemini has no end-user id, Chat Completions no switch for hiding thoughts).
const expectedPlans: Record<string, { opus: string; sonnet: string; cache: string; budget?: string; ignored?: string }> = {
  simulator: { opus: 'mapped=system messages,thinking.adaptive,defer_loading', sonnet: 'mapped=defer_loading', cache: '', ignored: ',cache_control' },
  anthropic: { opus: 'mapped=system messages,thinking.adaptive,defer_loading', sonnet: 'mapped=defer_loading', cache: ',cache_control' },
  gemini: { opus: 'mapped=system messages,thinking.adaptive,defer_loading', sonnet: 'mapped=defer_loading', cache: ',cache_control', ignored: ',metadata.user_id' },
  'openai-chat': { opus: 'mapped=thinking.adaptive,defer_loading', sonnet: 'mapped=defer_loading', cache: ',cache_control', budget: ',thinking.budget_tokens', ignored: ',thinking.display' },
  'openai-responses': { opus: 'mapped=thinking.adaptive,defer_loading', sonnet: 'mapped=defer_loading', cache: ',cache_control', budget: ',thinking.budget_tokens' },
};
const ignored = (type: string) => `ignored=x-anthropic-billing-header,context_management${expectedPlans[type].ignored ?? ''}`;

const converters: Record<string, (req: ChatRequest) => unknown> = {
  simulator: (req) => simulateAnswer(req, 'sim'),
  anthropic: (req) => toMessagesRequest(req, 'claude-x'),
  gemini: (req) => toGeminiRequest(req, 'gemini-x'),
  'openai-chat': (req) => toChatCompletionRequest(req, 'gpt-x'),
  'openai-responses': (req) => toResponsesRequest(req, 'gpt-x'),
};

const adapters = await defaultAdapters();

describe.each(Object.keys(expectedPlans))('the %s upstream', (type) => {
  const adapter = adapters.get(type);

  it.each(Object.entries(files))('plans and converts %s without refusal', (name, file) => {
    const req = core(file);
    const plan = planOf(adapter, req, { strict: false, settings: {}, dialect: 'messages' });
    expect(plan.refusal).toBeUndefined();
    // A tool loop whose thought is not Anthropic state this gateway sealed goes to anthropic with thinking off (thinking-continuity.ts).
    const continuity = type === 'anthropic' && name.endsWith('ToolResult') ? ',thinking' : '';
    const expected = expectedPlans[type];
    const shape = name.startsWith('opus') ? 'opus' : 'sonnet';
    expect(describePlan(plan)).toBe(`${expected[shape]}${expected.cache}${shape === 'sonnet' ? (expected.budget ?? '') : ''}${continuity}; ${ignored(type)}`);
    expect(() => converters[type](req)).not.toThrow();
  });

  it('refuses in strict mode, naming the first ignored field', () => {
    const plan = planOf(adapter, core(files.opusFirst), { strict: true, settings: {}, dialect: 'messages' });
    expect(plan.refusal?.param).toBe('x-anthropic-billing-header');
  });
});

describe('the anthropic upstream translating the newest shape', () => {
  it('folds the system turns into the system prompt and sends a budget by effort', () => {
    const { body: sent } = toMessagesRequest(core(files.opusToolResult), 'claude-x');
    expect((sent.messages as Array<{ role: string }>).map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    // Claude Code marked its system prompt: the folded prompt is one marked block.
    expect(sent.system).toEqual([{ type: 'text', text: expect.stringMatching(/# Environment[\s\S]*<total_tokens>/), cache_control: { type: 'ephemeral' } }]);
    // The recorded thought carries no state this gateway sealed, so the tool loop goes with thinking off; the first turn thinks.
    expect(sent.thinking).toBeUndefined();
    expect(toMessagesRequest(core(files.opusFirst), 'claude-x').body.thinking).toEqual({ type: 'enabled', budget_tokens: 32768 });
    expect(sent.tools).toContainEqual({ name: 'DeferredToolPlaceholder', description: expect.any(String), input_schema: { type: 'object', properties: {} } });
  });
});
