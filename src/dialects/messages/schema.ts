/**
 * The Messages dialect's schemas, one module: the request (schema-request.ts,
 * its content blocks in schema-blocks.ts and tools in schema-tools.ts), the
 * message object (schema-response.ts), the stream events (schema-stream.ts)
 * and the error body (schema-error.ts). The wire types are inferred from them
 * (wire.ts).
 */
export * from './schema-blocks.js';
export * from './schema-tools.js';
export * from './schema-request.js';
export * from './schema-response.js';
export * from './schema-stream.js';
export * from './schema-error.js';
