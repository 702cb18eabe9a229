/**
 * The wire types of the Messages dialect, inferred from its schemas
 * (schema.ts): the message object, its content blocks and usage, the stream
 * events and the error body, as the family writes them and the anthropic
 * upstream reads them, and the request the family validates.
 */
export type { MessagesContentBlock, MessagesResponse, MessagesStopReason, MessagesUsage } from './schema-response.js';
export type { MessagesDelta, MessagesStreamEvent } from './schema-stream.js';
export type { MessagesErrorBody, MessagesErrorObject, MessagesErrorType } from './schema-error.js';
export type { MessagesRequest, MessagesRequestBody } from './schema-request.js';
