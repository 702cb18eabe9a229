/**
 * What every answer must satisfy, as checks that return the problem found (or
 * nothing): a status below 500, an error body in the family's own shape
 * (src/families/<family>/errors.ts, the admin API's `{error: {type,
 * message}}`), and no engine or runtime text anywhere in the body.
 */
import type { FuzzResponse } from './http.js';

export type ErrorShape = 'messages' | 'openai' | 'google' | 'images' | 'videos' | 'generations' | 'admin';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const stringOrNull = (value: unknown) => value === null || isString(value);

/** Each shape's check of a parsed error body; `status` is the HTTP status it came with. */
const SHAPES: Record<ErrorShape, (body: unknown, status: number) => string | undefined> = {
  messages: (body) => {
    if (!isObject(body) || body.type !== 'error' || !isObject(body.error)) return 'not {type:"error", error:{…}}';
    if (!isString(body.error.type) || !isString(body.error.message)) return 'error.type or error.message is not a string';
    return undefined;
  },
  openai: (body) => {
    if (!isObject(body) || !isObject(body.error)) return 'not {error:{…}}';
    const { message, type, param, code } = body.error;
    if (!isString(message) || !isString(type)) return 'error.message or error.type is not a string';
    if (!('param' in body.error) || !stringOrNull(param)) return 'error.param is missing or not a string or null';
    if (!('code' in body.error) || !stringOrNull(code)) return 'error.code is missing or not a string or null';
    return undefined;
  },
  google: (body, status) => {
    if (!isObject(body) || !isObject(body.error)) return 'not {error:{…}}';
    const { code, message, status: word } = body.error;
    if (code !== status) return `error.code ${String(code)} is not the HTTP status ${status}`;
    if (!isString(message) || !isString(word) || !/^[A-Z_]+$/.test(word)) return 'error.message or error.status is not as the dialect defines';
    return undefined;
  },
  images: (body) => {
    if (!isObject(body) || typeof body.code !== 'number' || !isString(body.description)) return 'not {code, description, result}';
    if (body.result !== null) return 'result is not null';
    return undefined;
  },
  videos: (body) => {
    if (!isObject(body) || !isObject(body.error)) return 'not {error:{…}}';
    const { message, type, param, code } = body.error;
    if (!isString(message) || !isString(type) || !stringOrNull(param) || code !== null) return 'not {message, type, param, code: null}';
    return undefined;
  },
  generations: (body) => {
    if (!isObject(body) || body.code !== null || !isString(body.message) || !isString(body.param) || !isString(body.type)) {
      return 'not {code: null, message, param, type}';
    }
    return undefined;
  },
  admin: (body) => {
    if (!isObject(body) || !isObject(body.error) || !isString(body.error.type) || !isString(body.error.message)) return 'not {error:{type, message}}';
    return undefined;
  },
};

/**
 * Text that only an engine, a runtime or a stack trace would write. The fuzz
 * inputs never contain these words, so finding one means internals leaked.
 */
export const LEAK_PATTERNS: RegExp[] = [
  // SQLite's error codes, not the gateway's own setting SWITCHYARD_SQLITE_CACHE_MB (listed by /admin/settings).
  /(?<!SWITCHYARD_)SQLITE_/,
  /syntax error/i,
  /row value misused/i,
  /operator does not exist/i,
  /invalid byte sequence/i,
  /violates .* constraint/i,
  /relation "[^"]*" does not exist/i,
  /Maximum call stack/i,
  /RangeError/,
  /TypeError/,
  /ReferenceError/,
  /SyntaxError/,
  /Cannot read propert/i,
  /is not a function/,
  /\bat (?:Object\.|async |new |process\.)/,
  /node_modules/,
  /\.(?:ts|js|mjs):\d+:\d+/,
  /ECONNREFUSED|ECONNRESET|EPIPE/,
  /Invalid string length/,
];

/** The problems with one answer; empty when it satisfies every property. */
export function answerProblems(response: FuzzResponse, shape: ErrorShape): string[] {
  const problems: string[] = [];
  if (response.status >= 500) problems.push(`5xx: status ${response.status}`);
  for (const pattern of LEAK_PATTERNS) {
    if (pattern.test(response.text)) problems.push(`leak: body matches ${pattern}`);
  }
  if (response.status >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      problems.push(`shape: ${response.status} body is not JSON: ${JSON.stringify(response.text.slice(0, 120))}`);
      return problems;
    }
    const problem = SHAPES[shape](body, response.status);
    if (problem) problems.push(`shape: not the ${shape} error shape (${problem}): ${JSON.stringify(body).slice(0, 200)}`);
  }
  return problems;
}
