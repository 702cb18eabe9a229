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

/**
 * A table keyed by model patterns (prices, context windows): a model gets the
 * value of its exact name, else of the longest `prefix*` it starts with, `*`
 * being the shortest prefix of all.
 */
export class ModelPatternTable<T> {
  private readonly exact = new Map<string, T>();
  /** Longest prefix first, so the first match is the most specific one. */
  private readonly prefixes: Array<[string, T]> = [];

  constructor(entries: Record<string, T> = {}) {
    for (const [pattern, value] of Object.entries(entries)) {
      if (pattern.endsWith('*')) this.prefixes.push([pattern.slice(0, -1), value]);
      else this.exact.set(pattern, value);
    }
    this.prefixes.sort((a, b) => b[0].length - a[0].length);
  }

  get(model: string): T | undefined {
    return this.exact.get(model) ?? this.prefixes.find(([prefix]) => model.startsWith(prefix))?.[1];
  }
}
