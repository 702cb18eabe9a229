/**
 * SWITCHYARD_* variables no part of Switchyard reads: most are typos
 * (`SWITCHYARD_DATABSE_URL` leaves an instance on SQLite), so each is named
 * at start with the closest known name.
 */
import { closestName } from '../core/closest-name.js';
import { ENV_VARS } from './env-vars.js';
import { TEST_ENV_VARS } from './test-env-vars.js';

const KNOWN = [...Object.keys(ENV_VARS), ...Object.keys(TEST_ENV_VARS)];

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
    const closest = closestName(variable, KNOWN, variable.length - 'SWITCHYARD_'.length);
    const message = `${variable} is not a Switchyard setting and is ignored${closest ? `; did you mean ${closest}?` : ' (see docs/reference.md)'}`;
    return { variable, closest, message };
  });
}
