/**
 * Validates a Messages request body. Like the vendor's API it reports one
 * error, the first, naming the field path (`messages.0.content.1.text: …`).
 */
import type { z } from 'zod';
import { GatewayError } from '../../core/errors.js';
import { parseAsIs } from '../../core/accept-as-is.js';
import { messagesRequestSchema, type MessagesRequest } from '../../dialects/messages/schema.js';

export type { MessagesRequest } from '../../dialects/messages/schema.js';

type Issue = z.core.$ZodIssue;

export function parseMessagesRequest(body: unknown): MessagesRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('invalid_request', 'request body must be a JSON object');
  }
  const result = parseAsIs(messagesRequestSchema(), body, { reportInput: true });
  if (!result.success) {
    const { path, message } = describeIssue(result.error.issues[0], []);
    throw invalid(path, message);
  }
  checkCrossFieldRules(result.data);
  return result.data;
}

function invalid(path: string, message: string): GatewayError {
  return new GatewayError('invalid_request', path ? `${path}: ${message}` : message, path ? { param: path } : {});
}

/** Follows a failed union into the branch the client evidently meant, so the message is about that branch. */
function describeIssue(issue: Issue, prefix: PropertyKey[]): { path: string; message: string } {
  const path = prefix.concat(issue.path);
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const branch = intendedBranch(issue.errors);
    if (branch) return describeIssue(branch[0], path);
    if (issue.errors.every(failsOnType)) path.push('type');
  }
  const missing = issue.code === 'invalid_type' && issue.input === undefined;
  return { path: path.map(String).join('.'), message: missing ? 'field required' : issue.message };
}

/**
 * A branch that failed at its root (wrong JSON type) or on its `type` key (wrong
 * discriminator) was not the one meant; a branch that failed deeper was.
 */
function intendedBranch(branches: Issue[][]): Issue[] | undefined {
  return branches.find((issues) => issues.length > 0 && !issues.some((i) => i.path.length === 0) && !failsOnType(issues));
}

function failsOnType(issues: Issue[]): boolean {
  return issues.some((i) => i.path.length === 1 && i.path[0] === 'type');
}

function checkCrossFieldRules(req: MessagesRequest): void {
  if (req.thinking?.type === 'enabled' && (req.thinking.budget_tokens as number) >= req.max_tokens) {
    throw invalid('thinking.budget_tokens', `must be less than max_tokens (${req.max_tokens})`);
  }
  checkMessages(req);
  checkTools(req);
}

const assistantOnlyBlocks = new Set(['tool_use', 'thinking', 'redacted_thinking']);

function checkMessages(req: MessagesRequest): void {
  const last = req.messages.length - 1;
  req.messages.forEach((message, i) => {
    const empty = message.content.length === 0;
    if (empty && !(i === last && message.role === 'assistant')) {
      throw invalid(`messages.${i}`, 'all messages must have non-empty content except for the optional final assistant message');
    }
    if (typeof message.content === 'string') return;
    message.content.forEach((block, j) => {
      if (message.role === 'system' && block.type !== 'text') {
        throw invalid(`messages.${i}.content.${j}`, 'system messages may hold text blocks only');
      }
      if (block.type === 'tool_result' && message.role !== 'user') {
        throw invalid(`messages.${i}.content.${j}`, 'tool_result blocks are only allowed in user messages');
      }
      if (assistantOnlyBlocks.has(block.type) && message.role !== 'assistant') {
        throw invalid(`messages.${i}.content.${j}`, `${block.type} blocks are only allowed in assistant messages`);
      }
    });
  });
}

function checkTools(req: MessagesRequest): void {
  if (!req.tools && !req.tool_choice) return;
  const names = new Set<string>();
  req.tools?.forEach((tool, i) => {
    if (tool.name === undefined) return;
    if (names.has(tool.name)) throw invalid(`tools.${i}.name`, `tool names must be unique; "${tool.name}" is repeated`);
    names.add(tool.name);
  });
  const choice = req.tool_choice;
  if (!choice || choice.type === 'auto' || choice.type === 'none') return;
  if (names.size === 0) throw invalid('tool_choice', `tool_choice "${choice.type}" requires tools`);
  if (choice.type === 'tool' && !names.has(choice.name)) {
    throw invalid('tool_choice.name', `no tool named "${choice.name}" in tools`);
  }
}
