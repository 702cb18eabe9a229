/** ChatRequest → Gemini request body. */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat.js';
import { GatewayError } from '../../../src/core/errors.js';
import { generateFeatureKeys } from '../../../src/families/generate/features.js';
import { toGeminiRequest } from '../../../src/upstreams/protocols/generate/convert-request.js';
import { geminiAdapter } from '../../../src/upstreams/gemini/index.js';
import { geminiCapabilities, geminiFeatures } from '../../../src/upstreams/protocols/generate/capabilities.js';
import { planOf, prepareWith } from '../support/call.js';

const base = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'client-model',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  stream: false,
  ...overrides,
});

const weather = { type: 'function' as const, name: 'get_weather', description: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };

describe('toGeminiRequest', () => {
  it('maps the system prompt and sampling to systemInstruction and generationConfig', () => {
    const body = toGeminiRequest(
      base({ system: 'be brief', maxTokens: 100, temperature: 0.3, topP: 0.9, topK: 40, stopSequences: ['END'], seed: 3, presencePenalty: 0.1, frequencyPenalty: 0.2 }),
      'gemini-2.5-flash',
    );
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'be brief' }] });
    expect(body.generationConfig).toEqual({
      maxOutputTokens: 100,
      temperature: 0.3,
      topP: 0.9,
      topK: 40,
      stopSequences: ['END'],
      seed: 3,
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
    });
  });

  it('sends function declarations as JSON Schema and tool choice as calling modes', () => {
    const tools = [weather];
    expect(toGeminiRequest(base({ tools }), 'm')).toMatchObject({
      tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'weather', parametersJsonSchema: weather.parameters }] }],
    });
    expect(toGeminiRequest(base({ tools }), 'm').toolConfig).toBeUndefined();
    expect(toGeminiRequest(base({ tools, toolChoice: { type: 'auto' } }), 'm').toolConfig).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    expect(toGeminiRequest(base({ tools, toolChoice: { type: 'none' } }), 'm').toolConfig).toEqual({ functionCallingConfig: { mode: 'NONE' } });
    expect(toGeminiRequest(base({ tools, toolChoice: { type: 'required' } }), 'm').toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });
    expect(toGeminiRequest(base({ tools, toolChoice: { type: 'tool', name: 'get_weather' } }), 'm').toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] },
    });
    expect(toGeminiRequest(base({ tools: [{ ...weather, strict: true }] }), 'm').toolConfig).toEqual({ functionCallingConfig: { mode: 'VALIDATED' } });
  });

  it('forwards builtin tools of its own dialect and leaves out others it has no equivalent of', () => {
    const body = toGeminiRequest(base({ tools: [{ type: 'builtin', dialect: 'generate', kind: 'codeExecution', raw: { codeExecution: {} } }] }), 'm');
    expect(body.tools).toEqual([{ codeExecution: {} }]);
    const bash = { type: 'builtin' as const, dialect: 'messages' as const, kind: 'bash_20250124', raw: {} };
    expect(toGeminiRequest(base({ tools: [bash] }), 'm')).not.toHaveProperty('tools');
    const plan = planOf(geminiAdapter, base({ tools: [bash], toolChoice: { type: 'tool', name: 'bash_20250124' } }), { strict: false, settings: {} });
    expect(plan.refusal?.message).toMatch(/bash_20250124/);
  });

  it('pairs tool results with their call names and sends signatures back where they came from', () => {
    const body = toGeminiRequest(
      base({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'weather in Paris?' }] },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', text: 'Let me look it up.' },
              { type: 'thinking', text: '', signature: 'c2lnbmF0dXJl', origin: 'gemini' },
              { type: 'tool_call', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
              { type: 'tool_call', id: 'call_2', name: 'get_weather', input: { city: 'Lyon' } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'here you go' },
              { type: 'tool_result', callId: 'call_1', content: [{ type: 'text', text: 'sunny' }] },
              { type: 'tool_result', callId: 'call_2', content: [{ type: 'text', text: 'no data' }], isError: true },
            ],
          },
        ],
      }),
      'gemini-3-pro-preview',
    );
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'weather in Paris?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Let me look it up.', thought: true },
          { functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnbmF0dXJl' },
          { functionCall: { id: 'call_2', name: 'get_weather', args: { city: 'Lyon' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'call_1', name: 'get_weather', response: { output: 'sunny' } } },
          { functionResponse: { id: 'call_2', name: 'get_weather', response: { error: 'no data' } } },
          { text: 'here you go' },
        ],
      },
    ]);
  });

  it('gives an unsigned replayed call the skip sentinel on Gemini 3 models only', () => {
    const messages: ChatRequest['messages'] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'tool_call', id: 'c', name: 'f', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', callId: 'c', content: [{ type: 'text', text: 'ok' }] }] },
    ];
    const call = (model: string) => (toGeminiRequest(base({ messages }), model).contents as any)[1].parts[0];
    expect(call('gemini-3-flash-preview').thoughtSignature).toBe('skip_thought_signature_validator');
    expect(call('gemini-2.5-pro').thoughtSignature).toBeUndefined();
  });

  it("sends back only Gemini's own signatures: another provider's, or one of unknown origin, gives way to the sentinel", () => {
    const replay = (signed: ChatRequest['messages'][number]['content']) =>
      (
        toGeminiRequest(
          base({
            messages: [
              { role: 'user', content: [{ type: 'text', text: 'go' }] },
              { role: 'assistant', content: signed },
            ],
          }),
          'gemini-3-pro-preview',
        ).contents as any
      )[1].parts;
    const call = { type: 'tool_call' as const, id: 'c', name: 'f', input: {} };
    expect(replay([{ type: 'thinking', text: '', signature: 'rs_1:gAAAA', origin: 'openai-responses' }, call])).toEqual([
      { functionCall: { id: 'c', name: 'f', args: {} }, thoughtSignature: 'skip_thought_signature_validator' },
    ]);
    expect(replay([{ type: 'thinking', text: 'hm', signature: 'EqQB', origin: 'anthropic' }, { type: 'thinking', text: '', signature: 'raw' }, call])).toEqual([
      { text: 'hm', thought: true },
      { functionCall: { id: 'c', name: 'f', args: {} }, thoughtSignature: 'skip_thought_signature_validator' },
    ]);
    // A call's own signature (ToolCallPart.signature) goes back on it.
    expect(replay([{ ...call, signature: 'Y2FsbA==', origin: 'gemini' }])).toEqual([{ functionCall: { id: 'c', name: 'f', args: {} }, thoughtSignature: 'Y2FsbA==' }]);
  });

  it('sends media inline or by URI and plain-text documents as text', () => {
    const body = toGeminiRequest(
      base({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'media', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
              { type: 'media', mediaType: 'image/*', url: 'https://example.com/a' },
              { type: 'media', mediaType: 'text/plain', text: 'notes', title: 'notes.txt' },
            ],
          },
        ],
      }),
      'm',
    );
    expect((body.contents as any)[0].parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
      { fileData: { fileUri: 'https://example.com/a' } },
      { text: 'notes.txt\n\nnotes' },
    ]);
  });

  it('maps thinking and structured output', () => {
    expect(toGeminiRequest(base({ thinking: { enabled: true, budgetTokens: 2048, includeThoughts: true } }), 'm').generationConfig).toEqual({
      thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 },
    });
    expect(toGeminiRequest(base({ thinking: { enabled: true, effort: 'low' } }), 'm').generationConfig).toEqual({
      thinkingConfig: { includeThoughts: true, thinkingLevel: 'LOW' },
    });
    expect(toGeminiRequest(base({ thinking: { enabled: true, adaptive: true, effort: 'high' } }), 'm').generationConfig).toEqual({
      thinkingConfig: { includeThoughts: true, thinkingLevel: 'HIGH' },
    });
    expect(toGeminiRequest(base({ thinking: { enabled: true, adaptive: true, includeThoughts: false } }), 'm').generationConfig).toEqual({
      thinkingConfig: { includeThoughts: false, thinkingBudget: -1 },
    });
    expect(toGeminiRequest(base({ thinking: { enabled: false } }), 'm').generationConfig).toEqual({ thinkingConfig: { thinkingBudget: 0 } });
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(toGeminiRequest(base({ responseFormat: { type: 'json_schema', schema } }), 'm').generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
    });
    expect(toGeminiRequest(base({ responseFormat: { type: 'json_object' } }), 'm').generationConfig).toEqual({ responseMimeType: 'application/json' });
  });

  it('forwards request-shaping features and refuses those whose answer cannot be carried', () => {
    const body = toGeminiRequest(
      base({
        features: {
          generate: { cachedContent: 'cachedContents/x', mediaResolution: 'MEDIA_RESOLUTION_LOW', safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }] },
        },
      }),
      'm',
    );
    expect(body.cachedContent).toBe('cachedContents/x');
    expect(body.safetySettings).toEqual([{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }]);
    expect(body.generationConfig).toEqual({ mediaResolution: 'MEDIA_RESOLUTION_LOW' });
    for (const feature of ['candidateCount', 'logprobs', 'responseModalities', 'speechConfig']) {
      const { body: refusedBody, decisions } = prepareWith(geminiAdapter, base({ features: { generate: { [feature]: 2 } } }));
      expect(decisions.refusal).toBeInstanceOf(GatewayError);
      expect(decisions.refusal?.kind).toBe('unsupported_feature');
      expect(decisions.refusal?.message).toContain(feature);
      expect(refusedBody).not.toHaveProperty(feature);
    }
  });
});

describe('geminiAdapter', () => {
  it('declares every feature key the content-generation family may set, and the built-in tools', () => {
    for (const key of generateFeatureKeys) {
      const plan = planOf(geminiAdapter, { model: 'm', messages: [], stream: false, features: { generate: { [key]: true } } }, { strict: false, settings: {} });
      expect(plan.refusal === undefined).toBe('where' in geminiFeatures[key]);
    }
    for (const kind of ['codeExecution', 'googleSearch', 'googleSearchRetrieval', 'urlContext']) expect(geminiCapabilities.builtinTools!.has(kind)).toBe(true);
    expect(geminiAdapter.nativeDialect).toBe('generate');
  });
});
