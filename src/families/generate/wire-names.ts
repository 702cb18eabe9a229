/**
 * Proto JSON field names for a GenerateContent request. The service accepts
 * each field both as lowerCamel (`inlineData`) and as its proto name
 * (`inline_data`); this pass renames the second form to the first, in place,
 * following the request's message types, so free-form values (function
 * arguments, JSON schemas, property names) are never touched. A name that is
 * not a field of its message is refused the way the service refuses it.
 */
import { GatewayError } from '../../core/errors.js';

/** A repeated field. */
class Repeated {
  constructor(readonly item: Node) {}
}
/** A map field: its keys are the client's own names, its values are `value` nodes. */
class MapOf {
  constructor(readonly value: Node) {}
}
/** `value`: a scalar or a free-form JSON value, not renamed inside. */
type Node = 'value' | Message | Repeated | MapOf;
type Message = { readonly [camelName: string]: Node };

const list = (node: Node) => new Repeated(node);
const map = (node: Node) => new MapOf(node);

const blob: Message = { mimeType: 'value', data: 'value' };
const fileData: Message = { mimeType: 'value', fileUri: 'value', displayName: 'value' };
const videoMetadata: Message = { startOffset: 'value', endOffset: 'value', fps: 'value' };

/** The OpenAPI-subset Schema message; `properties` is a map whose keys are the client's names. */
const schema: Record<string, Node> = {};
Object.assign(schema, {
  type: 'value',
  format: 'value',
  title: 'value',
  description: 'value',
  nullable: 'value',
  enum: 'value',
  maxItems: 'value',
  minItems: 'value',
  properties: map(schema),
  required: 'value',
  minProperties: 'value',
  maxProperties: 'value',
  minLength: 'value',
  maxLength: 'value',
  pattern: 'value',
  example: 'value',
  anyOf: list(schema),
  propertyOrdering: 'value',
  default: 'value',
  items: schema,
  minimum: 'value',
  maximum: 'value',
});

const functionCall: Message = { id: 'value', name: 'value', args: 'value', partialArgs: 'value', willContinue: 'value' };
const functionResponse: Message = {
  id: 'value',
  name: 'value',
  response: 'value',
  parts: list({ inlineData: blob, fileData }),
  willContinue: 'value',
  scheduling: 'value',
};

const part: Message = {
  text: 'value',
  inlineData: blob,
  fileData,
  functionCall,
  functionResponse,
  executableCode: { id: 'value', language: 'value', code: 'value' },
  codeExecutionResult: { id: 'value', outcome: 'value', output: 'value' },
  toolCall: 'value',
  toolResponse: 'value',
  thought: 'value',
  thoughtSignature: 'value',
  videoMetadata,
  partMetadata: 'value',
  mediaResolution: 'value',
};

const content: Message = { parts: list(part), role: 'value' };

const functionDeclaration: Message = {
  name: 'value',
  description: 'value',
  behavior: 'value',
  parameters: schema,
  parametersJsonSchema: 'value',
  response: schema,
  responseJsonSchema: 'value',
};

const tool: Message = {
  functionDeclarations: list(functionDeclaration),
  codeExecution: 'value',
  googleSearch: 'value',
  googleSearchRetrieval: 'value',
  enterpriseWebSearch: 'value',
  urlContext: 'value',
  googleMaps: 'value',
  fileSearch: 'value',
  computerUse: 'value',
};

const toolConfig: Message = {
  functionCallingConfig: { mode: 'value', allowedFunctionNames: 'value', streamFunctionCallArguments: 'value' },
  retrievalConfig: 'value',
  includeServerSideToolInvocations: 'value',
};

const voiceConfig: Message = { prebuiltVoiceConfig: { voiceName: 'value' } };
const speechConfig: Message = {
  voiceConfig,
  multiSpeakerVoiceConfig: { speakerVoiceConfigs: list({ speaker: 'value', voiceConfig }) },
  languageCode: 'value',
};

const generationConfig: Message = {
  stopSequences: 'value',
  responseMimeType: 'value',
  responseSchema: schema,
  responseJsonSchema: 'value',
  responseModalities: 'value',
  candidateCount: 'value',
  maxOutputTokens: 'value',
  temperature: 'value',
  topP: 'value',
  topK: 'value',
  seed: 'value',
  presencePenalty: 'value',
  frequencyPenalty: 'value',
  responseLogprobs: 'value',
  logprobs: 'value',
  enableEnhancedCivicAnswers: 'value',
  speechConfig,
  thinkingConfig: { includeThoughts: 'value', thinkingBudget: 'value', thinkingLevel: 'value' },
  mediaResolution: 'value',
  imageConfig: 'value',
  audioTimestamp: 'value',
};

export const generateRequestFields: Message = {
  model: 'value',
  contents: list(content),
  tools: list(tool),
  toolConfig,
  safetySettings: list({ category: 'value', threshold: 'value', method: 'value' }),
  systemInstruction: content,
  generationConfig,
  cachedContent: 'value',
  labels: 'value',
  serviceTier: 'value',
  store: 'value',
  continuationToken: 'value',
};

const snakeSegment = /_([a-z0-9])/g;

function toCamel(name: string): string {
  return name.includes('_') ? name.replace(snakeSegment, (_, c: string) => c.toUpperCase()) : name;
}

function toSnake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where a value sits, kept as links and spelled out only for an error message. */
interface At {
  parent: At | undefined;
  /** A field name (lowerCamel, spelled in proto form only for a message), a map key, or an array index. */
  segment: string | number;
  /** The segment is a field name, not a client's map key. */
  field?: true;
}

function spell(at: At | undefined): string {
  const segments: Array<string | number> = [];
  for (let node = at; node; node = node.parent) segments.push(node.field ? toSnake(node.segment as string) : node.segment);
  let out = '';
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i];
    out += typeof segment === 'number' ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  }
  return out;
}

/** Renames proto-name keys to lowerCamel in place; throws a 400 for a key its message does not have. */
export function normalizeWireNames(body: Record<string, unknown>): void {
  visit(body, generateRequestFields, undefined);
}

function visit(value: unknown, node: Node, at: At | undefined): void {
  if (node === 'value' || value === null || typeof value !== 'object') return;
  if (node instanceof Repeated) {
    // A single object is tolerated here and judged by validation (`contents` may be one object).
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, node.item, { parent: at, segment: i }));
    else visit(value, node.item, at);
    return;
  }
  if (node instanceof MapOf) {
    if (!isPlainObject(value)) return;
    for (const key of Object.keys(value)) visit(value[key], node.value, { parent: at, segment: key });
    return;
  }
  if (!isPlainObject(value)) return;
  const fields = node as Message;
  for (const key of Object.keys(value)) {
    const camel = toCamel(key);
    const child = Object.hasOwn(fields, camel) ? fields[camel] : undefined;
    if (child === undefined) {
      const path = spell(at);
      throw new GatewayError('invalid_request', `Invalid JSON payload received. Unknown name "${key}"${path ? ` at '${path}'` : ''}: Cannot find field.`, {
        param: path ? `${path}.${key}` : key,
      });
    }
    if (camel !== key) {
      if (Object.hasOwn(value, camel)) {
        const path = spell(at);
        throw new GatewayError('invalid_request', `Invalid JSON payload received. Field "${toSnake(camel)}" is set twice${path ? ` at '${path}'` : ''}.`);
      }
      value[camel] = value[key];
      delete value[key];
    }
    if (child !== 'value') visit(value[camel], child, { parent: at, segment: camel, field: true });
  }
}
