/**
 * Validates a Chat Completions body the way the OpenAI API does: the top level
 * by its schema, each message by its role's schema, each content part by its
 * type's, each function tool, then the rules that tie fields together. One
 * error, the first, naming the offending field in `param`
 * (`messages[2].content[0].image_url`).
 */
import { builtOnce } from '../../core/built-once.js';
import { GatewayError } from '../../core/errors.js';
import type { z } from 'zod';
import { parseAsIs } from '../../core/accept-as-is.js';
import { invalidParam, issueError } from '../../dialects/openai/validate-issue.js';
import { chatCompletionsRequestSchema, functionToolSchema, otherToolSchema, type ChatCompletionsRequest } from '../../dialects/chat-completions/schema-request.js';
import { assistantPartSchemas, messageSchemas, textOnlyPartSchemas, userPartSchemas, type MessageParam, type Role } from '../../dialects/chat-completions/schema-messages.js';

export type ValidatedChatRequest = ChatCompletionsRequest & { messages: MessageParam[] };

type PartSchemas = Record<string, z.ZodType>;

const partsByRole = builtOnce(
  (): Record<Role, PartSchemas | undefined> => ({
    system: textOnlyPartSchemas(),
    developer: textOnlyPartSchemas(),
    user: userPartSchemas(),
    assistant: assistantPartSchemas(),
    tool: textOnlyPartSchemas(),
    function: undefined,
  }),
);

export function parseChatCompletionsRequest(body: unknown): ValidatedChatRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('invalid_request', 'request body must be a JSON object');
  }
  const result = parseAsIs(chatCompletionsRequestSchema(), body, { reportInput: true });
  if (!result.success) throw issueError(result.error.issues);
  const request = result.data as ValidatedChatRequest;
  request.messages = request.messages.map((message, i) => checkMessage(message, i));
  if (request.tools) checkTools(request.tools);
  checkCrossFields(request);
  return request;
}

function checkMessage(message: Record<string, unknown>, i: number): MessageParam {
  const path = ['messages', i];
  const role = message.role as Role;
  const schema = messageSchemas()[role];
  if (!schema) {
    const roles = Object.keys(messageSchemas())
      .map((name) => `'${name}'`)
      .join(', ');
    throw invalidParam([...path, 'role'], `'${String(message.role)}' is not one of ${roles}`);
  }
  const result = parseAsIs(schema, message, { reportInput: true });
  if (!result.success) throw issueError(result.error.issues, path);
  const checked = result.data as MessageParam;
  const parts = partsByRole()[role];
  if (parts && Array.isArray(checked.content)) checked.content.forEach((part, j) => checkPart(part, parts, role, [...path, 'content', j]));
  return checked;
}

/** Known part types are checked; other types are kept only where a role takes more than text (a native upstream may know them). */
function checkPart(part: { type: string }, schemas: PartSchemas, role: Role, path: Array<string | number>): void {
  const schema = schemas[part.type];
  if (!schema) {
    if (role === 'user') return;
    const expected = Object.keys(schemas)
      .map((type) => `'${type}'`)
      .join(', ');
    throw invalidParam([...path, 'type'], `'${part.type}' is not a valid part for a ${role} message; expected one of ${expected}`);
  }
  const result = parseAsIs(schema, part, { reportInput: true });
  if (!result.success) throw issueError(result.error!.issues, path);
}

function checkTools(tools: Array<Record<string, unknown>>): void {
  const names = new Set<string>();
  tools.forEach((tool, i) => {
    const schema = tool.type === 'function' ? functionToolSchema() : otherToolSchema();
    const result = parseAsIs(schema, tool, { reportInput: true });
    if (!result.success) throw issueError(result.error.issues, ['tools', i]);
    if (tool.type !== 'function') return;
    const name = (tool.function as { name: string }).name;
    if (names.has(name)) throw invalidParam(['tools', i, 'function', 'name'], `tool names must be unique; '${name}' is repeated`);
    names.add(name);
  });
}

function checkCrossFields(request: ValidatedChatRequest): void {
  if (request.top_logprobs != null && request.top_logprobs > 0 && request.logprobs !== true) throw invalidParam(['top_logprobs'], 'logprobs must be set to true when top_logprobs is used');
  if (request.stream_options != null && request.stream !== true) throw invalidParam(['stream_options'], 'stream_options is only allowed when stream is true');
  const choice = request.tool_choice;
  if (choice && typeof choice === 'object' && choice.type === 'function') {
    const name = (choice.function as { name: string }).name;
    const declared = (request.tools ?? []).some((tool) => tool.type === 'function' && (tool.function as { name: string }).name === name);
    if (!declared) throw invalidParam(['tool_choice'], `tool '${name}' is not in tools`);
  }
  checkToolMessages(request.messages);
}

/** A tool message answers a call an earlier assistant message made. */
function checkToolMessages(messages: MessageParam[]): void {
  const calls = new Set<string>();
  messages.forEach((message, i) => {
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) calls.add(call.id);
    if (message.role === 'tool' && !calls.has(message.tool_call_id))
      throw invalidParam(['messages', i, 'tool_call_id'], `messages with role 'tool' must be a response to a preceding message with 'tool_calls'; no call has id '${message.tool_call_id}'`);
  });
}
