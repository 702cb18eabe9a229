/**
 * Validation that keeps the client's objects. zod's `safeParse` builds a new
 * copy of every object and array it accepts; a request body then lives twice
 * for the whole request, and the copying cost more than the checks
 * (bench/README.md). `parseAsIs` first walks the schema's definition over the
 * value without copying anything. When every node accepts and zod's answer
 * would equal the value itself (no key stripped, no transform, no default),
 * the value is the answer; in every other case, and whenever this walk is not
 * sure, zod parses as before, so errors and transformed answers are zod's own.
 *
 * The walk reads the schema's public definition (`_zod.def`) and runs zod's
 * own check functions, so a check means here what it means in zod. A node it
 * does not know answers "unsure". A transform is only taken as identity where
 * the schema's author said when it is one (`asIsWhen`).
 */
import type { z } from 'zod';

const ACCEPT = 0;
const REJECT = 1;
const UNSURE = 2;
type Verdict = typeof ACCEPT | typeof REJECT | typeof UNSURE;
type Acceptor = (value: unknown) => Verdict;

/** The zod internals read here; part of zod's documented definition objects. */
interface Internals {
  // biome-ignore lint/suspicious/noExplicitAny: zod's internal definition differs per schema kind; only the keys read here are typed
  def: Record<string, any> & { type: string; checks?: Check[] };
  traits?: Set<string>;
  optin?: 'optional' | 'defaulted';
  optout?: 'optional';
  values?: Set<unknown>;
}
interface Check {
  _zod: { def: { check: string; when?: (payload: Payload) => boolean }; check: (payload: Payload) => unknown };
}
interface Payload {
  value: unknown;
  issues: unknown[];
}
type Schema = { _zod: Internals };

const acceptors = new WeakMap<object, Acceptor>();
const identityTests = new WeakMap<object, (value: unknown) => boolean>();

/**
 * Declares when a schema that transforms (a pipe, a preprocess) hands its
 * input back unchanged: for such values the walk checks the pipe's stages
 * and treats its transforms as identity. Returns the schema.
 */
export function asIsWhen<S extends z.ZodType>(schema: S, isIdentity: (value: unknown) => boolean): S {
  identityTests.set(schema, isIdentity);
  return schema;
}

/**
 * `schema.safeParse(value, params)`, except that a value zod would accept
 * unchanged is answered as itself, without zod's copy.
 */
export function parseAsIs<S extends z.ZodType>(schema: S, value: unknown, params?: Parameters<S['safeParse']>[1]): z.ZodSafeParseResult<z.output<S>> {
  if (acceptorOf(schema as unknown as Schema)(value) === ACCEPT) return { success: true, data: value as z.output<S> };
  return schema.safeParse(value, params);
}

/** What the walk alone says of `value` (for tests: on `accept` zod answers `value` itself, on `reject` zod refuses it). */
export function asIsVerdict(schema: z.ZodType, value: unknown): 'accept' | 'reject' | 'unsure' {
  return (['accept', 'reject', 'unsure'] as const)[acceptorOf(schema as unknown as Schema)(value)];
}

function acceptorOf(schema: Schema): Acceptor {
  let acceptor = acceptors.get(schema);
  if (!acceptor) {
    // Set before building: a recursive schema (through `lazy`) finds itself.
    let built: Acceptor | undefined;
    acceptors.set(schema, (value) => built!(value));
    built = withChecks(schema, baseAcceptor(schema));
    acceptors.set(schema, built);
    acceptor = built;
  }
  return acceptor;
}

/** The schema's own checks (and the schema itself when it is a check, as `z.int()` is), run as zod runs them. */
function withChecks(schema: Schema, base: Acceptor): Acceptor {
  const internals = schema._zod;
  const own = internals.def.checks ?? [];
  const checks: Check[] = internals.traits?.has('$ZodCheck') ? [schema as unknown as Check, ...own] : [...own];
  if (checks.length === 0) return base;
  return (value) => {
    const verdict = base(value);
    if (verdict !== ACCEPT) return verdict;
    const payload: Payload = { value, issues: [] };
    for (const check of checks) {
      const when = check._zod.def.when;
      if (when && !when(payload)) continue;
      if (check._zod.check(payload) instanceof Promise) return UNSURE;
      if (payload.issues.length > 0) return REJECT;
    }
    // A check that rewrote the value (trim, overwrite) makes zod's answer differ from it.
    return payload.value === value ? ACCEPT : UNSURE;
  };
}

const unsure: Acceptor = () => UNSURE;
const acceptAll: Acceptor = () => ACCEPT;

