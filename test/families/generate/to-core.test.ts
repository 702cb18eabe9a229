import { describe, expect, it } from 'vitest';
import { generateToCore } from '../../../src/families/generate/to-core.js';
import { wrapThought } from '../../../src/families/generate/thought-token.js';
import { toJsonSchema } from '../../../src/families/generate/json-schema.js';
import { parseGenerateRequest } from '../../../src/families/generate/validate.js';
import { PNG_HEAD } from '../../support/media-samples.js';

const core = (body: unknown, stream = false) => generateToCore(parseGenerateRequest(structuredClone(body)), 'client-model', stream);
const user = (text: string) => ({ role: 'user', parts: [{ text }] });

describe('generateToCore: contents', () => {
  it('maps roles, merges turns of the same side, and joins the system instruction', () => {
    const request = core({
      systemInstruction: { parts: [{ text: 'one' }, { text: 'two' }] },
      contents: [user('a'), { parts: [{ text: 'b' }] }, { role: 'model', parts: [{ text: 'c' }] }],
    });
    expect(request.system).toBe('one\ntwo');
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'c' }] },
    ]);
    expect(request.model).toBe('client-model');
  });

  it('keeps inline media and image URIs as media parts', () => {
    const request = core({
      contents: [{ parts: [{ inlineData: { mimeType: 'audio/wav', data: 'AAAA' } }, { fileData: { mimeType: 'image/png', fileUri: 'https://x/y.png', displayName: 'y' } }] }],
    });
    expect(request.messages[0].content).toEqual([
      { type: 'media', mediaType: 'audio/wav', data: 'AAAA' },
      { type: 'media', mediaType: 'image/png', url: 'https://x/y.png', title: 'y' },
    ]);
  });

  it('gives calls without an id one and pairs each response with its call by name, then by id', () => {
    const request = core({
      contents: [
        user('go'),
        { role: 'model', parts: [{ functionCall: { name: 'a', args: { x: 1 } } }, { functionCall: { name: 'a' } }, { functionCall: { id: 'given', name: 'b' } }] },
        {
          role: 'function',
          parts: [
            { functionResponse: { name: 'a', response: { output: 'first' } } },
            { functionResponse: { name: 'a', response: { content: 'second' } } },
            { functionResponse: { id: 'given', name: 'b', response: { error: { code: 1 } } } },
          ],
        },
      ],
    });
    const calls = request.messages[1].content as Array<{ id: string; name: string; input: unknown }>;
    expect(calls.map((call) => call.name)).toEqual(['a', 'a', 'b']);
    expect(calls[0].input).toEqual({ x: 1 });
    expect(calls[1].input).toEqual({});
    expect(calls[0].id).not.toBe(calls[1].id);
    expect(calls[2].id).toBe('given');
    expect(request.messages[2].content).toEqual([
      { type: 'tool_result', callId: calls[0].id, name: 'a', content: [{ type: 'text', text: 'first' }] },
      { type: 'tool_result', callId: calls[1].id, name: 'a', content: [{ type: 'text', text: 'second' }] },
      { type: 'tool_result', callId: 'given', name: 'b', content: [{ type: 'text', text: '{"code":1}' }], isError: true },
    ]);
  });

  it('keeps a structured response as its JSON, and function response media', () => {
    const request = core({
      contents: [
        user('go'),
        { role: 'model', parts: [{ functionCall: { name: 'shot' } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'shot', response: { width: 3, height: 4 }, parts: [{ inlineData: { mimeType: 'image/png', data: PNG_HEAD } }] } }] },
      ],
    });
    expect((request.messages[2].content[0] as { content: unknown }).content).toEqual([
      { type: 'text', text: '{"width":3,"height":4}' },
      { type: 'media', mediaType: 'image/png', data: PNG_HEAD },
    ]);
  });

  it('turns thought parts into one thinking part, and a signature on the next part signs it', () => {
    const request = core({
      contents: [
        user('q'),
        {
          role: 'model',
          parts: [
            { text: 'step one, ', thought: true },
            { text: 'step two', thought: true },
            { functionCall: { name: 'f' }, thoughtSignature: 'c2ln' },
          ],
        },
      ],
    });
    expect(request.messages[1].content[0]).toEqual({ type: 'thinking', text: 'step one, step two', signature: 'c2ln' });
    expect(request.messages[1].content[1]).toMatchObject({ type: 'tool_call', name: 'f' });
  });

  it('restores a thought carried inside a signature, and ignores the skip sentinel', () => {
    const token = wrapThought({ type: 'thinking', text: 'hidden thought', signature: 'sig-1' });
    const redacted = wrapThought({ type: 'thinking', text: '', redactedData: 'opaque' });
    const request = core({
      contents: [
        user('q'),
        {
          role: 'model',
          parts: [
            { text: 'answer', thoughtSignature: token },
            { text: 'more', thoughtSignature: redacted },
            { functionCall: { name: 'f' }, thoughtSignature: 'skip_thought_signature_validator' },
          ],
        },
      ],
    });
    expect(request.messages[1].content).toEqual([
      { type: 'thinking', text: 'hidden thought', signature: 'sig-1' },
      { type: 'text', text: 'answer' },
      { type: 'thinking', text: '', redactedData: 'opaque' },
      { type: 'text', text: 'more' },
      expect.objectContaining({ type: 'tool_call', name: 'f' }),
    ]);
  });

  it('drops code execution and server-side tool parts from the history, as hints', () => {
    const request = core({
      contents: [
        user('q'),
        {
          role: 'model',
          parts: [
            { executableCode: { language: 'PYTHON', code: 'print(2)' } },
            { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '2' } },
            { toolCall: { toolType: 'GOOGLE_SEARCH_WEB' } },
            { text: 'It printed 2.' },
          ],
        },
        { role: 'model', parts: [{ codeExecutionResult: { outcome: 'OUTCOME_OK' } }] },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'It printed 2.' }] },
    ]);
    expect(Object.keys(request.hints ?? {})).toEqual(['executableCode', 'codeExecutionResult', 'toolCall']);
  });
});

