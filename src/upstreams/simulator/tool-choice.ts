/** Which function tool, if any, the simulated model calls. */
import type { ChatRequest, FunctionTool } from '../../core/chat.js';
import { invalidRequest } from '../../core/errors.js';

function functionTools(request: ChatRequest): FunctionTool[] {
  return (request.tools ?? []).filter((tool): tool is FunctionTool => tool.type === 'function');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The tool name as a whole word of the text, case-insensitive (`get_weather` does not match `get_weathers`). */
function mentions(text: string, name: string): boolean {
  return new RegExp(`(?<![\\p{L}\\p{N}_-])${escapeRegExp(name)}(?![\\p{L}\\p{N}_-])`, 'iu').test(text);
}

/**
 * `required` calls the first function tool, `tool` the named one; otherwise
 * (`auto` or unset) the first offered tool that the user's text names.
 * `none` never calls. A conversation that just returned tool results is
 * answered in text, so agent loops end.
 */
export function chooseTool(request: ChatRequest, userText: string): FunctionTool | undefined {
  const choice = request.toolChoice;
  if (choice?.type === 'none') return undefined;
  const tools = functionTools(request);
  if (choice?.type === 'required') {
    if (tools.length === 0) throw invalidRequest('tool_choice requires a tool call but no function tool is offered', 'tool_choice');
    return tools[0];
  }
  if (choice?.type === 'tool') {
    const named = tools.find((tool) => tool.name === choice.name);
    if (named === undefined) throw invalidRequest(`tool_choice names ${choice.name}, which is not an offered function tool`, 'tool_choice');
    return named;
  }
  return tools.find((tool) => mentions(userText, tool.name));
}
