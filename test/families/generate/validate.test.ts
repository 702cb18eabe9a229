import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors.js';
import { parseGenerateRequest } from '../../../src/families/generate/validate.js';
import { IMAGE_HEADS, PNG_HEAD } from '../../support/media-samples.js';

const text = (value: string) => ({ text: value });
const base = { contents: [{ role: 'user', parts: [text('hi')] }] };
const withConfig = (generationConfig: unknown) => ({ ...base, generationConfig });
const weatherDeclaration = { name: 'get_weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } } };

function rejection(body: unknown): GatewayError {
  try {
    parseGenerateRequest(structuredClone(body));
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected the request to be rejected');
}

describe('parseGenerateRequest accepts', () => {
  const accepted: Array<[string, unknown]> = [
    ['the minimal request', base],
    ['contents as one object without a role', { contents: { parts: [text('hi')] } }],
    [
      'every role',
      {
        contents: [
          { role: 'user', parts: [text('q')] },
          { role: 'model', parts: [{ functionCall: { name: 'f', args: { a: 1 } } }] },
          { role: 'function', parts: [{ functionResponse: { name: 'f', response: { ok: true } } }] },
          { role: 'tool', parts: [{ functionResponse: { id: 'x', name: 'f', response: {} } }] },
        ],
      },
    ],
    [
      'inline media of the spec types',
      {
        contents: [
          {
            parts: ['image/jpeg', 'image/heic', 'audio/wav', 'audio/flac', 'video/mp4', 'video/3gpp', 'application/pdf', 'text/plain'].map((mimeType) => ({
              inlineData: { mimeType, data: mimeType === 'image/jpeg' ? IMAGE_HEADS['image/jpeg'] : 'AAAA' },
            })),
          },
        ],
      },
    ],
    ['an image by file URI', { contents: [{ parts: [{ fileData: { mimeType: 'image/png', fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc' } }] }] }],
    [
      'code execution parts',
      {
        contents: [
          { role: 'user', parts: [text('compute')] },
          { role: 'model', parts: [{ executableCode: { language: 'PYTHON', code: 'print(1)' } }, { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1' } }] },
        ],
      },
    ],
    [
      'thought parts with signatures',
      {
        contents: [
          { role: 'user', parts: [text('q')] },
          {
            role: 'model',
            parts: [
              { text: 'hmm', thought: true },
              { text: '', thoughtSignature: 'c2lnbmF0dXJl' },
            ],
          },
        ],
      },
    ],
    [
      'tools of every kind',
      {
        ...base,
        tools: [
          { functionDeclarations: [weatherDeclaration, { name: 'lookup', parametersJsonSchema: { type: 'object', additionalProperties: false } }, { name: 'noop' }] },
          { codeExecution: {} },
          { googleSearch: {} },
          { googleSearchRetrieval: { dynamicRetrievalConfig: { mode: 'MODE_DYNAMIC' } } },
          { urlContext: {} },
        ],
      },
    ],
    [
      'lower-case schema types and int64 counts as strings',
      { ...base, tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, maxItems: '3', minItems: 1 } } } }] }] },
    ],
    ['function calling modes', { ...base, tools: [{ functionDeclarations: [weatherDeclaration] }], toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } } }],
    ['VALIDATED mode', { ...base, tools: [{ functionDeclarations: [weatherDeclaration] }], toolConfig: { functionCallingConfig: { mode: 'VALIDATED' } } }],
    [
      'safety settings',
      {
        ...base,
        safetySettings: [
          { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_LOW_AND_ABOVE' },
          { category: 'HARM_CATEGORY_CIVIC_INTEGRITY', threshold: 'OFF' },
        ],
      },
    ],
    ['system instruction and cached content', { ...base, systemInstruction: { role: 'user', parts: [text('be brief')] }, cachedContent: 'cachedContents/abc-123' }],
    [
      'every generation config field',
      withConfig({
        stopSequences: ['a', 'b', 'c', 'd', 'e'],
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { a: { type: 'STRING', nullable: true, format: 'date-time' } }, propertyOrdering: ['a'] },
        responseModalities: ['TEXT', 'IMAGE'],
        candidateCount: 2,
        maxOutputTokens: 100,
        temperature: 2,
        topP: 1,
        topK: 40,
        seed: -5,
        presencePenalty: 0.5,
        frequencyPenalty: -0.5,
        responseLogprobs: true,
        logprobs: 5,
        enableEnhancedCivicAnswers: true,
        speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } }, languageCode: 'en-US' },
        thinkingConfig: { includeThoughts: true, thinkingBudget: -1 },
        mediaResolution: 'MEDIA_RESOLUTION_LOW',
      }),
    ],
    ['temperature 0 and an enum output', withConfig({ temperature: 0, responseMimeType: 'text/x.enum', responseSchema: { type: 'STRING', enum: ['a', 'b'] } })],
    ['a JSON schema output', withConfig({ responseMimeType: 'application/json', responseJsonSchema: { type: 'object' } })],
    ['thinking level in lower case', withConfig({ thinkingConfig: { thinkingLevel: 'low' } })],
    ['multi-speaker speech', withConfig({ speechConfig: { multiSpeakerVoiceConfig: { speakerVoiceConfigs: [{ speaker: 'A', voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Puck' } } }] } } })],
    ['the newer top-level fields', { ...base, labels: { team: 'x' }, serviceTier: 'flex', store: false }],
  ];
  it.each(accepted)('%s', (_name, body) => {
    expect(() => parseGenerateRequest(structuredClone(body))).not.toThrow();
  });

  it('renames proto (snake_case) names to lowerCamel, but never the client’s own property names', () => {
    const parsed = parseGenerateRequest({
      contents: [{ role: 'user', parts: [{ inline_data: { mime_type: 'image/png', data: PNG_HEAD } }, { text: 'x' }] }],
      system_instruction: { parts: [{ text: 'sys' }] },
      tools: [
        { function_declarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: { max_items: { type: 'STRING' } }, property_ordering: ['max_items'] }, parameters_json_schema: undefined }] },
      ],
      tool_config: { function_calling_config: { mode: 'AUTO' } },
      generation_config: { max_output_tokens: 5, response_mime_type: 'application/json', response_json_schema: { my_key: { type: 'string' } }, thinking_config: { thinking_budget: 10 } },
    });
    expect(parsed.contents[0].parts[0].inlineData).toEqual({ mimeType: 'image/png', data: PNG_HEAD });
    expect(parsed.systemInstruction?.parts[0].text).toBe('sys');
    expect(parsed.tools?.[0].functionDeclarations?.[0].parameters?.properties).toEqual({ max_items: { type: 'STRING' } });
    expect(parsed.tools?.[0].functionDeclarations?.[0].parameters?.propertyOrdering).toEqual(['max_items']);
    expect(parsed.generationConfig?.maxOutputTokens).toBe(5);
    expect(parsed.generationConfig?.responseJsonSchema).toEqual({ my_key: { type: 'string' } });
    expect(parsed.generationConfig?.thinkingConfig?.thinkingBudget).toBe(10);
    expect(parsed.toolConfig?.functionCallingConfig?.mode).toBe('AUTO');
  });
});

describe('parseGenerateRequest refuses', () => {
  const refused: Array<[string, unknown, string]> = [
    ['a body that is not an object', [base], 'JSON object'],
    ['an unknown top-level field', { ...base, model_config: {} }, 'Unknown name "model_config"'],
    ['an unknown nested field', { contents: [{ parts: [{ txt: 'hi' }] }] }, `Unknown name "txt" at 'contents[0].parts[0]'`],
    ['a field given in both spellings', { ...base, generationConfig: { maxOutputTokens: 1, max_output_tokens: 2 } }, 'set twice'],
    ['no contents', {}, 'contents'],
    ['empty contents', { contents: [] }, 'contents is not specified'],
    ['empty parts', { contents: [{ role: 'user', parts: [] }] }, 'contents.parts must not be empty'],
    ['an empty part', { contents: [{ parts: [{}] }] }, "required oneof field 'data'"],
    ['a part with two kinds of data', { contents: [{ parts: [{ text: 'a', inlineData: { mimeType: 'image/png', data: PNG_HEAD } }] }] }, 'sets text and inlineData'],
    ['an unknown role', { contents: [{ role: 'assistant', parts: [text('hi')] }] }, 'role'],
    ['inline data that is not base64', { contents: [{ parts: [{ inlineData: { mimeType: 'image/png', data: 'not base64!' } }] }] }, 'Base64 decoding failed'],
    ['an unsupported MIME type', { contents: [{ parts: [{ inlineData: { mimeType: 'image/gif', data: 'AAAA' } }] }] }, 'Unsupported MIME type: image/gif'],
    ['audio by file URI', { contents: [{ parts: [{ fileData: { mimeType: 'audio/mp3', fileUri: 'https://example.com/a.mp3' } }] }] }, 'only as base64 inline_data'],
    ['video by file URI', { contents: [{ parts: [{ fileData: { mimeType: 'video/mp4', fileUri: 'gs://b/v.mp4' } }] }] }, 'only as base64 inline_data'],
    ['a function call in a user turn', { contents: [{ role: 'user', parts: [{ functionCall: { name: 'f' } }] }] }, 'role "model"'],
    ['a function response in a model turn', { contents: [{ role: 'model', parts: [{ functionResponse: { name: 'f', response: {} } }] }] }, 'function_response'],
    ['a function response without response', { contents: [{ role: 'user', parts: [{ functionResponse: { name: 'f' } }] }] }, 'response is required'],
    ['a bad code language', { contents: [{ role: 'model', parts: [{ executableCode: { language: 'RUBY', code: '' } }] }] }, 'LANGUAGE_UNSPECIFIED, PYTHON'],
    ['a non-text system instruction', { ...base, systemInstruction: { parts: [{ inlineData: { mimeType: 'image/png', data: PNG_HEAD } }] } }, 'text parts only'],
    ['a bad function name', { ...base, tools: [{ functionDeclarations: [{ name: '1bad name' }] }] }, 'function names'],
    ['a duplicate function name', { ...base, tools: [{ functionDeclarations: [weatherDeclaration] }, { functionDeclarations: [weatherDeclaration] }] }, 'duplicate function name'],
    ['parameters in both forms', { ...base, tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT' }, parametersJsonSchema: {} }] }] }, 'mutually exclusive'],
    ['a bad schema type', { ...base, tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'MAP' } }] }] }, '"MAP" is not a valid value'],
    ['an empty tool', { ...base, tools: [{}] }, 'a tool must declare functions'],
    ['a bad calling mode', { ...base, toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } } }, 'MODE_UNSPECIFIED, AUTO, ANY, NONE'],
    [
      'allowed names with mode AUTO',
      { ...base, tools: [{ functionDeclarations: [weatherDeclaration] }], toolConfig: { functionCallingConfig: { mode: 'AUTO', allowedFunctionNames: ['get_weather'] } } },
      'only be set when mode is ANY',
    ],
    [
      'an allowed name that is not declared',
      { ...base, tools: [{ functionDeclarations: [weatherDeclaration] }], toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['nope'] } } },
      'no function named "nope"',
    ],
    ['mode ANY without functions', { ...base, toolConfig: { functionCallingConfig: { mode: 'ANY' } } }, 'requires function_declarations'],
    ['a bad safety category', { ...base, safetySettings: [{ category: 'HARM_CATEGORY_TOXICITY', threshold: 'OFF' }] }, 'HARM_CATEGORY_HARASSMENT'],
    ['a safety setting without threshold', { ...base, safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT' }] }, 'threshold is required'],
    [
      'a repeated safety category',
      {
        ...base,
        safetySettings: [
          { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'OFF' },
          { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'OFF' },
        ],
      },
      'duplicate safety setting',
    ],
    ['a bad cached content name', { ...base, cachedContent: 'abc' }, 'cachedContents/'],
    ['six stop sequences', withConfig({ stopSequences: ['1', '2', '3', '4', '5', '6'] }), 'at most 5 stop sequences'],
    ['temperature below 0', withConfig({ temperature: -0.1 }), 'within [0.0, 2.0]'],
    ['temperature above 2', withConfig({ temperature: 2.01 }), 'within [0.0, 2.0]'],
    ['top_p above 1', withConfig({ topP: 1.5 }), 'within [0.0, 1.0]'],
    ['a fractional top_k', withConfig({ topK: 1.5 }), 'must be an integer'],
    ['max output tokens 0', withConfig({ maxOutputTokens: 0 }), 'at least 1'],
    ['candidate count 9', withConfig({ candidateCount: 9 }), 'at most 8'],
    ['a bad response MIME type', withConfig({ responseMimeType: 'text/csv' }), 'text/plain, application/json, text/x.enum'],
    ['a schema without a JSON MIME type', withConfig({ responseSchema: { type: 'OBJECT' } }), 'response_schema requires'],
    ['both schema forms', withConfig({ responseMimeType: 'application/json', responseSchema: { type: 'OBJECT' }, responseJsonSchema: {} }), 'mutually exclusive'],
    ['a JSON schema with text/x.enum', withConfig({ responseMimeType: 'text/x.enum', responseJsonSchema: {} }), 'response_json_schema requires'],
    ['an enum output without enum values', withConfig({ responseMimeType: 'text/x.enum', responseSchema: { type: 'OBJECT' } }), 'type STRING with enum values'],
    ['a bad response modality', withConfig({ responseModalities: ['VIDEO'] }), 'TEXT, IMAGE, AUDIO'],
    ['logprobs without responseLogprobs', withConfig({ logprobs: 3 }), 'response_logprobs is true'],
    ['logprobs above 20', withConfig({ responseLogprobs: true, logprobs: 21 }), 'at most 20'],
    ['a thinking budget below -1', withConfig({ thinkingConfig: { thinkingBudget: -2 } }), 'at least -1'],
    ['budget and level together', withConfig({ thinkingConfig: { thinkingBudget: 10, thinkingLevel: 'HIGH' } }), 'mutually exclusive'],
    ['a bad media resolution', withConfig({ mediaResolution: 'MEDIA_RESOLUTION_ULTRA' }), 'MEDIA_RESOLUTION_LOW'],
    ['a bad speech language', withConfig({ speechConfig: { languageCode: 'xx-XX' } }), 'en-US'],
    ['both voice configs', withConfig({ speechConfig: { voiceConfig: {}, multiSpeakerVoiceConfig: { speakerVoiceConfigs: [{ speaker: 'a', voiceConfig: {} }] } } }), 'mutually exclusive'],
  ];
  it.each(refused)('%s', (_name, body, fragment) => {
    const error = rejection(body);
    expect(error.kind).toBe('invalid_request');
    expect(error.status).toBe(400);
    expect(error.message).toContain(fragment);
  });

  it('names the field path in proto spelling', () => {
    expect(rejection(withConfig({ temperature: 3 })).message).toBe('* GenerateContentRequest.generation_config.temperature: must be within [0.0, 2.0]');
    expect(rejection({ contents: [{ parts: [text('a')] }, { parts: [{ inlineData: { mimeType: 'image/png' } }] }] }).message).toBe(
      '* GenerateContentRequest.contents[1].parts[0].inline_data.data: data is required',
    );
  });
});

