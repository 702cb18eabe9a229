/**
 * Validates a GenerateContent request body: proto-name keys renamed to
 * lowerCamel (wire-names.ts), the zod schema, then the rules between fields
 * (validate-rules.ts). Like the service it reports the first error, naming
 * the field path in proto spelling (`generation_config.temperature`).
 */
import type { z } from 'zod';
import { GatewayError } from '../../core/errors.js';
import { parseAsIs } from '../../core/accept-as-is.js';
import { generateRequestSchema, type GenerateRequest } from '../../dialects/generate/schema.js';
import { checkRequestRules } from './validate-rules.js';
import { invalidArgument, protoPath } from './invalid.js';
import { normalizeWireNames } from '../../dialects/generate/wire-names.js';

export type { GenerateRequest } from '../../dialects/generate/schema.js';

type Issue = z.core.$ZodIssue;

/** Parses and validates a body; renames its proto-name keys in place (the raw bytes are kept apart for pass-through). */
export function parseGenerateRequest(body: unknown): GenerateRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('invalid_request', 'Invalid JSON payload received. The request body must be a JSON object.');
  }
  normalizeWireNames(body as Record<string, unknown>);
  const result = parseAsIs(generateRequestSchema(), body, { reportInput: true });
  if (!result.success) {
    const { path, message } = describeIssue(result.error.issues[0]);
    throw invalidArgument(path, message);
  }
  checkRequestRules(result.data);
  return result.data;
}

function describeIssue(issue: Issue): { path: string; message: string } {
  // A union failing on every branch reports the branch that got furthest.
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const deepest = issue.errors
      .flat()
      .filter((inner) => inner.path.length > 0)
      .sort((a, b) => b.path.length - a.path.length)[0];
    if (deepest) {
      const nested = describeIssue(deepest);
      return { path: protoPath([...issue.path, ...deepest.path]), message: nested.message };
    }
  }
  const path = protoPath(issue.path);
  const missing = (issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined;
  const field = path.split('.').pop() ?? path;
  return { path, message: missing ? `${field.replace(/\[\d+\]$/, '')} is required` : issue.message };
}
