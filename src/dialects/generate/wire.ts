/**
 * The wire types of the content-generation dialect, inferred from its schemas
 * (schema.ts): a GenerateContentResponse (also each chunk of a stream), its
 * parts, usage and error body, as the family writes them and the gemini
 * upstream reads them, and the request body an upstream converter builds.
 */
export type {
  GeminiCandidate,
  GeminiCitationSource,
  GeminiFunctionCall,
  GeminiModalityTokenCount,
  GeminiPart,
  GeminiPartialArg,
  GeminiResponse,
  GeminiUsageMetadata,
} from './schema-response.js';
export type { GeminiError, GoogleErrorBody } from './schema-error.js';
export type { GeminiRequestBody, GenerateRequest } from './schema-request.js';