function baseAcceptor(schema: Schema): Acceptor {
  const def = schema._zod.def;
  if (def.coerce) return unsure;
  switch (def.type) {
    case 'string':
      return (value) => (typeof value === 'string' ? ACCEPT : REJECT);
    case 'number':
      // Formats are checks (run by withChecks); zod refuses NaN and the infinities.
      return (value) => (typeof value === 'number' && Number.isFinite(value) ? ACCEPT : REJECT);
    case 'boolean':
      return (value) => (typeof value === 'boolean' ? ACCEPT : REJECT);
    case 'unknown':
    case 'any':
      return acceptAll;
    case 'literal':
    case 'enum': {
      const values = schema._zod.values;
      return values ? (value) => (values.has(value) ? ACCEPT : REJECT) : unsure;
    }
    case 'optional':
      return optionalAcceptor(def.innerType, undefined);
    case 'nullable':
      return optionalAcceptor(def.innerType, null);
    case 'array':
      return arrayAcceptor(def.element);
    case 'object':
      return objectAcceptor(def.shape, def.catchall);
    case 'record':
      return def.mode === 'loose' ? unsure : recordAcceptor(def.keyType, def.valueType);
    case 'union':
      if (def.discriminator !== undefined) return def.unionFallback ? unionAcceptor(def.options) : taggedAcceptor(def.discriminator, def.options);
      // An exclusive union (`z.xor`) fails when two options match: not followed here.
      return def.inclusive === false ? unsure : unionAcceptor(def.options);
    case 'lazy': {
      let inner: Acceptor | undefined;
      return (value) => (inner ??= acceptorOf(def.getter()))(value);
    }
    case 'pipe':
      return pipeAcceptor(schema);
    default:
      // transform, default, catch, custom, tuple, intersection…: zod decides.
      return unsure;
  }
}

function optionalAcceptor(inner: Schema, empty: undefined | null): Acceptor {
  const accepts = acceptorOf(inner);
  // An optional default fills in a missing value: zod's answer is then not the value.
  const fills = empty === undefined && inner._zod.optin === 'defaulted';
  return (value) => (value === empty ? (fills ? UNSURE : ACCEPT) : accepts(value));
}

