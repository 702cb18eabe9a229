/**
 * Hostile JSON values for the fuzz suite. Large values (huge strings, deep
 * nesting) are drawn as small recipes and built only when a request is sent,
 * so a failing counterexample prints in a line rather than a megabyte.
 */
import fc from 'fast-check';

/** A value to put into a request: plain JSON, or a recipe for a large one. */
export type Hostile = { json: unknown } | { huge: number; char: string } | { deep: number; kind: 'array' | 'object' } | { wide: number };

/** Strings that break naive code: lone surrogates, NUL and control characters, direction overrides, emoji, BOM. */
export const UNICODE_EDGES = [
  '\ud800',
  '\udfff',
  'a\ud83dz',
  '\u0000',
  'a\u0000b',
  '\u0001\u001f\u007f',
  '\u202eevil\u202c',
  '\u200f\u05e9\u05dc\u05d5\u05dd',
  '\ufeff',
  '\ufffe\uffff',
  '👩‍👩‍👧‍👦🏳️‍🌈',
  'e\u0301\u0301\u0301\u0301',
  '\u2028\u2029',
  '',
  ' ',
  '\t\r\n',
  '%00',
  '../../etc/passwd',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a hostile input that only looks like a template
  '${jndi:ldap://x}',
  "'; drop table request_logs; --",
  '{"a":1}',
  '<script>alert(1)</script>',
];

/** Numbers at and past the edges: the serialiser turns these into JSON number literals or strings. */
export const NUMBER_EDGES: unknown[] = [
  0,
  -0,
  -1,
  0.5,
  -0.5,
  1.5,
  1e308,
  -1e308,
  5e-324,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 63),
  2 ** 64,
  4294967296,
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '0x10',
  '1_000',
  ' 12 ',
  '',
  '-0',
  '00012',
];

/** Raw number literals JSON.parse reads but JSON.stringify never writes (1e999 parses to Infinity). */
export const RAW_NUMBER_LITERALS = ['1e999', '-1e999', '1e-999', '123456789012345678901234567890', '-0.0', '1E+2', '0.0000000000000000000001'];

const smallString = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom(...UNICODE_EDGES));

/** One wrong-typed or out-of-range replacement for a field. */
export const hostileValue: fc.Arbitrary<Hostile> = fc.oneof(
  fc.constantFrom<Hostile>({ json: null }, { json: true }, { json: false }, { json: [] }, { json: {} }, { json: [null] }, { json: [[]] }),
  fc.constantFrom(...NUMBER_EDGES).map((json): Hostile => ({ json })),
  fc.integer().map((json): Hostile => ({ json })),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((json): Hostile => ({ json })),
  smallString.map((json): Hostile => ({ json })),
  fc.array(smallString, { maxLength: 3 }).map((json): Hostile => ({ json })),
  fc.dictionary(smallString, smallString, { maxKeys: 3 }).map((json): Hostile => ({ json })),
  fc.record({ huge: fc.constantFrom(70_000, 300_000, 1_000_000), char: fc.constantFrom('x', '\u0000', '€', '\ud800', '😀') }),
  fc.record({ deep: fc.constantFrom(20, 126, 129, 600, 5_000), kind: fc.constantFrom('array' as const, 'object' as const) }),
  fc.record({ wide: fc.constantFrom(1_000, 20_000) }),
);

/**
 * Stands in for a deeply nested value until the body is serialised: walking
 * or stringifying thousands of levels would overflow the test's own stack.
 */
export const DEEP_MARKER = 'FUZZ_DEEP_VALUE_MARKER';

/** Builds the value a recipe describes (a deep one as DEEP_MARKER; see `serialize`). */
export function materialize(value: Hostile): unknown {
  if ('json' in value) return value.json;
  if ('huge' in value) return value.char.repeat(Math.ceil(value.huge / value.char.length));
  if ('wide' in value) return Array.from({ length: value.wide }, (_, i) => ({ i, s: 'w' }));
  return DEEP_MARKER;
}

/** The JSON text of a deep recipe. */
export function deepText(value: { deep: number; kind: 'array' | 'object' }): string {
  const [open, close] = value.kind === 'array' ? ['[', ']'] : ['{"a":', '}'];
  const empty = value.kind === 'array' ? '[]' : '{}';
  return open.repeat(value.deep - 1) + empty + close.repeat(value.deep - 1);
}

/** JSON text of a body holding at most one materialised recipe, with a deep one written in full. */
export function serialize(json: unknown, value?: Hostile): string {
  const text = JSON.stringify(json);
  return value && 'deep' in value ? text.replace(`"${DEEP_MARKER}"`, deepText(value)) : text;
}

/** A short label for a recipe, for reports. */
export function describeHostile(value: Hostile): string {
  if ('json' in value) return short(JSON.stringify(value.json) ?? String(value.json));
  if ('huge' in value) return `${JSON.stringify(value.char)} × ${value.huge}`;
  if ('wide' in value) return `array of ${value.wide} objects`;
  return `${value.kind} nested ${value.deep} deep`;
}

export function short(text: string, max = 300): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}
