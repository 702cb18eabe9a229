/**
 * The Chat Completions dialect's schemas, one module: the request
 * (schema-request.ts, its messages in schema-messages.ts), the completion,
 * each stream chunk and usage (schema-response.ts), the reader's views of
 * an upstream's answer (schema-view.ts) and the error body both OpenAI
 * dialects share (../openai/schema-error.ts). The wire types are inferred
 * from them (wire.ts).
 */
export * from './schema-messages.js';
export * from './schema-request.js';
export * from './schema-response.js';
export * from './schema-view.js';
export * from '../openai/schema-error.js';
