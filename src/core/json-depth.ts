/**
 * The nesting-depth limit on JSON request bodies. Translators, validators and
 * schema walkers recurse over client JSON; a body nested thousands of levels
 * deep would overflow the stack deep inside one of them (a 500), so it is
 * refused right after parsing, before any work is done. The walk itself is
 * iterative so checking cannot overflow either.
 */

/** Objects and arrays nested deeper than this are refused (see README, "Limits"). */
export const MAX_JSON_DEPTH = 128;

/** Whether `value` nests objects or arrays more than `limit` levels deep. */
export function exceedsJsonDepth(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > limit) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}
