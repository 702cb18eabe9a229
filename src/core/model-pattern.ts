/**
 * The one rule for `models` lists, shared by channels (which models a channel
 * serves) and keys (which models and image actions a key may use): an entry
 * is an exact name, `*` for everything, or `prefix*` for every name that
 * starts with the prefix (`claude-*`, `ig_*`).
 */

export function matchesModelPattern(pattern: string, model: string): boolean {
  if (pattern === '*' || pattern === model) return true;
  return pattern.endsWith('*') && model.startsWith(pattern.slice(0, -1));
}

export function matchesAnyModelPattern(patterns: readonly string[], model: string): boolean {
  return patterns.some((pattern) => matchesModelPattern(pattern, model));
}
