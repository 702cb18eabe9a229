/**
 * Zod schema of the dialect's error body, `{"error":{"code","message","status","details"}}`
 * (google.rpc.Status): what the family sends a client (errors.ts renders it)
 * and what the gemini upstream reads from a refusal or a failed stream.
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';

/** The google.rpc.Code names, and PAYLOAD_TOO_LARGE, which the gateway gives a 413. */
export const googleStatuses = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
  'PAYLOAD_TOO_LARGE',
] as const;

export const googleErrorSchema = builtOnce(() =>
  z.object({
    /** The HTTP status. */
    code: z.int(),
    message: z.string(),
    status: z.enum(googleStatuses),
    /** Typed details by `@type`: RetryInfo's `retryDelay`, ErrorInfo's `reason` (API_KEY_INVALID), QuotaFailure's `violations`. */
    details: z.array(z.record(z.string(), z.unknown())).optional(),
  }),
);

export const googleErrorBodySchema = builtOnce(() => z.object({ error: googleErrorSchema() }));

export type GeminiError = z.output<ReturnType<typeof googleErrorSchema>>;
export type GoogleErrorBody = z.output<ReturnType<typeof googleErrorBodySchema>>;
