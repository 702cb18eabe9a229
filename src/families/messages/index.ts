/** Family C (Messages): request parsing, conversion to and from the core, response, stream and error encoding. */
export { parseMessagesRequest } from './validate.js';
export type { MessagesRequest } from './schema.js';
export { messagesRequestSchema } from './schema.js';
export { messagesToCore } from './to-core.js';
export { renderMessage, type MessagesMessage } from './from-core.js';
export { MessagesStreamEncoder, type MessagesStreamEncoderOptions } from './stream-encoder.js';
export { renderMessagesError, messagesErrorType } from './errors.js';
