/**
 * The legacy Completions dialect's schemas, one module: the request
 * (schema-request.ts), the `text_completion` answer, which is also each
 * stream chunk, and its usage (schema-response.ts), and the error body both
 * OpenAI dialects share (../openai/schema-error.ts). The wire types are
 * inferred from them (wire.ts).
 */
export * from './schema-request.js';
export * from './schema-response.js';
export * from '../openai/schema-error.js';
