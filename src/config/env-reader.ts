/**
 * Reads one SWITCHYARD_* variable by the rules its entry in `env-vars.ts`
 * declares (kind, default, bounds, values, schemes, length). Blank counts as
 * unset. A value that breaks its rule is noted as a problem naming the
 * variable and read as its default, so that one start reports every wrong
 * setting at once (`SettingsError`); a credential's value is never repeated.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import type { EnvVarSpec } from './env-var-spec.js';
import { ENV_VARS, type EnvVarName } from './env-vars.js';
import { isIpOrCidr } from './entity-rules.js';

export interface EnvReader {
  /** A string, URL, host or file variable; its default when unset, else undefined. */
  text(name: EnvVarName): string | undefined;
  integer(name: EnvVarName): number;
  /** A number from 0 to 1. */
  fraction(name: EnvVarName): number;
  onOff(name: EnvVarName): boolean | undefined;
  list(name: EnvVarName): string[];
  /** Notes a problem found outside the table's rules (a combination, a pair's syntax). */
  problem(message: string): void;
  /** Every problem noted so far, in reading order. */
  readonly problems: string[];
}

/** Every wrong setting of one start; the message lists them all, then any notes (unknown names that may be the cause). */
export class SettingsError extends Error {
  constructor(
    readonly problems: string[],
    readonly notes: string[] = [],
  ) {
    const count = problems.length;
    super(count === 1 && notes.length === 0 ? problems[0] : `${count} setting${count === 1 ? ' is' : 's are'} wrong:\n  ${[...problems, ...notes].join('\n  ')}`);
    this.name = 'SettingsError';
  }
}

const ON = ['on', 'true', '1', 'yes'];
const OFF = ['off', 'false', '0', 'no'];

/** The values examples ship in place of a credential (deploy/kubernetes/secret.example.yaml's among them). */
const PLACEHOLDER = /replace[-_ ]?(with|me)|change[-_ ]?me|changeit|your[-_ ]?(secret|key)|<[^>]*>|^x+$/i;

/**
 * A host name as resolvers take them: dot-separated labels of letters, digits,
 * hyphens (and underscores, which container names have), the last not all
 * digits (256.1.1.1 is no name).
 */
function isHostName(text: string): boolean {
  if (text.length > 253) return false;
  const labels = text.replace(/\.$/, '').split('.');
  return labels.every((label) => /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/i.test(label)) && !/^\d+$/.test(labels[labels.length - 1]);
}

