/**
 * Zod schemas of the error body both OpenAI dialects share,
 * `{"error":{message, type, param, code}}`: what the Responses and Chat
 * Completions families (and embeddings, models) send a client (errors.ts
 * renders it) and what an OpenAI upstream answers with. The gateway always
 * writes a `code`; the API may write null.
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';

export const openAIErrorObjectSchema = builtOnce(() =>
  z.object({
    message: z.string(),
    /** `invalid_request_error`, `rate_limit_error`, `server_error`, `insufficient_quota`… */
    type: z.string(),
    /** The request field at fault. */
    param: z.string().nullable(),
    /** A stable word for the failure (`previous_response_not_found`, `context_length_exceeded`…). */
    code: z.string().nullable(),
  }),
);

export const openAIErrorBodySchema = builtOnce(() => z.object({ error: openAIErrorObjectSchema() }));

/** The error object as the gateway writes it: always with its `code`. */
export type OpenAIErrorObject = z.output<ReturnType<typeof openAIErrorObjectSchema>> & { code: string };
export type OpenAIErrorBody = z.output<ReturnType<typeof openAIErrorBodySchema>>;