describe('generateToCore: configuration', () => {
  it('maps sampling and limits', () => {
    const request = core(
      {
        contents: [user('q')],
        generationConfig: { maxOutputTokens: 50, temperature: 1.5, topP: 0.5, topK: 3, stopSequences: ['x'], seed: 9, presencePenalty: 0.1, frequencyPenalty: 0.2, candidateCount: 1 },
      },
      true,
    );
    expect(request).toMatchObject({ maxTokens: 50, temperature: 1.5, topP: 0.5, topK: 3, stopSequences: ['x'], seed: 9, presencePenalty: 0.1, frequencyPenalty: 0.2, stream: true });
    expect(request.features).toBeUndefined();
  });

  it('maps thinking budgets, levels and the show-thoughts switch', () => {
    const thinking = (thinkingConfig: unknown) => core({ contents: [user('q')], generationConfig: { thinkingConfig } }).thinking;
    expect(thinking({ thinkingBudget: 1024, includeThoughts: true })).toEqual({ enabled: true, includeThoughts: true, budgetTokens: 1024 });
    expect(thinking({ thinkingBudget: 0 })).toEqual({ enabled: false });
    expect(thinking({ thinkingBudget: -1 })).toEqual({ enabled: true, adaptive: true, includeThoughts: false });
    expect(thinking({ thinkingLevel: 'HIGH' })).toEqual({ enabled: true, adaptive: true, includeThoughts: false, effort: 'high' });
    for (const [level, effort] of [
      ['MINIMAL', 'minimal'],
      ['low', 'low'],
      ['Medium', 'medium'],
      ['high', 'high'],
    ]) {
      expect(thinking({ thinkingLevel: level, includeThoughts: true })).toEqual({ enabled: true, adaptive: true, includeThoughts: true, effort });
    }
    expect(thinking({ thinkingLevel: 'THINKING_LEVEL_UNSPECIFIED' })).toEqual({ enabled: true, adaptive: true, includeThoughts: false });
    expect(thinking({ includeThoughts: true })).toEqual({ enabled: true, includeThoughts: true });
    expect(thinking({ includeThoughts: false })).toBeUndefined();
  });

  it('maps JSON output: responseSchema converted, responseJsonSchema as is, enum output wrapped', () => {
    const format = (generationConfig: unknown) => core({ contents: [user('q')], generationConfig }).responseFormat;
    expect(format({ responseMimeType: 'application/json' })).toEqual({ type: 'json_object' });
    expect(format({ responseMimeType: 'application/json', responseJsonSchema: { type: 'object', properties: {} } })).toEqual({
      type: 'json_schema',
      name: 'response',
      schema: { type: 'object', properties: {} },
    });
    expect(format({ responseMimeType: 'application/json', responseSchema: { type: 'ARRAY', items: { type: 'INTEGER' } } })).toEqual({
      type: 'json_schema',
      name: 'response',
      schema: { type: 'array', items: { type: 'integer' } },
    });
    expect(format({ responseMimeType: 'text/x.enum', responseSchema: { type: 'STRING', enum: ['a', 'b'] } })).toMatchObject({
      type: 'json_schema',
      schema: { type: 'object', properties: { value: { type: 'string', enum: ['a', 'b'] } }, required: ['value'] },
    });
    expect(format({ responseMimeType: 'text/plain' })).toBeUndefined();
  });

  it('maps tools and calling modes, offering only the allowed functions', () => {
    const declarations = [
      { name: 'a', parameters: { type: 'OBJECT', properties: { q: { type: 'STRING' } } } },
      { name: 'b', description: 'bee', parametersJsonSchema: { type: 'object' } },
      { name: 'c' },
    ];
    const tools = (functionCallingConfig?: unknown) =>
      core({ contents: [user('q')], tools: [{ functionDeclarations: declarations }], ...(functionCallingConfig ? { toolConfig: { functionCallingConfig } } : {}) });
    const plain = tools();
    expect(plain.tools).toEqual([
      { type: 'function', name: 'a', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
      { type: 'function', name: 'b', description: 'bee', parameters: { type: 'object' } },
      { type: 'function', name: 'c', parameters: { type: 'object', properties: {} } },
    ]);
    expect(plain.toolChoice).toBeUndefined();
    expect(tools({ mode: 'AUTO' }).toolChoice).toEqual({ type: 'auto' });
    expect(tools({ mode: 'NONE' }).toolChoice).toEqual({ type: 'none' });
    expect(tools({ mode: 'ANY' }).toolChoice).toEqual({ type: 'required' });
    expect(tools({ mode: 'ANY', allowedFunctionNames: ['b'] }).toolChoice).toEqual({ type: 'tool', name: 'b' });
    const two = tools({ mode: 'ANY', allowedFunctionNames: ['a', 'c'] });
    expect(two.toolChoice).toEqual({ type: 'required' });
    expect(two.tools?.map((tool) => (tool as { name: string }).name)).toEqual(['a', 'c']);
    const validated = tools({ mode: 'VALIDATED' });
    expect(validated.toolChoice).toEqual({ type: 'auto' });
    expect(validated.tools?.every((tool) => (tool as { strict?: boolean }).strict === true)).toBe(true);
  });

  it('keeps built-in tools as generate-dialect builtins, with the capability other upstreams share', () => {
    const request = core({
      contents: [user('q')],
      tools: [{ codeExecution: {}, googleSearch: { timeRangeFilter: {} } }, { urlContext: {} }, { googleSearchRetrieval: {} }, { enterpriseWebSearch: {} }, { googleMaps: {} }],
    });
    expect(request.tools).toEqual([
      { type: 'builtin', dialect: 'generate', kind: 'codeExecution', capability: 'code_execution', raw: { codeExecution: {} } },
      { type: 'builtin', dialect: 'generate', kind: 'googleSearch', capability: 'web_search', raw: { googleSearch: { timeRangeFilter: {} } } },
      { type: 'builtin', dialect: 'generate', kind: 'urlContext', capability: 'web_fetch', raw: { urlContext: {} } },
      { type: 'builtin', dialect: 'generate', kind: 'googleSearchRetrieval', capability: 'web_search', raw: { googleSearchRetrieval: {} } },
      { type: 'builtin', dialect: 'generate', kind: 'enterpriseWebSearch', capability: 'web_search', raw: { enterpriseWebSearch: {} } },
      { type: 'builtin', dialect: 'generate', kind: 'googleMaps', raw: { googleMaps: {} } },
    ]);
  });

  it('puts fields that cannot change a translated answer in hints', () => {
    expect(core({ contents: [user('q')], labels: { team: 'a' } }).hints).toEqual({ labels: { team: 'a' } });
    expect(core({ contents: [user('q')] }).hints).toBeUndefined();
    const request = core({
      contents: [
        { role: 'user', parts: [{ text: 'q', partMetadata: { k: 1 } }] },
        { role: 'model', parts: [{ functionCall: { name: 'f' } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: {}, scheduling: 'SILENT' } }] },
      ],
      tools: [{ functionDeclarations: [{ name: 'f', behavior: 'NON_BLOCKING', responseJsonSchema: { type: 'object' } }] }, { googleMaps: {} }],
      toolConfig: { retrievalConfig: { latLng: { latitude: 1, longitude: 2 } }, includeServerSideToolInvocations: true },
    });
    expect(Object.keys(request.hints ?? {}).sort()).toEqual([
      'functionDeclarations.behavior',
      'functionDeclarations.response',
      'functionResponse.scheduling',
      'partMetadata',
      'toolConfig.includeServerSideToolInvocations',
      'toolConfig.retrievalConfig',
    ]);
  });

  it('writes Gemini type names inside client JSON Schemas the standard way, leaving data alone', () => {
    const request = core({
      contents: [user('q')],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'f',
              parametersJsonSchema: {
                type: 'OBJECT',
                properties: { type: { type: 'STRING', enum: ['OBJECT'] }, list: { type: ['ARRAY', 'NULL'], items: { type: 'integer' } } },
              },
            },
          ],
        },
      ],
      generationConfig: { responseMimeType: 'application/json', responseJsonSchema: { type: 'OBJECT', properties: { a: { type: 'STRING', default: 'STRING' } } } },
    });
    expect((request.tools![0] as { parameters: unknown }).parameters).toEqual({
      type: 'object',
      properties: { type: { type: 'string', enum: ['OBJECT'] }, list: { type: ['array', 'null'], items: { type: 'integer' } } },
    });
    expect(request.responseFormat).toEqual({
      type: 'json_schema',
      name: 'response',
      schema: { type: 'object', properties: { a: { type: 'string', default: 'STRING' } } },
    });
  });

  it('puts options only some upstreams honour in features, leaving out no-ops', () => {
    const request = core({
      contents: [user('q')],
      cachedContent: 'cachedContents/c1',
      safetySettings: [
        { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' },
        { category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_ONLY_HIGH' },
      ],
      generationConfig: {
        candidateCount: 3,
        responseLogprobs: true,
        logprobs: 2,
        responseModalities: ['TEXT', 'AUDIO'],
        speechConfig: { languageCode: 'en-US' },
        mediaResolution: 'MEDIA_RESOLUTION_HIGH',
      },
    });
    expect(request.features?.generate).toEqual({
      candidateCount: 3,
      logprobs: { responseLogprobs: true, logprobs: 2 },
      responseModalities: ['TEXT', 'AUDIO'],
      speechConfig: { languageCode: 'en-US' },
      mediaResolution: 'MEDIA_RESOLUTION_HIGH',
      cachedContent: 'cachedContents/c1',
      safetySettings: [
        { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' },
        { category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_ONLY_HIGH' },
      ],
    });
    const noops = core({
      contents: [user('q')],
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'OFF' }],
      generationConfig: { candidateCount: 1, responseModalities: ['TEXT'], mediaResolution: 'MEDIA_RESOLUTION_UNSPECIFIED' },
    });
    expect(noops.features).toBeUndefined();
  });
});

describe('toJsonSchema', () => {
  it('lower-cases types, turns nullable into a null type and follows propertyOrdering', () => {
    expect(
      toJsonSchema({
        type: 'OBJECT',
        properties: { b: { type: 'STRING', nullable: true, enum: ['x'], format: 'enum' }, a: { type: 'NUMBER', minimum: 1, example: 3 } },
        propertyOrdering: ['a', 'b'],
        required: ['a'],
        anyOf: [{ type: 'BOOLEAN' }],
      }),
    ).toEqual({
      type: 'object',
      properties: { a: { type: 'number', minimum: 1 }, b: { type: ['string', 'null'], enum: ['x', null] } },
      required: ['a'],
      anyOf: [{ type: 'boolean' }],
    });
  });
});
