/**
 * Reads one SWITCHYARD_* variable by the rules its entry in `env-vars.ts`
 * declares (kind, default, bounds). Blank counts as unset. A value of the
 * wrong kind stops the start with a message naming the variable.
 */
import { ENV_VARS, type EnvVarName, type EnvVarSpec } from './env-vars.js';

export interface EnvReader {
  /** A string or URL variable; its default when unset, else undefined. */
  text(name: EnvVarName): string | undefined;
  integer(name: EnvVarName): number;
  /** A number from 0 to 1. */
  fraction(name: EnvVarName): number;
  onOff(name: EnvVarName): boolean | undefined;
  list(name: EnvVarName): string[];
}

const ON = ['on', 'true', '1', 'yes'];
const OFF = ['off', 'false', '0', 'no'];

export function envReader(env: NodeJS.ProcessEnv): EnvReader {
  const raw = (name: EnvVarName): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const spec = (name: EnvVarName, kinds: EnvVarSpec['kind'][]): EnvVarSpec => {
    const found: EnvVarSpec = ENV_VARS[name];
    // A programming error, not an operator one: the table and the parser disagree.
    if (!kinds.includes(found.kind)) throw new Error(`${name} is declared as ${found.kind}, read as ${kinds.join('/')}`);
    return found;
  };
  return {
    text(name) {
      const declared = spec(name, ['string', 'url']);
      return raw(name) ?? (declared.default === undefined ? undefined : String(declared.default));
    },
    integer(name) {
      const declared = spec(name, ['integer']);
      const value = raw(name);
      let parsed = Number(declared.default ?? 0);
      if (value !== undefined) {
        parsed = Number(value);
        if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer, got "${env[name]}"`);
      }
      if (declared.refuseBelowMin && declared.min !== undefined && parsed < declared.min)
        throw new Error(`${name} must be a positive integer, got "${env[name]}"`);
      if (declared.max !== undefined && parsed > declared.max) throw new Error(`${name} must be at most ${declared.max}, got ${parsed}`);
      return declared.min === undefined ? parsed : Math.max(declared.min, parsed);
    },
    fraction(name) {
      const declared = spec(name, ['fraction']);
      const value = raw(name);
      if (value === undefined) return Number(declared.default ?? 0);
      const parsed = Number(value);
      if (!Number.isFinite(parsed) || parsed < 0 || parsed > 1) throw new Error(`${name} must be a number from 0 to 1, got "${env[name]}"`);
      return parsed;
    },
    onOff(name) {
      spec(name, ['on-off']);
      const word = raw(name)?.toLowerCase();
      if (word === undefined) return undefined;
      if (ON.includes(word)) return true;
      if (OFF.includes(word)) return false;
      throw new Error(`${name} must be on or off, got "${env[name]}"`);
    },
    list(name) {
      spec(name, ['list']);
      return (raw(name) ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
    },
  };
}
