/**
 * Turns the first zod issue into the gateway's one-error report: a parameter
 * path in the Responses API's own spelling (`input[0].content[1].image_url`)
 * and a message that names it.
 */
import type { z } from 'zod';
import { invalidRequest, type GatewayError } from '../../core/errors.js';

type Issue = z.core.$ZodIssue;

export function paramPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

export function invalidParam(path: readonly PropertyKey[], message: string): GatewayError {
  const param = paramPath(path);
  return invalidRequest(param ? `Invalid '${param}': ${message}` : message, param || undefined);
}

/** The error for a failed parse, with `prefix` (e.g. `['input', 3]`) in front of the issue's own path. */
export function issueError(issues: readonly Issue[], prefix: readonly PropertyKey[] = []): GatewayError {
  const { path, message } = describeIssue(issues[0], [...prefix]);
  return invalidParam(path, message);
}

/** Follows a failed union into the branch the client evidently meant, so the message is about that branch. */
function describeIssue(issue: Issue, prefix: PropertyKey[]): { path: PropertyKey[]; message: string } {
  const path = prefix.concat(issue.path);
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const branch = issue.errors.find((issues) => issues.length > 0 && !issues.some((i) => i.path.length === 0) && !failsOnType(issues));
    if (branch) return describeIssue(branch[0], path);
  }
  if (issue.code === 'unrecognized_keys') return { path, message: `unknown field(s) ${issue.keys.join(', ')}` };
  const missing = issue.code === 'invalid_type' && issue.input === undefined;
  return { path, message: missing ? 'field required' : issue.message };
}

function failsOnType(issues: readonly Issue[]): boolean {
  return issues.some((i) => i.path.length === 1 && i.path[0] === 'type');
}
