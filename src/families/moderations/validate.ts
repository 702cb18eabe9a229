/**
 * Reads an OpenAI `/v1/moderations` body (src/dialects/moderations/
 * schema-request.ts) into the internal request: a string or each string of
 * an array is one input of one text part; an array of parts is one
 * multimodal input. A bad field is a 400 naming it.
 */
import { GatewayError } from '../../core/errors.js';
import { parseAsIs } from '../../core/accept-as-is.js';
import { issueError } from '../../dialects/openai/validate-issue.js';
import { DEFAULT_MODERATION_MODEL, moderationsRequestSchema } from '../../dialects/moderations/schema-request.js';
import type { ModerationPart, ModerationRequest } from '../../dialects/moderations/wire.js';

export function parseModerationsRequest(body: unknown): ModerationRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('invalid_request', 'request body must be a JSON object');
  }
  const result = parseAsIs(moderationsRequestSchema(), body, { reportInput: true });
  if (!result.success) throw issueError(result.error.issues);
  const { model, input } = result.data;
  return { model: model ?? DEFAULT_MODERATION_MODEL, inputs: inputsOf(input) };
}

function inputsOf(input: string | string[] | Array<{ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }>): ModerationPart[][] {
  if (typeof input === 'string') return [[{ type: 'text', text: input }]];
  if (input.every((item) => typeof item === 'string')) return (input as string[]).map((text) => [{ type: 'text', text }]);
  const parts = input as Array<{ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }>;
  return [parts.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image_url', url: part.image_url.url }))];
}
