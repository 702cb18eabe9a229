/**
 * The wire types of the Chat Completions dialect, inferred from its schemas
 * (schema.ts): the completion, its chunks and usage, as the family writes
 * them; the reader's views of an upstream's answer (`ChatCompletion`,
 * `ChatCompletionChunk`, `ChatCompletionMessage`, `ChatCompletionUsage`:
 * every field optional), as the openai-chat upstream reads them, including
 * the common extensions of compatible servers (`reasoning_content` from
 * DeepSeek/Qwen, `reasoning` and `reasoning_details` from Groq/OpenRouter);
 * and the request the family validates and the body an upstream converter
 * builds.
 */
export type {
  AnswerToolCall,
  ChatCompletionChunkObject,
  ChatCompletionObject,
  CompletionFinishReason,
  CompletionMessage,
  CompletionUsage,
  MessageDelta,
  ReasoningDetail,
} from './schema-response.js';
export type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessage, ChatCompletionUsage, WireToolCall } from './schema-view.js';
export type { ChatCompletionsRequest, ChatCompletionsRequestBody } from './schema-request.js';
export type { OpenAIErrorBody, OpenAIErrorObject } from '../openai/schema-error.js';
