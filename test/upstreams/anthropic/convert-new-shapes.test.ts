/** The anthropic upstream translating the newer internal shapes: system turns, adaptive thinking, capability tools. */
import { describe, expect, it } from 'vitest';
import type { BuiltinTool, ChatRequest } from '../../../src/core/chat.js';
import { describePlan } from '../../../src/core/translation-plan.js';
import { toMessagesRequest } from '../../../src/upstreams/protocols/messages/convert-request.js';
import { anthropicAdapter } from '../../../src/upstreams/anthropic/index.js';
import { planOf } from '../support/call.js';

const text = (value: string) => ({ type: 'text' as const, text: value });
const base: ChatRequest = { model: 'alias', messages: [{ role: 'user', content: [text('hi')] }], stream: false };
// Without the gateway's own cache breakpoints (cache-breakpoints.test.ts covers them), bodies stay as the client's.
const build = (overrides: Partial<ChatRequest>, settings?: Record<string, unknown>) => toMessagesRequest({ ...base, ...overrides }, 'claude-x', { cacheBreakpoints: false, ...settings });
const plan = (overrides: Partial<ChatRequest>, settings: Record<string, unknown> = {}) => planOf(anthropicAdapter, { ...base, ...overrides }, { strict: false, settings });

const responsesTool = (kind: string, capability?: BuiltinTool['capability']): BuiltinTool => ({
  type: 'builtin',
  dialect: 'responses',
  kind,
  ...(capability ? { capability } : {}),
  raw: { type: kind },
});

describe('system turns', () => {
  it('fold into the top-level system, in order, and leave the conversation', () => {
    const request: Partial<ChatRequest> = {
      system: 'prompt',
      messages: [
        { role: 'user', content: [text('q1')] },
        { role: 'system', content: [text('env one'), text('env two')] },
        { role: 'assistant', content: [text('a1')] },
        { role: 'system', content: [text('later')] },
        { role: 'user', content: [text('q2')] },
      ],
    };
    const { body } = build(request);
    expect(body.system).toBe('prompt\n\nenv one\n\nenv two\n\nlater');
    expect(body.messages).toEqual([
      { role: 'user', content: [text('q1')] },
      { role: 'assistant', content: [text('a1')] },
      { role: 'user', content: [text('q2')] },
    ]);
    expect(describePlan(plan(request))).toBe('mapped=system messages');
    expect(
      build({
        messages: [
          { role: 'system', content: [text('only')] },
          { role: 'user', content: [text('q')] },
        ],
      }).body.system,
    ).toBe('only');
  });
});

describe('adaptive thinking', () => {
  const adaptive = { enabled: true, adaptive: true, effort: 'high' as const, includeThoughts: false };

  it('becomes a budget by effort by default (every thinking model takes one)', () => {
    const { body } = build({ thinking: adaptive, maxTokens: 64000 });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 32768 });
    expect(body).not.toHaveProperty('output_config');
    expect(plan({ thinking: adaptive }).decisions).toContainEqual({ field: 'thinking.adaptive', treatment: 'mapped', note: 'effort high' });
  });

  it('stays adaptive, with output_config.effort, on a channel whose models take it', () => {
    const settings = { adaptiveThinking: true };
    const { body } = build({ thinking: adaptive }, settings);
    expect(body.thinking).toEqual({ type: 'adaptive' });
    expect(body.output_config).toEqual({ effort: 'high' });
    expect(body.max_tokens).toBe(4096);
    expect(build({ thinking: { enabled: true, adaptive: true, effort: 'minimal' } }, settings).body.output_config).toEqual({ effort: 'low' });
    const schema = { type: 'object' };
    expect(build({ thinking: adaptive, responseFormat: { type: 'json_schema', schema } }, settings).body.output_config).toEqual({
      effort: 'high',
      format: { type: 'json_schema', schema },
    });
    expect(plan({ thinking: adaptive }, settings).decisions).toContainEqual({ field: 'thinking.adaptive', treatment: 'native' });
  });
});

describe('provider-run tools of another dialect', () => {
  it('become Anthropic tools for web search, web fetch and code execution', () => {
    const tools = [
      responsesTool('web_search', 'web_search'),
      { ...responsesTool('urlContext', 'web_fetch'), dialect: 'generate' as const },
      responsesTool('code_interpreter', 'code_execution'),
      responsesTool('file_search'),
    ];
    const { body, betas } = build({ tools });
    expect(body.tools).toEqual([
      { type: 'web_search_20250305', name: 'web_search' },
      { type: 'web_fetch_20250910', name: 'web_fetch' },
      { type: 'code_execution_20250825', name: 'code_execution' },
    ]);
    expect(betas).toEqual([]);
    expect(describePlan(plan({ tools }))).toBe('mapped=tool web_search,tool urlContext,tool code_interpreter; ignored=tool file_search');
  });

  it('forced by tool_choice, are named by the tool sent upstream', () => {
    const tools = [responsesTool('code_interpreter', 'code_execution')];
    expect(build({ tools, toolChoice: { type: 'tool', name: 'code_interpreter' } }).body.tool_choice).toEqual({ type: 'tool', name: 'code_execution' });
    expect(plan({ tools, toolChoice: { type: 'tool', name: 'code_interpreter' } }).refusal).toBeUndefined();
    const native: BuiltinTool = { type: 'builtin', dialect: 'messages', kind: 'web_search_20250305', capability: 'web_search', raw: { type: 'web_search_20250305', name: 'search' } };
    expect(build({ tools: [native], toolChoice: { type: 'tool', name: 'web_search_20250305' } }).body.tool_choice).toEqual({ type: 'tool', name: 'search' });
  });
});

describe('other new shapes', () => {
  it('sends deferred function tools loaded, a mapped decision', () => {
    const tools = [{ type: 'function' as const, name: 'Later', parameters: { type: 'object' }, deferLoading: true }];
    expect(build({ tools }).body.tools).toEqual([{ name: 'Later', input_schema: { type: 'object' } }]);
    expect(describePlan(plan({ tools }))).toBe('mapped=defer_loading');
  });

  it('forwards mcp_servers with the MCP client beta', () => {
    const servers = [{ type: 'url', url: 'https://mcp.example.com', name: 'ex' }];
    const { body, betas } = build({ features: { messages: { mcp_servers: servers } } });
    expect(body.mcp_servers).toEqual(servers);
    expect(betas).toEqual(['mcp-client-2025-11-20']);
    expect(plan({ features: { messages: { mcp_servers: servers } } }).refusal).toBeUndefined();
  });

  it('ignores hints it has no field for, and names them', () => {
    const hints = { context_management: { edits: [] }, cache_control: true };
    expect(build({ hints }).body).not.toHaveProperty('context_management');
    expect(describePlan(plan({ hints }))).toBe('ignored=context_management,cache_control');
  });
});
