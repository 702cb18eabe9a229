/**
 * The content-generation dialect's schemas, one module: the request
 * (schema-request.ts and its parts), the answer and each stream chunk
 * (schema-response.ts) and the error body (schema-error.ts). The wire types
 * are inferred from them; the proto-name renaming of a request
 * (wire-names.ts) is derived from the request schema.
 */
export * from './schema-enums.js';
export * from './schema-content.js';
export * from './schema-config.js';
export * from './schema-tools.js';
export * from './schema-request.js';
export * from './schema-response.js';
export * from './schema-error.js';