function arrayAcceptor(element: Schema): Acceptor {
  const accepts = acceptorOf(element);
  return (value) => {
    if (!Array.isArray(value)) return REJECT;
    for (let i = 0; i < value.length; i++) {
      const verdict = accepts(value[i]);
      if (verdict !== ACCEPT) return verdict;
    }
    return ACCEPT;
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const hasOwn = (value: object, key: string) => Object.hasOwn(value, key);

function objectAcceptor(shape: Record<string, Schema>, catchall: Schema | undefined): Acceptor {
  const keys = Object.keys(shape);
  // zod tests presence with `in`: a declared key that every object inherits would not be judged the same way here.
  if (keys.some((key) => key in Object.prototype)) return unsure;
  const fields = keys.map((key) => ({ key, accepts: acceptorOf(shape[key]!), absentOk: shape[key]!._zod.optin === 'optional' && shape[key]!._zod.optout === 'optional', required: shape[key]!._zod.optin === undefined }));
  const known = new Set(keys);
  // Without a catchall zod strips unknown keys (its answer is then not the value); `never` refuses them; `unknown` keeps them.
  const extra = catchall === undefined ? 'strip' : catchall._zod.def.type === 'never' ? 'refuse' : catchall._zod.def.type === 'unknown' && !catchall._zod.def.checks?.length ? 'keep' : 'other';
  if (extra === 'other') return unsure;
  const byKey = new Map(fields.map((field) => [field.key, field]));
  const needed = fields.filter((field) => !field.absentOk).length;
  /**
   * The common answer first, walking the keys the value has rather than every
   * field the schema declares (a body sets a few of dozens): a plain object
   * whose every key is a field that accepts, with every field it may not
   * omit, is accepted. Anything else takes the full walk below, whose
   * verdicts are the reference. (Request bodies come from JSON: a plain
   * object's enumerable keys are all its keys.)
   */
  const acceptsAtOnce = (value: Record<string, unknown>): boolean => {
    let present = 0;
    for (const key in value) {
      const field = byKey.get(key);
      if (field === undefined) {
        if (extra === 'keep' && key !== '__proto__') continue;
        return false;
      }
      const item = value[key];
      if (item === undefined || field.accepts(item) !== ACCEPT) return false;
      if (!field.absentOk) present++;
    }
    return present === needed;
  };
  return (value) => {
    if (!isObject(value)) return REJECT;
    if (Object.getPrototypeOf(value) === Object.prototype && acceptsAtOnce(value)) return ACCEPT;
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!;
      const item = value[field.key];
      if (item === undefined) {
        if (hasOwn(value, field.key)) return UNSURE;
        if (field.absentOk) continue;
        return field.required ? REJECT : UNSURE;
      }
      const verdict = field.accepts(item);
      if (verdict !== ACCEPT) return verdict;
    }
    if (extra === 'keep') return hasOwn(value, '__proto__') ? UNSURE : ACCEPT;
    for (const key in value) if (!known.has(key)) return extra === 'refuse' ? REJECT : UNSURE;
    return ACCEPT;
  };
}

function recordAcceptor(keyType: Schema, valueType: Schema): Acceptor {
  // Only string keys: key schemas of other types (enums, numbers) change which keys zod reads and how.
  if (keyType._zod.def.type !== 'string') return unsure;
  const acceptsKey = keyType._zod.def.checks?.length ? acceptorOf(keyType) : undefined;
  const accepts = acceptorOf(valueType);
  return (value) => {
    if (!isObject(value)) return REJECT;
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return UNSURE;
    if (hasOwn(value, '__proto__')) return UNSURE;
    for (const key in value) {
      const verdict = acceptsKey === undefined ? accepts(value[key]) : worse(acceptsKey(key), accepts(value[key]));
      if (verdict !== ACCEPT) return verdict;
    }
    return ACCEPT;
  };
}

/** Either one refusing means zod refuses; otherwise either one unsure leaves it unsure. */
function worse(a: Verdict, b: Verdict): Verdict {
  return a === REJECT || b === REJECT ? REJECT : a === UNSURE || b === UNSURE ? UNSURE : ACCEPT;
}

/** zod answers with the first option that accepts; an unsure option before it leaves the answer unknown. */
function unionAcceptor(options: Schema[]): Acceptor {
  const accepts = options.map(acceptorOf);
  return (value) => {
    for (let i = 0; i < accepts.length; i++) {
      const verdict = accepts[i]!(value);
      if (verdict !== REJECT) return verdict;
    }
    return REJECT;
  };
}

/** A discriminated union reads its tag and answers with the one option that claims it, as zod does. */
function taggedAcceptor(tag: string, options: Schema[]): Acceptor {
  // Built at first use: an option's tag values may sit behind a lazy schema.
  let byTag: Map<unknown, Acceptor | null> | null | undefined;
  const build = () => {
    const table = new Map<unknown, Acceptor | null>();
    for (const option of options) {
      const values = (option._zod as { propValues?: Record<string, Set<unknown>> }).propValues?.[tag];
      if (!values) return undefined;
      // A tag two options claim is ambiguous: zod decides.
      for (const value of values) table.set(value, table.has(value) ? null : acceptorOf(option));
    }
    return table;
  };
  return (value) => {
    if (!isObject(value)) return REJECT;
    if (byTag === undefined) byTag = build() ?? null;
    const table = byTag;
    if (table === null) return UNSURE;
    const accepts = table.get(value[tag]);
    if (accepts === undefined) return REJECT;
    return accepts === null ? UNSURE : accepts(value);
  };
}

/**
 * A pipe passes its input's answer to its output. Where its author declared
 * when the pipe is identity, the stages are checked on the value itself and
 * its transforms pass it on; anywhere else zod decides.
 */
function pipeAcceptor(schema: Schema): Acceptor {
  const isIdentity = identityTests.get(schema);
  if (!isIdentity) return unsure;
  // The pipe's own checks are added by withChecks, as for any schema.
  const stages = [...identityStages(schema._zod.def.in), ...identityStages(schema._zod.def.out)];
  return (value) => {
    if (!isIdentity(value)) return UNSURE;
    for (let i = 0; i < stages.length; i++) {
      const verdict = stages[i]!(value);
      if (verdict !== ACCEPT) return verdict;
    }
    return ACCEPT;
  };
}

/** The stages of a pipe declared identity: its transforms pass the value on, its other schemas check it. */
function identityStages(schema: Schema): Acceptor[] {
  const def = schema._zod.def;
  if (def.type !== 'transform' && def.type !== 'pipe') return [acceptorOf(schema)];
  const stages = def.type === 'pipe' ? [...identityStages(def.in), ...identityStages(def.out)] : [];
  // Checks on a stage (a refine after a transform) see the value the stages passed on: this one.
  return def.checks?.length ? [...stages, withChecks(schema, acceptAll)] : stages;
}
