/**
 * The wire types of the legacy Completions dialect, inferred from its schemas
 * (schema.ts): the answer and its chunks as the family writes them and the
 * pass-through tap reads them, the request the family validates.
 */
export type { TextChoice, TextCompletionObject, TextCompletionUsage, TextFinishReason } from './schema-response.js';
export type { CompletionsPrompt, CompletionsRequest, CompletionsRequestBody } from './schema-request.js';
export type { OpenAIErrorBody, OpenAIErrorObject } from '../openai/schema-error.js';
