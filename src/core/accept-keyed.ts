/**
 * The as-is walk over keyed values: objects against their declared shape and
 * records against their key and value schemas. The walk over a member comes
 * from `acceptorOf` (accept-as-is.ts), which builds and caches it.
 */
import { ACCEPT, hasOwn, isObject, REJECT, UNSURE, unsure, worse, type Acceptor, type Schema } from './accept-verdict.js';

type AcceptorOf = (schema: Schema) => Acceptor;

export function objectAcceptor(shape: Record<string, Schema>, catchall: Schema | undefined, acceptorOf: AcceptorOf): Acceptor {
  const keys = Object.keys(shape);
  // zod tests presence with `in`: a declared key that every object inherits would not be judged the same way here.
  if (keys.some((key) => key in Object.prototype)) return unsure;
  const fields = keys.map((key) => ({
    key,
    accepts: acceptorOf(shape[key]!),
    absentOk: shape[key]!._zod.optin === 'optional' && shape[key]!._zod.optout === 'optional',
    required: shape[key]!._zod.optin === undefined,
  }));
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

export function recordAcceptor(keyType: Schema, valueType: Schema, acceptorOf: AcceptorOf): Acceptor {
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
