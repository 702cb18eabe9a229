/**
 * Rebuilds a function call's arguments from streamed `partialArgs`
 * (`{jsonPath: "$.location", stringValue: "Bos", willContinue: true}`):
 * string pieces for the same path are appended, other values are set.
 * Paths are `$.a.b[0].c`; keys are defined as own data properties so a key
 * such as `__proto__` stays data. Array indexes may only grow by one, so a
 * tiny chunk cannot make a huge sparse array.
 */
import { GatewayError } from '../../../core/errors.js';
import type { GeminiPartialArg } from '../../../dialects/generate/wire.js';

type Container = Record<string | number, unknown>;

export class PartialArgs {
  readonly value: Record<string, unknown> = {};

  apply(args: readonly GeminiPartialArg[]): void {
    for (const arg of args) this.applyOne(arg);
  }

  private applyOne(arg: GeminiPartialArg): void {
    const segments = parsePath(arg.jsonPath);
    if (segments.length === 0) return;
    let container: Container = this.value;
    for (let i = 0; i < segments.length - 1; i++) {
      const key = segments[i];
      let next = Object.hasOwn(container, key) ? container[key] : undefined;
      if (next === null || typeof next !== 'object') {
        next = typeof segments[i + 1] === 'number' ? [] : {};
        define(container, key, next);
      }
      container = next as Container;
    }
    const leaf = segments[segments.length - 1];
    if (typeof leaf === 'number' && Array.isArray(container) && leaf > container.length) {
      throw new GatewayError('upstream_error', `upstream streamed function arguments with a gap at ${arg.jsonPath}`, { retryable: false });
    }
    const existing = Object.hasOwn(container, leaf) ? container[leaf] : undefined;
    if (arg.stringValue != null) {
      define(container, leaf, typeof existing === 'string' ? existing + arg.stringValue : arg.stringValue);
    } else if (arg.numberValue != null) define(container, leaf, arg.numberValue);
    else if (arg.boolValue != null) define(container, leaf, arg.boolValue);
    else if ('nullValue' in arg) define(container, leaf, null);
  }
}

function define(container: Container, key: string | number, value: unknown): void {
  Object.defineProperty(container, key, { value, enumerable: true, configurable: true, writable: true });
}

/** `$.recipe.items[0].name` → ['recipe', 'items', 0, 'name']. */
function parsePath(jsonPath: string): Array<string | number> {
  const path = jsonPath.replace(/^\$\.?/, '');
  const segments: Array<string | number> = [];
  for (const piece of path.split('.')) {
    if (piece === '') continue;
    const bracket = piece.indexOf('[');
    if (bracket < 0) {
      segments.push(piece);
      continue;
    }
    if (bracket > 0) segments.push(piece.slice(0, bracket));
    for (const match of piece.matchAll(/\[(\d+)\]/g)) segments.push(Number(match[1]));
  }
  return segments;
}
