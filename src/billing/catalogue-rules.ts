/**
 * The rules of @pydantic/genai-prices, said again here because the package
 * does not export them: how a model's `match` rule reads a name, how a dated
 * model id (`-20250929`) is tried again as the dashed date its ids use, and
 * which of a model's dated or time-of-day prices is in effect at an instant.
 * Each follows the package's own code (dist/index.js: `f`, `xe`, `we`);
 * test/billing/catalogue.test.ts holds them to the package's answers.
 */
import type { ConditionalPrice, MatchLogic, ModelInfo, ModelPrice as PackagePrice } from '@pydantic/genai-prices';

/** Whether `name` (already lower-cased, as the package lower-cases it) meets the rule. */
export function matchesRule(rule: MatchLogic, name: string): boolean {
  if ('or' in rule) return rule.or.some((part) => matchesRule(part, name));
  if ('and' in rule) return rule.and.every((part) => matchesRule(part, name));
  if ('equals' in rule) return name === rule.equals.toLowerCase();
  if ('starts_with' in rule) return name.startsWith(rule.starts_with.toLowerCase());
  if ('ends_with' in rule) return name.endsWith(rule.ends_with.toLowerCase());
  if ('contains' in rule) return name.includes(rule.contains.toLowerCase());
  if ('regex' in rule) return regexOf(rule.regex).test(name);
  return false;
}

const regexes = new Map<string, RegExp>();

function regexOf(source: string): RegExp {
  let regex = regexes.get(source);
  if (!regex) regexes.set(source, (regex = new RegExp(source)));
  return regex;
}

const COMPACT_DATE = /(-)(20\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?=-|:|$)/g;

/** `claude-sonnet-4-5-20250929` as `claude-sonnet-4-5-2025-09-29`, the second name the package tries; the name itself when it has no such date. */
export function withDashedDate(name: string): string {
  return name.replace(COMPACT_DATE, (whole, dash: string, year: string, month: string, day: string) => {
    const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
    const real = date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
    return real ? `${dash}${year}-${month}-${day}` : whole;
  });
}

/** The entry of a model's prices in effect at `at`: the last one whose constraint holds, else the first. */
export function priceInEffect(model: ModelInfo, at: Date): PackagePrice {
  if (!Array.isArray(model.prices)) return model.prices;
  const prices: ConditionalPrice[] = model.prices;
  for (let index = prices.length - 1; index >= 0; index--) {
    const entry = prices[index]!;
    const constraint = entry.constraint;
    if (constraint === undefined || constraint === null) return entry.prices;
    if (constraint.type === 'start_date') {
      if (at >= new Date(constraint.start_date)) return entry.prices;
    } else if (constraint.type === 'time_of_date') {
      const now = secondsOfDay(at);
      const start = timeOfDay(constraint.start_time);
      const end = timeOfDay(constraint.end_time);
      if (end < start ? now >= start || now < end : now >= start && now < end) return entry.prices;
    }
  }
  return prices[0]!.prices;
}

/**
 * The next instant after `at` when the price in effect may change (a dated
 * price starting, a time-of-day window opening or closing); undefined when
 * the model has one price for good.
 */
export function nextPriceChange(model: ModelInfo, at: Date): number | undefined {
  if (!Array.isArray(model.prices)) return undefined;
  let next = Infinity;
  const now = at.getTime();
  for (const { constraint } of model.prices as ConditionalPrice[]) {
    if (!constraint) continue;
    if (constraint.type === 'start_date') {
      const start = new Date(constraint.start_date).getTime();
      if (start > now) next = Math.min(next, start);
    } else if (constraint.type === 'time_of_date') {
      const midnight = now - (now % 86_400_000);
      for (const edge of [timeOfDay(constraint.start_time), timeOfDay(constraint.end_time)]) {
        const today = midnight + edge * 1000;
        next = Math.min(next, today > now ? today : today + 86_400_000);
      }
    }
  }
  return next === Infinity ? undefined : next;
}

function secondsOfDay(at: Date): number {
  return at.getUTCHours() * 3600 + at.getUTCMinutes() * 60 + at.getUTCSeconds() + at.getUTCMilliseconds() / 1000;
}

/** `HH:MM:SS[.fff](Z|±HH:MM)` as seconds after midnight UTC. */
function timeOfDay(text: string): number {
  const parts = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|([+-])(\d{2}):(\d{2}))$/.exec(text);
  if (!parts) throw new Error(`the price catalogue holds a time of day it cannot read: ${text}`);
  const [, hours, minutes, seconds, fraction = '', zone, sign, zoneHours = '00', zoneMinutes = '00'] = parts;
  const local = Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds) + Number(`0.${fraction}`);
  const offset = zone === 'Z' ? 0 : (sign === '+' ? 1 : -1) * (Number(zoneHours) * 60 + Number(zoneMinutes)) * 60;
  return (local - offset + 86_400) % 86_400;
}
