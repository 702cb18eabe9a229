/** A sample string for a JSON Schema: its format, the caller's hint if it fits, else a filler fitted to length and pattern. */
import type { JsonSchema } from '../../../core/chat.js';
import { compilePattern, samplePattern } from './sample-pattern.js';
import { codePoints, numberOf, type SampleContext } from './schema-values.js';

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '12:00:00Z',
  duration: 'P1D',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  iri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  'iri-reference': 'https://example.com/',
  uuid: '123e4567-e89b-42d3-a456-426614174000',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
};

export function sampleString(s: JsonSchema, ctx: SampleContext, variant: number): string {
  const format = typeof s.format === 'string' ? FORMAT_SAMPLES[s.format.toLowerCase()] : undefined;
  if (format !== undefined) return format;
  const min = numberOf(s.minLength) ?? 0;
  const max = numberOf(s.maxLength) ?? Infinity;
  const regex = typeof s.pattern === 'string' ? compilePattern(s.pattern) : undefined;
  const fits = (value: string) => {
    const length = codePoints(value);
    return length >= min && length <= max && (regex === undefined || regex.test(value));
  };
  if (ctx.hint !== undefined && fits(ctx.hint)) {
    const hint = ctx.hint;
    ctx.hint = undefined;
    return hint;
  }
  const base = variant === 0 ? 'sample' : `sample ${variant + 1}`;
  if (typeof s.pattern !== 'string') return fitLength(base, min, max);
  for (const stretch of [0, 1, 2, 4, 8, 16, 32, 64, 128]) {
    const candidate = samplePattern(s.pattern, stretch + variant);
    if (candidate !== undefined && fits(candidate)) return candidate;
  }
  return samplePattern(s.pattern, variant) ?? fitLength(base, min, max);
}

function fitLength(base: string, min: number, max: number): string {
  const cut = base.length > max ? base.slice(0, Math.max(0, max)) : base;
  return cut.length < min ? cut.padEnd(min, 'x') : cut;
}
