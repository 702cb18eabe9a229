/** Family E (Responses): request parsing, conversion to and from the core, stored responses, stream and error encoding. */
export { registerResponsesRoutes } from './routes.js';
export { parseResponsesRequest, type ValidatedRequest } from './validate.js';
export { responsesToCore } from './to-core.js';
export { outputFromCore } from './from-core.js';
export { ResponsesExchange } from './exchange.js';
export { ResponsesStreamEncoder } from './stream-encoder.js';
export { responsesCodec } from './codec.js';
export { renderResponsesError, responsesErrorObject, ResponsesError } from './errors.js';
export { contextWindowFor, defaultContextWindows } from './context-windows.js';
