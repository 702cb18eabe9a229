/** ChatRequest → Responses request body, for Messages and content-generation clients. */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat.js';
import { GatewayError } from '../../../src/core/errors.js';
import { toResponsesRequest } from '../../../src/upstreams/protocols/responses/convert-request.js';
import { openAiResponsesAdapter } from '../../../src/upstreams/openai-responses/index.js';
import { packReasoning } from '../../../src/upstreams/protocols/responses/reasoning-proof.js';
import { planOf } from '../support/call.js';

const base: ChatRequest = { model: 'client-model', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };

describe('toResponsesRequest', () => {
  it('sends a stateless request with the system prompt as instructions', () => {
    const body = toResponsesRequest({ ...base, system: 'be brief', maxTokens: 100, temperature: 0.3, topP: 0.9, user: 'u' }, 'gpt-x');
    expect(body).toEqual({
      model: 'gpt-x',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      store: false,
      instructions: 'be brief',
      max_output_tokens: 100,
      temperature: 0.3,
      top_p: 0.9,
      user: 'u',
    });
  });

  it('converts a tool loop with reasoning into items, in order', () => {
    const signature = packReasoning('rs_1', 'gAAAAenc');
    const body = toResponsesRequest(
      {
        ...base,
        stream: true,
        thinking: { enabled: true, budgetTokens: 2048, includeThoughts: true },
        tools: [{ type: 'function', name: 'calc', parameters: { type: 'object' } }],
        toolChoice: { type: 'tool', name: 'calc', disableParallel: true },
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'add' },
              { type: 'media', mediaType: 'image/png', data: 'AAAA' },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', text: 'plan', signature, origin: 'openai-responses' },
              { type: 'thinking', text: 'foreign thought', signature: 'not-ours' },
              { type: 'thinking', text: 'foreign proof', signature: packReasoning('rs_2', 'gAAAAother'), origin: 'anthropic' },
              { type: 'text', text: 'calling' },
              { type: 'tool_call', id: 'call_1', name: 'calc', input: { a: 1 } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', callId: 'call_1', content: [{ type: 'text', text: '2' }] },
              { type: 'text', text: 'thanks' },
            ],
          },
        ],
      },
      'gpt-x',
    );
    expect(body.input).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'add' },
          { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'auto' },
        ],
      },
      { type: 'reasoning', id: 'rs_1', encrypted_content: 'gAAAAenc', summary: [{ type: 'summary_text', text: 'plan' }] },
      { role: 'assistant', content: 'calling' },
      { type: 'function_call', call_id: 'call_1', name: 'calc', arguments: '{"a":1}' },
      { type: 'function_call_output', call_id: 'call_1', output: '2' },
      { role: 'user', content: [{ type: 'input_text', text: 'thanks' }] },
    ]);
    expect(body).toMatchObject({
      tools: [{ type: 'function', name: 'calc', parameters: { type: 'object' }, strict: false }],
      tool_choice: { type: 'function', name: 'calc' },
      parallel_tool_calls: false,
      reasoning: { effort: 'low', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      stream: true,
    });
  });

  it('maps structured output and documents', () => {
    const body = toResponsesRequest(
      {
        ...base,
        responseFormat: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true },
        messages: [{ role: 'user', content: [{ type: 'media', mediaType: 'application/pdf', data: 'JVBE', filename: 'a.pdf' }] }],
      },
      'gpt-x',
    );
    expect(body.text).toEqual({ format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true } });
    expect(body.input).toEqual([{ role: 'user', content: [{ type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBE' }] }]);
  });

  it('plans what the dialect cannot express: refused by name, or ignored as a hint', () => {
    const plan = (request: ChatRequest, settings: Record<string, unknown> = {}) => planOf(openAiResponsesAdapter, request, { strict: false, settings });
    for (const request of [
      { ...base, stopSequences: ['x'] },
      { ...base, features: { generate: { candidateCount: 2 } } },
    ]) {
      expect(plan(request).refusal).toBeInstanceOf(GatewayError);
    }
    for (const request of [
      { ...base, topK: 3 },
      { ...base, seed: 1 },
      { ...base, tools: [{ type: 'builtin' as const, dialect: 'messages' as const, kind: 'bash_20241022', raw: {} }] },
    ]) {
      expect(plan(request).refusal).toBeUndefined();
      const body = toResponsesRequest(request, 'gpt-x');
      expect(body).not.toHaveProperty('top_k');
      expect(body).not.toHaveProperty('seed');
      expect(body).not.toHaveProperty('tools');
    }
    expect(plan({ ...base, stopSequences: ['x'] }, { dropUnsupportedParams: true }).refusal).toBeUndefined();
    expect(toResponsesRequest({ ...base, stopSequences: ['x'] }, 'gpt-x')).not.toHaveProperty('stop');
  });

  it("keeps system turns in place as developer messages, runs other dialects' web search as its own, maps adaptive thinking to an effort", () => {
    const request: ChatRequest = {
      ...base,
      system: 'rules',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'one' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'two' }] },
        { role: 'system', content: [{ type: 'text', text: 'now be terse' }] },
        { role: 'user', content: [{ type: 'text', text: 'three' }] },
      ],
      tools: [{ type: 'builtin', dialect: 'messages', kind: 'web_search_20250305', capability: 'web_search', raw: { type: 'web_search_20250305', name: 'web_search' } }],
      thinking: { enabled: true, adaptive: true },
      hints: { context_management: {}, 'metadata.user_id': 'u' },
    };
    const plan = planOf(openAiResponsesAdapter, request, { strict: false, settings: {} });
    expect(plan.refusal).toBeUndefined();
    expect(plan.decisions).toEqual(
      expect.arrayContaining([
        { field: 'system messages', treatment: 'native' },
        expect.objectContaining({ field: 'tool web_search_20250305', treatment: 'mapped' }),
        expect.objectContaining({ field: 'thinking.adaptive', treatment: 'mapped' }),
        { field: 'context_management', treatment: 'hint' },
      ]),
    );
    const body = toResponsesRequest(request, 'gpt-x');
    expect(body.input).toEqual([
      { role: 'user', content: [{ type: 'input_text', text: 'one' }] },
      { role: 'assistant', content: 'two' },
      { role: 'developer', content: 'now be terse' },
      { role: 'user', content: [{ type: 'input_text', text: 'three' }] },
    ]);
    expect(body.tools).toEqual([{ type: 'web_search' }]);
    expect(body.reasoning).toEqual({ effort: 'medium' });
    expect(body).not.toHaveProperty('context_management');
    expect(body).not.toHaveProperty('metadata');
    expect(toResponsesRequest({ ...request, thinking: { enabled: true, adaptive: true, effort: 'high' } }, 'gpt-x').reasoning).toEqual({ effort: 'high' });
  });
});
