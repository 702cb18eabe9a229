/**
 * The Responses dialect's schemas, one module: the request
 * (schema-request.ts, its input items in schema-items.ts, their content in
 * schema-content.ts, tools in schema-tools.ts), the response object and its
 * output items (schema-response.ts), the stream events (schema-stream.ts),
 * the reader's views of an upstream's answer (schema-view.ts) and the error
 * body both OpenAI dialects share (../openai/schema-error.ts). The wire
 * types are inferred from them (wire.ts).
 */
export * from './schema-content.js';
export * from './schema-items.js';
export * from './schema-tools.js';
export * from './schema-request.js';
export * from './schema-response.js';
export * from './schema-stream.js';
export * from './schema-view.js';
export * from '../openai/schema-error.js';
