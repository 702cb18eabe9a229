/**
 * The Anthropic typed tools this upstream runs itself. New dated versions
 * appear regularly, so membership is decided by family name + date suffix
 * (e.g. `web_search_20250305`, `computer_20250124`), not by a closed list.
 */
const typedToolKind = /^(computer|computer_toolset|browser_toolset|bash|text_editor|web_search|web_fetch|code_execution|memory|tool_search_tool_regex|tool_search_tool_bm25)_\d{8}$/;

class TypedToolKinds extends Set<string> {
  override has(kind: string): boolean {
    return typedToolKind.test(kind);
  }
}

/** Iterating yields the versions known when this was written; `has` accepts any dated version of the families. */
export const anthropicBuiltinTools: ReadonlySet<string> = new TypedToolKinds([
  'computer_20241022',
  'computer_20250124',
  'bash_20241022',
  'bash_20250124',
  'text_editor_20241022',
  'text_editor_20250124',
  'text_editor_20250429',
  'text_editor_20250728',
  'web_search_20250305',
  'web_fetch_20250910',
  'code_execution_20250522',
  'code_execution_20250825',
  'code_execution_20260120',
  'memory_20250818',
]);
