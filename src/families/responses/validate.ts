/**
 * Validates a Responses request body: the top level by its schema, then each
 * input item, content part and tool by the schema its type selects, then the
 * rules that tie fields together. Reports one error, the first, with the path
 * of the offending field.
 */
import { GatewayError } from '../../core/errors.js';
import { inputPartSchemas, outputPartSchemas } from './schema-content.js';
import { itemKind, itemSchemas, otherItemSchema, type InputItem } from './schema-items.js';
import { otherToolSchema, toolSchemas, type ToolParam } from './schema-tools.js';
import { responsesRequestSchema, type ResponsesRequest } from './schema.js';
import { invalidParam, issueError } from './validate-issue.js';

export type ValidatedRequest = ResponsesRequest & {
  input: string | InputItem[];
  tools?: ToolParam[] | null;
};

export function parseResponsesRequest(body: unknown): ValidatedRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('invalid_request', 'request body must be a JSON object');
  }
  const result = responsesRequestSchema.safeParse(body, { reportInput: true });
  if (!result.success) throw issueError(result.error.issues);
  const request = result.data as ValidatedRequest;
  if (Array.isArray(request.input)) request.input = request.input.map((item, i) => checkItem(item, ['input', i]));
  if (request.tools) request.tools = request.tools.map((tool, i) => checkTool(tool, ['tools', i]));
  checkToolChoice(request);
  return request;
}

function checkItem(item: Record<string, unknown>, path: Array<string | number>): InputItem {
  const kind = itemKind(item);
  if (kind === undefined) throw invalidParam([...path, 'type'], 'field required: each input item needs a type (or a role for messages)');
  const schema = itemSchemas[kind as keyof typeof itemSchemas] ?? otherItemSchema;
  const result = schema.safeParse(item, { reportInput: true });
  if (!result.success) throw issueError(result.error.issues, path);
  if (kind === 'message') checkMessageParts(result.data as { role: string; content: unknown }, path);
  return result.data as InputItem;
}

/** User, system and developer messages hold input parts; assistant messages hold output text and refusals. */
function checkMessageParts(message: { role: string; content: unknown }, path: Array<string | number>): void {
  if (!Array.isArray(message.content)) return;
  const assistant = message.role === 'assistant';
  const allowed: Record<string, { safeParse: (value: unknown, options: object) => { success: boolean; data?: unknown; error?: { issues: any[] } } }> =
    assistant ? { ...outputPartSchemas, input_text: inputPartSchemas.input_text } : inputPartSchemas;
  message.content.forEach((part: { type: string }, j: number) => {
    const partPath = [...path, 'content', j];
    const schema = allowed[part.type];
    if (!schema) {
      const expected = Object.keys(allowed).map((type) => `"${type}"`).join(', ');
      throw invalidParam([...partPath, 'type'], `"${part.type}" is not a valid part for a ${message.role} message; expected one of ${expected}`);
    }
    const result = schema.safeParse(part, { reportInput: true });
    if (!result.success) throw issueError(result.error!.issues, partPath);
  });
}

function checkTool(tool: Record<string, unknown>, path: Array<string | number>): ToolParam {
  const schema = toolSchemas[tool.type as string] ?? otherToolSchema;
  const result = schema.safeParse(tool, { reportInput: true });
  if (!result.success) throw issueError(result.error.issues, path);
  return result.data as ToolParam;
}

function checkToolChoice(request: ValidatedRequest): void {
  const tools = request.tools ?? [];
  const names = new Set<string>();
  tools.forEach((tool, i) => {
    if (tool.type !== 'function') return;
    const name = tool.name as string;
    if (names.has(name)) throw invalidParam(['tools', i, 'name'], `tool names must be unique; "${name}" is repeated`);
    names.add(name);
  });
  const choice = request.tool_choice;
  if (!choice || typeof choice === 'string') {
    if (choice === 'required' && tools.length === 0) throw invalidParam(['tool_choice'], '"required" needs at least one tool');
    return;
  }
  if (choice.type === 'function') {
    const name = (choice as { name: string }).name;
    if (!names.has(name)) throw invalidParam(['tool_choice', 'name'], `no function tool named "${name}" in tools`);
    return;
  }
  const matches = (type: string) => type === choice.type || (choice.type.startsWith('web_search_preview') && type.startsWith('web_search_preview'));
  if (!tools.some((tool) => matches(tool.type))) {
    throw invalidParam(['tool_choice', 'type'], `no "${choice.type}" tool in tools`);
  }
}
