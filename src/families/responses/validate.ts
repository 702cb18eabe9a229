/**
 * Validates a Responses request body: the top level by its schema, then each
 * input item, content part and tool by the schema its type selects, then the
 * rules that tie fields together. Reports one error, the first, with the path
 * of the offending field.
 */
import type { z } from 'zod';
import { GatewayError } from '../../core/errors.js';
import { parseAsIs } from '../../core/accept-as-is.js';
import { inputPartSchemas, outputPartSchemas } from '../../dialects/responses/schema-content.js';
import { itemKind, itemSchemas, otherItemSchema, type InputItem } from '../../dialects/responses/schema-items.js';
import { namespaceMemberSchemas, otherToolSchema, toolSchemas, type ToolParam } from '../../dialects/responses/schema-tools.js';
import { responsesRequestSchema, type ResponsesRequest } from '../../dialects/responses/schema-request.js';
import { invalidParam, issueError } from '../../dialects/openai/validate-issue.js';

export type ValidatedRequest = ResponsesRequest & {
  input: string | InputItem[];
  tools?: ToolParam[] | null;
};

export function parseResponsesRequest(body: unknown): ValidatedRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('invalid_request', 'request body must be a JSON object');
  }
  const result = parseAsIs(responsesRequestSchema(), body, { reportInput: true });
  if (!result.success) throw issueError(result.error.issues);
  const request = result.data as ValidatedRequest;
  if (Array.isArray(request.input)) request.input = request.input.map((item, i) => checkItem(item, ['input', i]));
  if (request.tools) request.tools = checkTools(request.tools, ['tools']);
  checkToolChoice(request);
  return request;
}

function checkItem(item: Record<string, unknown>, path: Array<string | number>): InputItem {
  const kind = itemKind(item);
  if (kind === undefined) throw invalidParam([...path, 'type'], 'field required: each input item needs a type (or a role for messages)');
  const schema = itemSchemas()[kind as keyof ReturnType<typeof itemSchemas>] ?? otherItemSchema();
  const result = parseAsIs(schema, item, { reportInput: true });
  if (!result.success) throw issueError(result.error.issues, path);
  if (kind === 'message') checkMessageParts(result.data as { role: string; content: unknown }, path);
  if (kind === 'additional_tools') {
    const item = result.data as InputItem & { tools: Array<Record<string, unknown>> };
    item.tools = checkTools(item.tools, [...path, 'tools']);
  }
  return result.data as InputItem;
}

/** User, system and developer messages hold input parts; assistant messages hold output text and refusals. */
function checkMessageParts(message: { role: string; content: unknown }, path: Array<string | number>): void {
  if (!Array.isArray(message.content)) return;
  const assistant = message.role === 'assistant';
  const allowed: Record<string, z.ZodType> = assistant ? { ...outputPartSchemas(), input_text: inputPartSchemas().input_text } : inputPartSchemas();
  message.content.forEach((part: { type: string }, j: number) => {
    const partPath = [...path, 'content', j];
    const schema = allowed[part.type];
    if (!schema) {
      const expected = Object.keys(allowed)
        .map((type) => `"${type}"`)
        .join(', ');
      throw invalidParam([...partPath, 'type'], `"${part.type}" is not a valid part for a ${message.role} message; expected one of ${expected}`);
    }
    const result = parseAsIs(schema, part, { reportInput: true });
    if (!result.success) throw issueError(result.error!.issues, partPath);
  });
}

/** A list of tools (`tools`, an `additional_tools` item, a namespace's members), each by its type's schema; names unique within the list. */
function checkTools(tools: Array<Record<string, unknown>>, path: Array<string | number>, schemas = toolSchemas()): ToolParam[] {
  const names = new Set<string>();
  return tools.map((tool, i) => {
    const checked = checkTool(tool, [...path, i], schemas);
    if (checked.type === 'function' || checked.type === 'custom') {
      const name = checked.name as string;
      if (names.has(name)) throw invalidParam([...path, i, 'name'], `tool names must be unique; "${name}" is repeated`);
      names.add(name);
    }
    return checked;
  });
}

function checkTool(tool: Record<string, unknown>, path: Array<string | number>, schemas: Record<string, z.ZodType<Record<string, unknown>>>): ToolParam {
  const schema = schemas[tool.type as string];
  if (!schema && schemas === namespaceMemberSchemas()) throw invalidParam([...path, 'type'], 'a namespace holds function and custom tools only');
  const result = parseAsIs(schema ?? otherToolSchema(), tool, { reportInput: true });
  if (!result.success) throw issueError(result.error.issues, path);
  const checked = result.data as ToolParam;
  if (checked.type === 'namespace') checked.tools = checkTools(checked.tools as Array<Record<string, unknown>>, [...path, 'tools'], namespaceMemberSchemas());
  return checked;
}

/**
 * A tool_choice must name a tool the request offers. Tools may also come from
 * `additional_tools` items of earlier turns, so with `previous_response_id`
 * only the shape is checked.
 */
function checkToolChoice(request: ValidatedRequest): void {
  const offered = offeredTools(request);
  const choice = request.tool_choice;
  if (!choice || typeof choice === 'string') {
    if (choice === 'required' && offered.length === 0 && !request.previous_response_id) throw invalidParam(['tool_choice'], '"required" needs at least one tool');
    return;
  }
  if (request.previous_response_id || choice.type === 'allowed_tools' || choice.type === 'mcp') return;
  if (choice.type === 'function' || choice.type === 'custom') {
    const name = (choice as { name: string }).name;
    const namespace = (choice as { namespace?: unknown }).namespace;
    const found = offered.some((tool) => tool.type === choice.type && tool.name === name && (namespace == null || tool.namespace === namespace));
    if (!found) throw invalidParam(['tool_choice', 'name'], `no ${choice.type} tool named "${name}" in tools`);
    return;
  }
  const matches = (type: string) => type === choice.type || (choice.type.startsWith('web_search') && type.startsWith('web_search'));
  if (!offered.some((tool) => matches(tool.type))) {
    throw invalidParam(['tool_choice', 'type'], `no "${choice.type}" tool in tools`);
  }
}

/** Every tool of this request: `tools`, `additional_tools` items, namespace members (with their namespace). */
function offeredTools(request: ValidatedRequest): Array<ToolParam & { namespace?: string }> {
  const lists = [request.tools ?? []];
  if (Array.isArray(request.input)) for (const item of request.input) if (item.type === 'additional_tools') lists.push(item.tools as ToolParam[]);
  const out: Array<ToolParam & { namespace?: string }> = [];
  for (const tool of lists.flat()) {
    if (tool.type !== 'namespace') out.push(tool);
    else for (const member of tool.tools as ToolParam[]) out.push({ ...member, namespace: tool.name as string });
  }
  return out;
}
