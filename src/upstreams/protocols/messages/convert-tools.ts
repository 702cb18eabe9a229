/**
 * Tools and tool choice of a translated request, in the Messages dialect.
 *
 * - Function tools become custom tools (a deferred one is sent loaded: a
 *   `defer_loading` tool needs a tool-search tool and its beta beside it).
 * - Messages typed tools are forwarded as the client wrote them.
 * - A provider-run tool of another dialect whose capability Anthropic runs
 *   (web search, web fetch, code execution) becomes Anthropic's own tool;
 *   tool_choice forcing it names Anthropic's tool.
 * Which builtin tools are sent at all is decided with the plan (`decideTools` in upstreams/plan.ts).
 */
import type { BuiltinCapability, BuiltinTool, ToolChoice, ToolDefinition } from '../../../core/chat.js';
import { builtinToolTreatment, type TranslationCapabilities } from '../../plan.js';

type Block = Record<string, unknown>;

/** Anthropic's own tool for each shared capability (all generally available: no beta header). */
export const capabilityTools: Record<BuiltinCapability, { type: string; name: string }> = {
  web_search: { type: 'web_search_20250305', name: 'web_search' },
  web_fetch: { type: 'web_fetch_20250910', name: 'web_fetch' },
  code_execution: { type: 'code_execution_20250825', name: 'code_execution' },
};

export function toTool(tool: ToolDefinition, caps: TranslationCapabilities): Block {
  if (tool.type === 'builtin') {
    if (builtinToolTreatment(tool, caps) === 'native') return tool.raw;
    return { ...capabilityTools[tool.capability!] };
  }
  const block: Block = { name: tool.name, input_schema: tool.parameters };
  if (tool.description) block.description = tool.description;
  if (tool.strict === true) block.strict = true;
  return block;
}

export function toToolChoice(choice: ToolChoice | undefined, parallelToolCalls: boolean | undefined, sent: readonly ToolDefinition[], caps: TranslationCapabilities): Block | undefined {
  const disableParallel = (choice && 'disableParallel' in choice && choice.disableParallel) || parallelToolCalls === false;
  const parallel = disableParallel ? { disable_parallel_tool_use: true } : {};
  if (!choice) return disableParallel ? { type: 'auto', ...parallel } : undefined;
  switch (choice.type) {
    case 'auto':
      return { type: 'auto', ...parallel };
    case 'required':
      return { type: 'any', ...parallel };
    case 'tool':
      return { type: 'tool', name: forcedToolName(choice.name, sent, caps), ...parallel };
    case 'none':
      return { type: 'none' };
  }
}

/** A forced builtin tool is named by its kind or its own name; upstream it goes by the name of the tool actually sent. */
function forcedToolName(name: string, sent: readonly ToolDefinition[], caps: TranslationCapabilities): string {
  const builtin = sent.find((tool): tool is BuiltinTool => tool.type === 'builtin' && (tool.kind === name || tool.raw.name === name));
  if (!builtin) return name;
  if (builtinToolTreatment(builtin, caps) === 'mapped') return capabilityTools[builtin.capability!].name;
  return typeof builtin.raw.name === 'string' ? builtin.raw.name : name;
}