/** What is wrong with a readable file's path, or undefined. */
function fileProblem(name: string, file: string): string | undefined {
  const resolved = path.resolve(file);
  const shown = resolved === file ? file : `${file} (${resolved})`;
  try {
    if (!statSync(resolved).isFile()) return `${name} names ${shown}, which is not a file`;
    accessSync(resolved, constants.R_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `${name} names ${shown}, which does not exist` : `${name} names ${shown}, which cannot be read (${code ?? 'unreadable'})`;
  }
  const extension = path.extname(file).toLowerCase();
  if (!['.yaml', '.yml', '.json'].includes(extension)) return `${name} names ${shown}: use a .yaml, .yml or .json file`;
  return undefined;
}

/** What is wrong with a text value by its entry's rules, or undefined. */
function textProblem(name: string, spec: EnvVarSpec, value: string): string | undefined {
  const shown = spec.secret ? '' : `, got "${value}"`;
  if (spec.values && !spec.values.includes(value)) return `${name} must be one of ${spec.values.join(', ')}${shown}`;
  if (spec.pattern && !spec.pattern.test.test(value)) return `${name} must be ${spec.pattern.means}${shown}`;
  if (spec.kind === 'host' && isIP(value) === 0 && !isHostName(value)) return `${name} must be an IP address or a host name${shown}`;
  if (spec.kind === 'file') return fileProblem(name, value);
  if (spec.schemes) {
    const wanted = spec.schemes.join() === 'http,https' ? 'an http(s)' : `a ${spec.schemes.map((scheme) => `${scheme}://`).join(' or ')}`;
    if (!URL.canParse(value)) return `${name} must be ${wanted} URL${shown}`;
    const scheme = new URL(value).protocol.slice(0, -1).toLowerCase();
    // A credential's URL is named by its scheme alone: the rest may hold a password.
    if (!spec.schemes.includes(scheme)) return `${name} must be ${wanted} URL${spec.secret ? `, got a ${scheme}:// one` : shown}`;
  }
  if (spec.minLength !== undefined || spec.weakBelow !== undefined) {
    if (PLACEHOLDER.test(value)) return `${name} is an example's placeholder, not a secret: generate one (e.g. \`openssl rand -hex 32\`)`;
    if (spec.minLength !== undefined && value.length < spec.minLength) return `${name} must be at least ${spec.minLength} characters long, got ${value.length}`;
  }
  return undefined;
}

/** Settings that start but deserve a word at start (a short secret passphrase), one line each. */
export function settingWarnings(env: NodeJS.ProcessEnv): string[] {
  const warnings: string[] = [];
  for (const [name, spec] of Object.entries(ENV_VARS) as [EnvVarName, EnvVarSpec][]) {
    const value = env[name]?.trim();
    if (spec.weakBelow === undefined || !value || value.length >= spec.weakBelow) continue;
    warnings.push(`${name} is shorter than ${spec.weakBelow} characters; replace it with a generated one (\`openssl rand -hex 32\`, then \`switchyard secret-key rotate --new-key\`)`);
  }
  return warnings;
}

export function envReader(env: NodeJS.ProcessEnv): EnvReader {
  const problems: string[] = [];
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
  const fallback = (declared: EnvVarSpec): string | undefined => (declared.default === undefined ? undefined : String(declared.default));
  return {
    problems,
    problem(message) {
      problems.push(message);
    },
    text(name) {
      const declared = spec(name, ['string', 'url', 'host', 'file']);
      const value = raw(name);
      if (value === undefined) return fallback(declared);
      const problem = textProblem(name, declared, value);
      if (problem === undefined) return value;
      problems.push(problem);
      return fallback(declared);
    },
    integer(name) {
      const declared = spec(name, ['integer']);
      const value = raw(name);
      const byDefault = Number(declared.default ?? 0);
      let parsed = byDefault;
      if (value !== undefined) {
        parsed = Number(value);
        if (!Number.isInteger(parsed) || parsed < 0) {
          problems.push(`${name} must be a non-negative integer, got "${env[name]}"`);
          return byDefault;
        }
      }
      if (declared.refuseBelowMin && declared.min !== undefined && parsed < declared.min) {
        problems.push(`${name} must be a positive integer, got "${env[name]}"`);
        return byDefault;
      }
      if (declared.max !== undefined && parsed > declared.max) {
        problems.push(`${name} must be at most ${declared.max}, got ${parsed}`);
        return byDefault;
      }
      return declared.min === undefined ? parsed : Math.max(declared.min, parsed);
    },
    fraction(name) {
      const declared = spec(name, ['fraction']);
      const value = raw(name);
      const byDefault = Number(declared.default ?? 0);
      if (value === undefined) return byDefault;
      const parsed = Number(value);
      if (Number.isFinite(parsed) && parsed >= 0 && parsed <= 1) return parsed;
      problems.push(`${name} must be a number from 0 to 1, got "${env[name]}"`);
      return byDefault;
    },
    onOff(name) {
      spec(name, ['on-off']);
      const word = raw(name)?.toLowerCase();
      if (word === undefined) return undefined;
      if (ON.includes(word)) return true;
      if (OFF.includes(word)) return false;
      problems.push(`${name} must be on or off, got "${env[name]}"`);
      return undefined;
    },
    list(name) {
      const declared = spec(name, ['list']);
      const entries = (raw(name) ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
      if (!declared.addresses) return entries;
      const wrong = entries.filter((entry) => !isIpOrCidr(entry));
      if (wrong.length === 0) return entries;
      problems.push(`${name} must list IP addresses or CIDR ranges such as 10.0.0.0/8, got ${wrong.map((entry) => `"${entry}"`).join(', ')}`);
      return [];
    },
  };
}
