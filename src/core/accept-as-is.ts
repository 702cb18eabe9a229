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
import { ACCEPT, acceptAll, isObject, REJECT, UNSURE, unsure, type Acceptor, type Check, type Payload, type Schema } from './accept-verdict.js';
import { objectAcceptor, recordAcceptor } from './accept-keyed.js';

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
      return objectAcceptor(def.shape, def.catchall, acceptorOf);
    case 'record':
      return def.mode === 'loose' ? unsure : recordAcceptor(def.keyType, def.valueType, acceptorOf);
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
