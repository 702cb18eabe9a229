/**
 * Zod schemas of the Messages error body, `{"type":"error","error":{type,
 * message,code},"request_id"}`, whose `error` object is also the data of a
 * stream's `error` event: what the family sends a client (errors.ts renders
 * it) and what the anthropic upstream reads.
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';

/**
 * The error types of the Messages API (its errors page, and the official
 * client's `ErrorObject` union, which adds `billing_error` and `timeout_error`).
 * There is no `server_error`: every other 5xx is `api_error`.
 */
export const messagesErrorTypes = [
  'invalid_request_error',
  'authentication_error',
  'billing_error',
  'permission_error',
  'not_found_error',
  'request_too_large',
  'rate_limit_error',
  'timeout_error',
  'api_error',
  'overloaded_error',
] as const;

export const messagesErrorObjectSchema = builtOnce(() =>
  z.object({
    type: z.enum(messagesErrorTypes),
    message: z.string(),
    /** The gateway's stable error kind (the API's own errors leave it out). */
    code: z.string().optional(),
  }),
);

export const messagesErrorBodySchema = builtOnce(() =>
  z.object({
    type: z.literal('error'),
    error: messagesErrorObjectSchema(),
    request_id: z.string().optional(),
  }),
);

export type MessagesErrorType = (typeof messagesErrorTypes)[number];
export type MessagesErrorObject = z.output<ReturnType<typeof messagesErrorObjectSchema>>;
export type MessagesErrorBody = z.output<ReturnType<typeof messagesErrorBodySchema>>;
