/** Probe rows of the content-generation table (docs/translation/generate.md): one client field each, in the family's dialect. */
import type { Probe } from './tables.js';

const user = (...parts: unknown[]) => ({ role: 'user', parts });
const model = (...parts: unknown[]) => ({ role: 'model', parts });
const weather = { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } } };
const config = (generationConfig: Record<string, unknown>) => ({ generationConfig });
const tool = (kind: string, value: unknown = {}): Probe => ({ label: `\`tools[].${kind}\``, body: { tools: [{ [kind]: value }] }, field: `tool ${kind}` });
const feature = (label: string, body: Record<string, unknown>, field: string): Probe => ({ label, body, field });
const toolLoop = (response: Record<string, unknown>) => [
  user({ text: 'Weather in Paris?' }),
  model({ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }),
  user({ functionResponse: { name: 'get_weather', response: { temperature: 21 }, ...response } }),
];
const pixel = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

export const generateProbes: readonly Probe[] = [
  { label: '`systemInstruction`', body: { systemInstruction: { parts: [{ text: 'Be brief.' }] } } },
  { label: '`generationConfig.temperature`, `topP`, `maxOutputTokens`', body: config({ temperature: 0.5, topP: 0.9, maxOutputTokens: 512 }) },
  { label: '`generationConfig.stopSequences`', body: config({ stopSequences: ['END'] }), field: 'stop_sequences' },
  {
    label: '`generationConfig.stopSequences`, channel setting `dropUnsupportedParams: true`',
    body: config({ stopSequences: ['END'] }),
    field: 'stop_sequences',
    settings: { 'openai-responses': { dropUnsupportedParams: true } },
  },
  { label: '`generationConfig.topK` (Gemini CLI always sends 64)', body: config({ topK: 64 }), field: 'top_k' },
  { label: '`generationConfig.seed`', body: config({ seed: 7 }), field: 'seed' },
  { label: '`generationConfig.presencePenalty`, `frequencyPenalty`', body: config({ presencePenalty: 0.5, frequencyPenalty: 0.5 }), field: ['presence_penalty', 'frequency_penalty'] },
  { label: '`thinkingConfig.thinkingLevel` (any case)', body: config({ thinkingConfig: { thinkingLevel: 'HIGH' } }), field: 'thinking.adaptive' },
  {
    label: '`thinkingConfig.thinkingLevel`, channel setting `adaptiveThinking: true`',
    body: config({ thinkingConfig: { thinkingLevel: 'HIGH' } }),
    field: 'thinking.adaptive',
    settings: { anthropic: { adaptiveThinking: true } },
  },
  { label: '`thinkingConfig.thinkingBudget: -1` (model decides)', body: config({ thinkingConfig: { thinkingBudget: -1 } }), field: 'thinking.adaptive' },
  { label: '`thinkingConfig.thinkingBudget: N`', body: config({ thinkingConfig: { thinkingBudget: 2048 } }), field: 'thinkingConfig.thinkingBudget' },
  { label: '`thinkingConfig.thinkingBudget: 0`', body: config({ thinkingConfig: { thinkingBudget: 0 } }) },
  { label: '`thinkingConfig.includeThoughts`', body: config({ thinkingConfig: { includeThoughts: true } }) },
  {
    label: '`responseMimeType` + `responseSchema` / `responseJsonSchema`',
    body: config({ responseMimeType: 'application/json', responseSchema: { type: 'OBJECT', properties: { answer: { type: 'STRING' } } } }),
  },
  { label: '`responseMimeType: text/x.enum`', body: config({ responseMimeType: 'text/x.enum', responseSchema: { type: 'STRING', enum: ['yes', 'no'] } }), field: 'responseMimeType' },
  { label: '`tools[].functionDeclarations` (`parameters` converted, `parametersJsonSchema` as is)', body: { tools: [{ functionDeclarations: [weather] }] } },
  {
    label: '`toolConfig.functionCallingConfig` (AUTO/ANY/NONE/VALIDATED, allowed names)',
    body: { tools: [{ functionDeclarations: [weather] }], toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } } },
  },
  tool('googleSearch'),
  tool('googleSearchRetrieval'),
  tool('enterpriseWebSearch'),
  tool('urlContext'),
  tool('codeExecution'),
  tool('googleMaps'),
  tool('fileSearch'),
  tool('computerUse', { environment: 'ENVIRONMENT_BROWSER' }),
  { label: '`labels`', body: { labels: { team: 'search' } } },
  { label: '`toolConfig.retrievalConfig`', body: { toolConfig: { retrievalConfig: { languageCode: 'en' } } } },
  { label: '`toolConfig.includeServerSideToolInvocations`', body: { toolConfig: { includeServerSideToolInvocations: true } } },
  { label: 'function declaration `behavior`', body: { tools: [{ functionDeclarations: [{ ...weather, behavior: 'NON_BLOCKING' }] }] }, field: 'functionDeclarations.behavior' },
  {
    label: 'function declaration `response` / `responseJsonSchema`',
    body: { tools: [{ functionDeclarations: [{ ...weather, responseJsonSchema: { type: 'object' } }] }] },
    field: 'functionDeclarations.response',
  },
  { label: 'part `partMetadata`', body: { contents: [user({ text: 'Hello', partMetadata: { source: 'probe' } })] } },
  { label: 'function response `willContinue` / `scheduling`', body: { contents: toolLoop({ willContinue: true }) }, field: 'functionResponse.scheduling' },
  {
    label: 'history part `executableCode` (also `codeExecutionResult`, `toolCall`, `toolResponse`: provider-run tool use)',
    body: { contents: [user({ text: 'Compute it.' }), model({ executableCode: { language: 'PYTHON', code: 'print(1)' } }, { text: '1' }), user({ text: 'Thanks.' })] },
  },
  {
    label: '`functionResponse.parts` (media in tool results)',
    body: { contents: toolLoop({ parts: [{ inlineData: { mimeType: 'image/png', data: pixel } }] }) },
    field: 'media in tool results',
  },
  feature('`candidateCount > 1`', config({ candidateCount: 2 }), 'candidateCount'),
  feature('`responseLogprobs` / `logprobs`', config({ responseLogprobs: true, logprobs: 3 }), 'logprobs'),
  feature('non-TEXT `responseModalities`', config({ responseModalities: ['TEXT', 'IMAGE'] }), 'responseModalities'),
  feature('`speechConfig`', config({ speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } } }), 'speechConfig'),
  feature('`imageConfig`', config({ imageConfig: { aspectRatio: '16:9' } }), 'imageConfig'),
  feature('`audioTimestamp`', config({ audioTimestamp: true }), 'audioTimestamp'),
  feature('part `videoMetadata`', { contents: [user({ inlineData: { mimeType: 'image/png', data: pixel }, videoMetadata: { startOffset: '1s' } }, { text: 'Describe it.' })] }, 'videoMetadata'),
  feature('`mediaResolution`', config({ mediaResolution: 'MEDIA_RESOLUTION_LOW' }), 'mediaResolution'),
  feature('`cachedContent`', { cachedContent: 'cachedContents/probe' }, 'cachedContent'),
  feature('blocking `safetySettings`', { safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_LOW_AND_ABOVE' }] }, 'safetySettings'),
  feature('`enableEnhancedCivicAnswers`', config({ enableEnhancedCivicAnswers: true }), 'enableEnhancedCivicAnswers'),
  feature('`serviceTier`', { serviceTier: 'flex' }, 'serviceTier'),
  feature('`store`', { store: true }, 'store'),
  feature('`continuationToken`', { continuationToken: 'probe' }, 'continuationToken'),
];
