/**
 * SWITCHYARD_* variables no part of Switchyard reads: most are typos
 * (`SWITCHYARD_DATABSE_URL` leaves an instance on SQLite), so each is named
 * at start with the closest known name.
 */
import { ENV_VARS } from './env-vars.js';
import { TEST_ENV_VARS } from './test-env-vars.js';

const KNOWN = [...Object.keys(ENV_VARS), ...Object.keys(TEST_ENV_VARS)];

/** Levenshtein distance: insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

export interface UnknownVariable {
  variable: string;
  /** The known name closest to it, when it is close enough to be the one meant. */
  closest?: string;
  message: string;
}

/** One entry per unknown SWITCHYARD_* variable set in `env`, in name order. */
export function unknownVariables(env: NodeJS.ProcessEnv): UnknownVariable[] {
  const unknown = Object.keys(env)
    .filter((name) => name.startsWith('SWITCHYARD_') && !KNOWN.includes(name))
    .sort();
  return unknown.map((variable) => {
    const ranked = KNOWN.map((name) => ({ name, distance: editDistance(variable, name) })).sort((a, b) => a.distance - b.distance);
    const best = ranked[0];
    // Past a third of the name's own part, a "closest" name is a guess, not a typo's fix.
    const closest = best && best.distance <= Math.max(2, Math.floor((variable.length - 'SWITCHYARD_'.length) / 3)) ? best.name : undefined;
    const message = `${variable} is not a Switchyard setting and is ignored${closest ? `; did you mean ${closest}?` : ' (see docs/reference.md)'}`;
    return { variable, closest, message };
  });
}
