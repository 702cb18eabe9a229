/**
 * The gemini upstream serving other dialects' new shapes: system turns folded
 * into systemInstruction, adaptive thinking, provider-run tools run as
 * Gemini's own, hints left out, and answers carrying code execution parts
 * and grounding metadata read back as text.
 */
import { describe, expect, it } from 'vitest';
import type { BuiltinTool, ChatRequest } from '../../../src/core/chat.js';
import { fromGeminiResponse } from '../../../src/upstreams/protocols/generate/convert-response.js';
import { geminiSseToEvents } from '../../../src/upstreams/protocols/generate/convert-stream.js';
import { toGeminiRequest } from '../../../src/upstreams/protocols/generate/convert-request.js';
import { geminiAdapter } from '../../../src/upstreams/gemini/index.js';
import { collect, foldEvents } from '../support/fold-events.js';
import { planOf } from '../support/call.js';

const base = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'client-model',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  stream: false,
  ...overrides,
});
const plan = (request: ChatRequest, strict = false) => planOf(geminiAdapter, request, { strict, settings: {} });
const builtin = (dialect: BuiltinTool['dialect'], kind: string, capability?: BuiltinTool['capability']): BuiltinTool => ({
  type: 'builtin',
  dialect,
  kind,
  raw: { type: kind, name: kind },
  ...(capability ? { capability } : {}),
});

describe('gemini upstream: requests of other dialects', () => {
  it('folds system turns into systemInstruction after the system prompt, in conversation order', () => {
    const request = base({
      system: 'lead',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'one' }] },
        { role: 'system', content: [{ type: 'text', text: 'first rule' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'two' }] },
        { role: 'system', content: [{ type: 'text', text: 'second rule' }] },
        { role: 'user', content: [{ type: 'text', text: 'three' }] },
      ],
    });
    const body = toGeminiRequest(request, 'gemini-2.5-flash');
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'lead' }, { text: 'first rule' }, { text: 'second rule' }] });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'one' }] },
      { role: 'model', parts: [{ text: 'two' }] },
      { role: 'user', parts: [{ text: 'three' }] },
    ]);
    expect(plan(request).decisions).toContainEqual({ field: 'system messages', treatment: 'mapped', note: 'folded into the system prompt' });
    const noLead = toGeminiRequest(base({ messages: [{ role: 'system', content: [{ type: 'text', text: 'only' }] }, ...base().messages] }), 'm');
    expect(noLead.systemInstruction).toEqual({ parts: [{ text: 'only' }] });
  });

  it('maps adaptive thinking to a thinking level, or to the dynamic budget without an effort', () => {
    const adaptive = base({ thinking: { enabled: true, adaptive: true, effort: 'medium' } });
    expect(toGeminiRequest(adaptive, 'm').generationConfig).toEqual({ thinkingConfig: { includeThoughts: true, thinkingLevel: 'MEDIUM' } });
    expect(plan(adaptive).decisions).toContainEqual({ field: 'thinking.adaptive', treatment: 'mapped', note: 'effort medium' });
    const dynamic = base({ thinking: { enabled: true, adaptive: true } });
    expect(toGeminiRequest(dynamic, 'm').generationConfig).toEqual({ thinkingConfig: { includeThoughts: true, thinkingBudget: -1 } });
  });

  it('runs search, URL fetch and code execution of other dialects as its own tools, once each', () => {
    const tools = [
      builtin('messages', 'web_search_20250305', 'web_search'),
      builtin('responses', 'web_search', 'web_search'),
      builtin('messages', 'web_fetch_20250910', 'web_fetch'),
      builtin('responses', 'code_interpreter', 'code_execution'),
      builtin('messages', 'bash_20250124'),
    ];
    const request = base({ tools });
    expect(toGeminiRequest(request, 'm').tools).toEqual([{ googleSearch: {} }, { urlContext: {} }, { codeExecution: {} }]);
    const decisions = plan(request).decisions;
    expect(decisions).toContainEqual({ field: 'tool web_search_20250305', treatment: 'mapped', note: "the upstream's own web search" });
    expect(decisions).toContainEqual({ field: 'tool code_interpreter', treatment: 'mapped', note: "the upstream's own code execution" });
    expect(decisions).toContainEqual(expect.objectContaining({ field: 'tool bash_20250124', treatment: 'hint' }));
    expect(plan(request).refusal).toBeUndefined();
  });

  it('lets the model decide when a client forces a provider-run tool Gemini runs (no function to force)', () => {
    const request = base({ tools: [builtin('responses', 'web_search', 'web_search')], toolChoice: { type: 'tool', name: 'web_search' } });
    expect(plan(request).refusal).toBeUndefined();
    const body = toGeminiRequest(request, 'm');
    expect(body.tools).toEqual([{ googleSearch: {} }]);
    expect(body).not.toHaveProperty('toolConfig');
  });

  it('ignores hints of other dialects: named in the plan, never sent', () => {
    const request = base({ hints: { metadata: { user_id: 'u' }, prompt_cache_key: 'k' } });
    expect(plan(request).decisions).toEqual([
      { field: 'metadata', treatment: 'hint' },
      { field: 'prompt_cache_key', treatment: 'hint' },
    ]);
    expect(Object.keys(toGeminiRequest(request, 'm'))).toEqual(['contents']);
    expect(plan(request, true).refusal?.message).toMatch(/strict translation/);
  });
});

describe('gemini upstream: answers with provider-run tool parts', () => {
  const answer = {
    candidates: [
      {
        content: {
          role: 'model',
          parts: [
            { text: 'Let me compute.' },
            { executableCode: { language: 'PYTHON', code: 'print(6 * 7)' } },
            { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '42\n' } },
            { text: 'The answer is 42.' },
          ],
        },
        finishReason: 'STOP',
        groundingMetadata: { webSearchQueries: ['six times seven'], groundingChunks: [{ web: { uri: 'https://example.com', title: 'x' } }] },
      },
    ],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 20, toolUsePromptTokenCount: 5, totalTokenCount: 35 },
    modelVersion: 'gemini-2.5-flash',
  };
  const expected = [
    { type: 'text', text: 'Let me compute.' },
    { type: 'text', text: '```python\nprint(6 * 7)\n```' },
    { type: 'text', text: 'Code execution result (OUTCOME_OK):\n42\n' },
    { type: 'text', text: 'The answer is 42.' },
  ];

  it('keeps the text, renders code and its result as text, and reads past grounding metadata (plain)', () => {
    const response = fromGeminiResponse(answer as never, 'm', { keepTextSignatures: false });
    expect(response.content).toEqual(expected);
    expect(response.finishReason).toBe('stop');
  });

  it('does the same for a stream', async () => {
    const chunks = [
      { candidates: [{ content: { role: 'model', parts: answer.candidates[0].content.parts.slice(0, 2) } }] },
      { ...answer, candidates: [{ ...answer.candidates[0], content: { role: 'model', parts: answer.candidates[0].content.parts.slice(2) } }] },
    ];
    const body = (async function* () {
      for (const chunk of chunks) yield new TextEncoder().encode(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    })();
    const folded = foldEvents(await collect(geminiSseToEvents(body, { keepTextSignatures: false })));
    expect(folded.content.map((part) => (part.type === 'text' ? part.text : part.type)).join('')).toBe(expected.map((part) => part.text).join(''));
    expect(folded.finishReason).toBe('stop');
  });
});
