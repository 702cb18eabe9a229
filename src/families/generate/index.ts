/** Family D (content generation): request parsing, conversion to and from the core, response, stream and error encoding. */
export { registerGenerateRoutes, parseModelPath, type GenerateMethod } from './routes.js';
export { parseGenerateRequest } from './validate.js';
export { normalizeWireNames } from './wire-names.js';
export { generateRequestSchema, type GenerateRequest } from './schema.js';
export { generateToCore } from './to-core.js';
export { generateFeatureKeys, requestFeatures, type GenerateFeature } from './features.js';
export { renderGenerateResponse, type GenerateContentResponse, type RenderOptions } from './from-core.js';
export { GenerateStreamEncoder, type GenerateStreamOptions } from './stream-encoder.js';
export { renderGenerateError, googleErrorBody, googleCode, type GoogleStatus } from './errors.js';
export { generateCodec, type GenerateCodecOptions } from './codec.js';
export { wrapThought, unwrapThought } from './thought-token.js';
export { toJsonSchema } from './json-schema.js';