describe('parseGenerateRequest knows every field of the live service', () => {
  it('accepts the current generation, tool, tool-config and part fields, in both spellings', () => {
    const body = {
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'q', partMetadata: { k: 'v' } },
            { fileData: { mimeType: 'image/png', fileUri: 'https://x/y.png' }, videoMetadata: { fps: 1 } },
          ],
        },
        {
          role: 'model',
          parts: [
            { text: 'thinking…', thought: true, thoughtSignature: 'c2ln' },
            { executableCode: { language: 'PYTHON', code: 'print(1)' } },
            { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1' } },
            { functionCall: { id: 'c1', name: 'f', args: {} }, thoughtSignature: 'c2ln' },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'c1', name: 'f', response: { output: 'x' }, parts: [{ inlineData: { mimeType: 'image/png', data: PNG_HEAD } }], willContinue: false, scheduling: 'WHEN_IDLE' } },
          ],
        },
      ],
      tools: [
        { functionDeclarations: [{ name: 'f', behavior: 'NON_BLOCKING', parametersJsonSchema: { type: 'object' }, responseJsonSchema: { type: 'object' } }] },
        { googleSearch: {} },
        { google_search_retrieval: {} },
        { urlContext: {} },
        { codeExecution: {} },
        { computerUse: { environment: 'ENVIRONMENT_BROWSER' } },
        { fileSearch: { fileSearchStoreNames: ['s'] } },
        { googleMaps: {} },
        { enterprise_web_search: {} },
      ],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' }, retrievalConfig: { languageCode: 'en' } },
      labels: { team: 'a' },
      generationConfig: {
        topK: 64,
        seed: 3,
        presencePenalty: 0.1,
        frequencyPenalty: 0.1,
        responseMimeType: 'application/json',
        responseJsonSchema: { type: 'OBJECT' },
        mediaResolution: 'MEDIA_RESOLUTION_LOW',
        imageConfig: { aspectRatio: '16:9' },
        speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } },
        thinking_config: { include_thoughts: true, thinking_level: 'high' },
      },
    };
    const parsed = parseGenerateRequest(structuredClone(body));
    expect(parsed.generationConfig?.thinkingConfig).toEqual({ includeThoughts: true, thinkingLevel: 'HIGH' });
    expect(parsed.tools?.map((tool) => Object.keys(tool)[0])).toEqual([
      'functionDeclarations',
      'googleSearch',
      'googleSearchRetrieval',
      'urlContext',
      'codeExecution',
      'computerUse',
      'fileSearch',
      'googleMaps',
      'enterpriseWebSearch',
    ]);
    for (const level of ['MINIMAL', 'low', 'Medium', 'HIGH']) {
      expect(() => parseGenerateRequest(withConfig({ thinkingConfig: { thinkingLevel: level } }))).not.toThrow();
    }
  });

  it('still refuses names the service does not know', () => {
    expect(rejection({ ...base, tools: [{ webSearch: {} }] }).message).toContain(`Unknown name "webSearch" at 'tools[0]'`);
    expect(rejection(withConfig({ thinkingConfig: { level: 'HIGH' } })).message).toContain('Unknown name "level"');
  });
});
