/**
 * A budget's period as an interval of instants, `[start, end)`: the local
 * day, ISO week (Monday first) or calendar month of an IANA time zone, or
 * the whole of time for `lifetime`. Local midnights are turned into instants
 * with the zone's offsets from Intl.DateTimeFormat, so a day across a DST
 * change is 23 or 25 hours long. `PeriodCursor` keeps the current window and
 * does the date math only when the clock passes its end.
 */
import { zoneFormatter } from '../../core/time-zones.js';
import type { BudgetPeriod } from '../../storage/budget-types.js';

export { isTimeZone } from '../../core/time-zones.js';

export interface PeriodWindow {
  /** Epoch ms; 0 for a lifetime budget (its one period). */
  readonly start: number;
  /** Epoch ms, exclusive; Infinity for a lifetime budget. */
  readonly end: number;
}

const LIFETIME: PeriodWindow = { start: 0, end: Number.POSITIVE_INFINITY };
const DAY_MS = 86_400_000;

/** The wall-clock time in the zone at `instant`, as if it were UTC (epoch ms). */
function localWallTime(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of zoneFormatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) + (((instant % 1000) + 1000) % 1000);
}

/**
 * The first instant whose local date is `wall`'s date (`wall` a local midnight
 * written as UTC): that midnight, or the end of a DST gap that skipped it.
 */
function startOfLocalDay(wall: number, timeZone: string): number {
  let instant = wall - (localWallTime(wall, timeZone) - wall);
  instant = wall - (localWallTime(instant, timeZone) - instant);
  if (localWallTime(instant, timeZone) === wall) return instant;
  // Midnight does not exist that day: find the gap's end, the first instant at or after the local date.
  let low = instant - 3 * 3_600_000;
  let high = instant + 3 * 3_600_000;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (localWallTime(middle, timeZone) >= wall) high = middle;
    else low = middle;
  }
  return high;
}

/** The period of `period` in `timeZone` that holds `instant`. */
export function periodWindow(period: BudgetPeriod, timeZone: string, instant: number): PeriodWindow {
  if (period === 'lifetime') return LIFETIME;
  const local = new Date(localWallTime(instant, timeZone));
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth();
  const day = local.getUTCDate();
  let first: number;
  let next: number;
  if (period === 'daily') {
    first = Date.UTC(year, month, day);
    next = Date.UTC(year, month, day + 1);
  } else if (period === 'weekly') {
    // getUTCDay: Sunday 0; ISO weeks start on Monday.
    const sinceMonday = (local.getUTCDay() + 6) % 7;
    first = Date.UTC(year, month, day - sinceMonday);
    next = first + 7 * DAY_MS;
  } else {
    first = Date.UTC(year, month, 1);
    next = Date.UTC(year, month + 1, 1);
  }
  return { start: startOfLocalDay(first, timeZone), end: startOfLocalDay(next, timeZone) };
}

/**
 * The current window of one (period, zone), shared by every budget of that
 * pair: reading it is a comparison until the clock reaches its end.
 */
export class PeriodCursor {
  private window: PeriodWindow = { start: 0, end: Number.NEGATIVE_INFINITY };

  constructor(
    readonly period: BudgetPeriod,
    readonly timeZone: string,
  ) {}

  current(now: number): PeriodWindow {
    if (now >= this.window.end || now < this.window.start) this.window = periodWindow(this.period, this.timeZone, now);
    return this.window;
  }
}

/** The cursors of an index, one per (period, zone) pair, made on first use. */
export class PeriodCursors {
  private readonly cursors = new Map<string, PeriodCursor>();

  of(period: BudgetPeriod, timeZone: string): PeriodCursor {
    const name = `${period} ${timeZone}`;
    let cursor = this.cursors.get(name);
    if (!cursor) {
      cursor = new PeriodCursor(period, timeZone);
      this.cursors.set(name, cursor);
    }
    return cursor;
  }
}
