/**
 * The building blocks the generators apply to a base request: walking and
 * editing a JSON body by path, malformed JSON text, multipart bodies (well
 * and badly formed), and the lists of odd path segments, query strings and
 * credentials that the generators draw from.
 */
import { PNG_BASE64 } from './bases.js';

export type JsonPath = Array<string | number>;

/** Every path into a JSON value (objects and arrays, and their leaves), root excluded. */
export function pathsOf(value: unknown, prefix: JsonPath = []): JsonPath[] {
  if (typeof value !== 'object' || value === null) return [];
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...pathsOf(child, [...prefix, key])]);
}

/** Paths to the objects (not arrays) in a JSON value, root included. */
export function objectPathsOf(value: unknown): JsonPath[] {
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  return [[], ...pathsOf(value)].filter((path) => isObject(getAt(value, path)));
}

export function getAt(value: unknown, path: JsonPath): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)?.[key], value);
}

/** A copy of `value` with the node at `path` replaced (or removed, for `undefined`). */
export function withAt(value: unknown, path: JsonPath, replacement: unknown): unknown {
  const copy = structuredClone(value);
  if (path.length === 0) return replacement;
  const parent = getAt(copy, path.slice(0, -1)) as Record<string | number, unknown> | unknown[];
  const key = path[path.length - 1];
  if (replacement === undefined) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key as string];
  } else {
    (parent as Record<string | number, unknown>)[key] = replacement;
  }
  return copy;
}

export const dotted = (path: JsonPath) => path.join('.');

/** JSON text that is broken in one way or another. */
export const MALFORMED_JSON = ['truncate', 'garbage', 'bom', 'empty', 'whitespace', 'single-quotes', 'literal', 'duplicate-keys', 'not-object', 'invalid-utf8', 'nul'] as const;
export type MalformedJson = (typeof MALFORMED_JSON)[number];

const LITERALS = ['NaN', 'Infinity', '-Infinity', 'undefined', '1e999', '-1e999', '123456789012345678901234567890', '0x10', "'single'", '.5', '+1'];
const NOT_OBJECTS = ['null', '[]', '[{}]', '"text"', '42', 'true', '""', '[' + '1,'.repeat(1000) + '1]'];

export function malformedJson(text: string, variant: MalformedJson, pick: number): string | Buffer {
  switch (variant) {
    case 'truncate':
      return text.slice(0, pick % Math.max(1, text.length));
    case 'garbage':
      return text + ['}', ']', ',', 'garbage', '{}', '\u0000', '\n{"a":1}'][pick % 7];
    case 'bom':
      return '\ufeff' + text;
    case 'empty':
      return '';
    case 'whitespace':
      return [' ', '\n\n', '\t \r\n'][pick % 3];
    case 'single-quotes':
      return text.replace(/"/g, "'");
    case 'literal': {
      // A number-typed leaf becomes a literal JSON forbids or stretches.
      const literal = LITERALS[pick % LITERALS.length];
      return text.replace(/:(-?\d+(?:\.\d+)?)([,}\]])/, `:${literal}$2`);
    }
    case 'duplicate-keys':
      return text.replace(/^\{/, '{"model":1,"messages":null,"input":{},"prompt":[],');
    case 'not-object':
      return NOT_OBJECTS[pick % NOT_OBJECTS.length];
    case 'invalid-utf8':
      return Buffer.concat([Buffer.from(text.slice(0, -1)), Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xff, 0xfe]), Buffer.from(text.slice(-1))]);
    case 'nul':
      return text.replace(/:"/, ':"\u0000');
  }
}

/** JSON keys that reach for an object's prototype, with what they carry. */
export const POLLUTION = [
  '"__proto__":{"polluted":"yes","isAdmin":true}',
  '"constructor":{"prototype":{"polluted":"yes"}}',
  '"prototype":{"polluted":"yes"}',
  '"__proto__":null',
  '"__proto__":"yes"',
  '"__proto__":[{"polluted":"yes"}]',
  '"hasOwnProperty":"yes"',
  '"toString":1',
  '"valueOf":{}',
  '"__defineGetter__":"yes"',
];

/**
 * Values that cannot be media: broken base64, data URLs of the wrong type or
 * none at all. (A truncated image of the declared type is not here: the
 * gateway checks base64 and the leading bytes, not the whole image; the
 * upstream refuses a broken one.)
 */
