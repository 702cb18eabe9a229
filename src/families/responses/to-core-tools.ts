/**
 * Responses tools and tool_choice → internal tool definitions, for translation.
 *
 * - `function` tools stay function tools (`strict` only when the client set it);
 * - members of `namespace` tools become function tools under flat names (see
 *   tool-names.ts), the namespace's description opening theirs;
 * - `custom` (freeform) tools become function tools taking one string,
 *   `input`, whose description carries the tool's grammar when it has one;
 * - web search tools become builtin tools with the `web_search` capability
 *   (an upstream with its own search runs it); every other hosted tool is a
 *   builtin tool its translation plan forwards, maps or leaves out.
 * Tools come from `tools` and from `additional_tools` items of the
 * conversation, in that order.
 */
import type { FunctionTool, ToolChoice, ToolDefinition } from '../../core/chat.js';
import type { ToolParam } from '../../dialects/responses/schema-tools.js';
import { customInputField, type ToolNames } from './tool-names.js';
import type { ValidatedRequest } from './validate.js';

interface Member {
  tool: ToolParam;
  namespace?: { name: string; description?: string };
}

export function toolsToCore(lists: readonly ToolParam[][], names: ToolNames): ToolDefinition[] {
  const members: Member[] = [];
  const builtins: ToolDefinition[] = [];
  for (const tool of lists.flat()) {
    if (tool.type === 'function' || tool.type === 'custom') members.push({ tool });
    else if (tool.type === 'namespace') {
      const namespace = { name: tool.name as string, description: typeof tool.description === 'string' ? tool.description : undefined };
      for (const member of tool.tools as ToolParam[]) members.push({ tool: member, namespace });
    } else builtins.push(builtinTool(tool));
  }
  // Tools outside a namespace keep their own names: they are named first.
  const ordered = [...members.filter((m) => !m.namespace), ...members.filter((m) => m.namespace)];
  const flat = new Map(ordered.map((member) => [member, register(member, names)]));
  return [...members.map((member) => functionTool(member, flat.get(member) as string)), ...builtins];
}

function register(member: Member, names: ToolNames): string {
  return names.add({ name: member.tool.name as string, namespace: member.namespace?.name, custom: member.tool.type === 'custom' });
}

function functionTool({ tool, namespace }: Member, name: string): FunctionTool {
  const description = [namespace?.description, typeof tool.description === 'string' ? tool.description : undefined].filter((text): text is string => !!text).join('\n\n');
  const definition: FunctionTool = {
    type: 'function',
    name,
    parameters: tool.type === 'custom' ? customParameters(tool) : ((tool.parameters as Record<string, unknown> | null | undefined) ?? { type: 'object', properties: {} }),
  };
  if (description) definition.description = description;
  if (tool.type === 'function' && typeof tool.strict === 'boolean') definition.strict = tool.strict;
  return definition;
}

function customParameters(tool: ToolParam): Record<string, unknown> {
  const format = tool.format as { type?: string; syntax?: string; definition?: string } | null | undefined;
  const grammar = format?.type === 'grammar' && format.definition ? ` It must follow this ${format.syntax ?? ''} grammar:\n${format.definition}` : '';
  return {
    type: 'object',
    properties: { [customInputField]: { type: 'string', description: `The tool's whole input, as raw text (not JSON).${grammar}` } },
    required: [customInputField],
    additionalProperties: false,
  };
}

function builtinTool(tool: ToolParam): ToolDefinition {
  const definition: ToolDefinition = { type: 'builtin', dialect: 'responses', kind: tool.type, raw: tool };
  if (tool.type.startsWith('web_search')) definition.capability = 'web_search';
  return definition;
}

/**
 * The tool choice, and the tools it leaves: `allowed_tools` keeps only the
 * tools it lists (with its mode); a function or custom tool is named by its
 * flat name; a hosted tool by its type, which an upstream without it refuses.
 */
export function toolChoiceToCore(choice: NonNullable<ValidatedRequest['tool_choice']>, tools: ToolDefinition[], names: ToolNames): { choice: ToolChoice; tools: ToolDefinition[] } {
  if (typeof choice === 'string') return { choice: { type: choice }, tools };
  const named = choice as { type: string; name?: string; namespace?: string | null; mode?: string; tools?: ToolParam[] };
  if (named.type === 'function' || named.type === 'custom') {
    return { choice: { type: 'tool', name: names.flatName(named.name as string, named.namespace, named.type === 'custom') }, tools };
  }
  if (named.type === 'allowed_tools') {
    const allowed = (named.tools ?? []).map((entry) =>
      entry.type === 'function' || entry.type === 'custom' ? names.flatName(entry.name as string, entry.namespace as string | undefined, entry.type === 'custom') : entry.type,
    );
    const kept = tools.filter((tool) => allowed.includes(tool.type === 'function' ? tool.name : tool.kind));
    return { choice: { type: named.mode === 'required' ? 'required' : 'auto' }, tools: kept };
  }
  return { choice: { type: 'tool', name: named.type }, tools };
}
