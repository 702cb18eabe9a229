/**
 * Validates a legacy Completions body the way the OpenAI API does: the top
 * level by its schema (dialects/completions), then the rules that tie fields
 * together. One error, the first, naming the offending field in `param`.
 */
import { GatewayError } from '../../core/errors.js';
import { parseAsIs } from '../../core/accept-as-is.js';
import { invalidParam, issueError } from '../../dialects/openai/validate-issue.js';
import { completionsRequestSchema, type CompletionsRequest } from '../../dialects/completions/schema-request.js';

export type ValidatedCompletionsRequest = CompletionsRequest;

export function parseCompletionsRequest(body: unknown): ValidatedCompletionsRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('invalid_request', 'request body must be a JSON object');
  }
  const result = parseAsIs(completionsRequestSchema(), body, { reportInput: true });
  if (!result.success) throw issueError(result.error.issues);
  const request = result.data;
  if (request.stream_options != null && request.stream !== true) throw invalidParam(['stream_options'], 'stream_options is only allowed when stream is true');
  if (request.best_of != null && request.best_of < (request.n ?? 1)) throw invalidParam(['best_of'], 'best_of must be greater than or equal to n');
  if (request.best_of != null && request.best_of > 1 && request.stream === true) throw invalidParam(['best_of'], 'best_of cannot be used with stream');
  return request;
}
