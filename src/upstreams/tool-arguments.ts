import { GatewayError } from '../core/errors.js';

/**
 * Tool-call arguments from OpenAI-style upstreams (chat completions and
 * Responses) arrive as a JSON string. Empty means no arguments; text
 * that is not a JSON object is the model's fault and is reported, not guessed at.
 */
export function parseToolArguments(args: string | null | undefined, toolName: string): Record<string, unknown> {
  if (args === null || args === undefined || args.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    throw new GatewayError('upstream_error', `upstream returned tool call "${toolName}" with arguments that are not valid JSON`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new GatewayError('upstream_error', `upstream returned tool call "${toolName}" with arguments that are not a JSON object`);
  return parsed as Record<string, unknown>;
}
