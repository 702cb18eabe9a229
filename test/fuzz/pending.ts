/**
 * Generators switched off because what they find is being fixed in another
 * change. Each entry names the generator, the fix it waits for, and a request
 * that reproduces the finding. Empty this list as those fixes land: the
 * generators then run with every other one.
 */
import type { Family, RouteEntry } from './catalogue.js';
import type { GeneratorName } from './generators.js';

export interface PendingFix {
  generator: GeneratorName;
  /** Only on these families' routes (all when absent). */
  families?: Family[];
  /** The fix this waits for. */
  waitsFor: string;
  /** One request that shows the finding, and what it answers today. */
  reproduce: string;
}

export const pendingFix: PendingFix[] = [];

/** The generators switched off on one route. */
export function pendingFor(route: RouteEntry): ReadonlySet<GeneratorName> {
  return new Set(pendingFix.filter((entry) => !entry.families || entry.families.includes(route.family)).map((entry) => entry.generator));
}