export const BAD_MEDIA = [
  '!!!not base64!!!',
  'data:image/png;base64,@@@@',
  'data:image/png;base64,',
  'data:text/plain;base64,aGVsbG8=',
  'data:;base64,aGVsbG8=',
  'data:image/png,rawtext',
  'data:image/png;base64,' + 'A'.repeat(5),
  `data:image/jpeg;base64,${PNG_BASE64}`,
  Buffer.from('not an image at all').toString('base64'),
  PNG_BASE64 + '====',
  '\u0000' + PNG_BASE64,
  'data:image/png;base64,' + '\ud800',
  'http://169.254.169.254/latest/meta-data/',
  'file:///etc/passwd',
  '',
];

export interface FormPart {
  name?: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

export function formBody(parts: FormPart[], boundary: string, eol = '\r\n'): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.name === undefined ? 'form-data' : `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const head = [`--${boundary}`, `content-disposition: ${disposition}`, ...(part.contentType ? [`content-type: ${part.contentType}`] : []), '', ''];
    chunks.push(Buffer.from(head.join(eol)), Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value), Buffer.from(eol));
  }
  chunks.push(Buffer.from(`--${boundary}--${eol}`));
  return Buffer.concat(chunks);
}

export const MULTIPART = [
  'valid',
  'no-boundary',
  'empty-boundary',
  'mismatched-boundary',
  'cut',
  'no-final-boundary',
  'lf-only',
  'duplicate-field',
  'file-under-field',
  'garbage-file',
  'png-file',
  'no-disposition-name',
  'many-parts',
  'huge-field',
  'unknown-field',
  'long-boundary',
  'mixed',
  'invalid-utf8',
  'field-value',
] as const;
export type MultipartVariant = (typeof MULTIPART)[number];

/** Odd values for a path segment, as they go on the wire (already percent-encoded where needed). */
export const ODD_SEGMENTS = [
  '%00',
  'a%00b',
  '..%2f..%2fetc%2fpasswd',
  '%2e%2e',
  '..',
  '.',
  '%20',
  encodeURIComponent('日本語😀'),
  encodeURIComponent('\u202eevil'),
  '-1',
  '0',
  '99999999999999999999999999',
  '1e308',
  'NaN',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'a'.repeat(100),
  '%0d%0aX-Injected:%201',
  ';x=y',
  '%3Fq%3D1',
  '%23frag',
  '*',
  '%25',
  "'%20or%201=1--",
];

/** Segments the HTTP router itself judges: longer than it takes, or not a valid URL (bad percent-encoding, raw latin-1 bytes). */
export const OVERLONG_SEGMENTS = ['a'.repeat(101), 'a'.repeat(128), 'a'.repeat(129), 'b'.repeat(5000)];
export const MALFORMED_SEGMENTS = ['%zz', '%', 'a%', '%e0%a4', '%ff', '%c0%af', '%ed%a0%80', 'caf\u00e9'];

export const QUERY_VARIANTS = ['repeated', 'array', 'nested', 'huge-number', 'negative', 'float', 'nan', 'empty', 'bare', 'long', 'nul', 'unicode', 'many', 'unknown', 'pollution'] as const;
export type QueryVariant = (typeof QUERY_VARIANTS)[number];

export const BAD_PERCENT_QUERY = ['x=%zz', 'x=%', '%zz=1', 'x=%ff%fe', 'x=%c0%af'];

/** Odd values for one query parameter named `name`, as query-string text. */
export function oddQuery(name: string, variant: QueryVariant, pick: number): string {
  const n = encodeURIComponent(name);
  switch (variant) {
    case 'repeated':
      return `${n}=1&${n}=2`;
    case 'array':
      return `${n}[]=1&${n}[]=2`;
    case 'nested':
      return `${n}[a][b]=1`;
    case 'huge-number':
      return `${n}=${['1e308', '99999999999999999999999', '1e999', String(2 ** 64)][pick % 4]}`;
    case 'negative':
      return `${n}=-1`;
    case 'float':
      return `${n}=0.5`;
    case 'nan':
      return `${n}=${['NaN', 'Infinity', '0x10', 'abc', ' 5 '][pick % 5].replace(/ /g, '%20')}`;
    case 'empty':
      return `${n}=`;
    case 'bare':
      return n;
    case 'long':
      return `${n}=${'q'.repeat(5000)}`;
    case 'nul':
      return `${n}=%00`;
    case 'unicode':
      return `${n}=${encodeURIComponent(['日本語😀', '\u202e', '\u0000x', '\ufeff'][pick % 4])}`;
    case 'many':
      return Array.from({ length: 1000 }, (_, i) => `p${i}=${i}`).join('&');
    case 'unknown':
      return `${encodeURIComponent(['x', 'limit', 'debug', 'key', 'alt'][pick % 5])}=${['1', 'true', 'sse', ''][pick % 4]}`;
    case 'pollution':
      return ['__proto__[polluted]=yes', 'constructor[prototype][polluted]=yes', '__proto__=x', 'prototype=1'][pick % 4];
  }
}
