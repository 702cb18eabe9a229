import { describe, expect, it } from 'vitest';
import { isTimeZone, PeriodCursor, periodWindow } from '../../src/billing/budgets/periods.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('budget periods', () => {
  it('a daily period in New York runs from local midnight to local midnight', () => {
    const window = periodWindow('daily', 'America/New_York', at('2026-01-15T12:00:00Z'));
    expect(iso(window.start)).toBe('2026-01-15T05:00:00.000Z');
    expect(iso(window.end)).toBe('2026-01-16T05:00:00.000Z');
  });

  it('the day clocks spring forward is 23 hours long, the day they fall back 25', () => {
    const spring = periodWindow('daily', 'America/New_York', at('2026-03-08T12:00:00Z'));
    expect(iso(spring.start)).toBe('2026-03-08T05:00:00.000Z');
    expect(iso(spring.end)).toBe('2026-03-09T04:00:00.000Z');
    const fall = periodWindow('daily', 'America/New_York', at('2026-11-01T12:00:00Z'));
    expect(iso(fall.start)).toBe('2026-11-01T04:00:00.000Z');
    expect(iso(fall.end)).toBe('2026-11-02T05:00:00.000Z');
  });

  it('resets exactly at the local midnight after a DST change (the clock injected)', () => {
    let now = at('2026-03-08T12:00:00Z');
    const cursor = new PeriodCursor('daily', 'America/New_York');
    const first = cursor.current(now);
    now = at('2026-03-09T03:59:59.999Z');
    expect(cursor.current(now)).toBe(first);
    now = at('2026-03-09T04:00:00.000Z');
    const second = cursor.current(now);
    expect(second).not.toBe(first);
    expect(iso(second.start)).toBe('2026-03-09T04:00:00.000Z');
  });

  it('a day whose midnight is skipped starts when the clocks jump (Santiago, September)', () => {
    // Chile moves from -04 to -03 at local midnight on the first Sunday of September.
    const window = periodWindow('daily', 'America/Santiago', at('2026-09-06T12:00:00Z'));
    expect(iso(window.start)).toBe('2026-09-06T04:00:00.000Z');
    expect(iso(window.end)).toBe('2026-09-07T03:00:00.000Z');
  });

  it('weekly starts on Monday, monthly on the first, in the zone', () => {
    // Sunday 2026-03-15 23:30 in Tokyo is Monday already.
    const week = periodWindow('weekly', 'Asia/Tokyo', at('2026-03-15T15:30:00Z'));
    expect(iso(week.start)).toBe('2026-03-15T15:00:00.000Z');
    expect(iso(week.end)).toBe('2026-03-22T15:00:00.000Z');
    const sunday = periodWindow('weekly', 'UTC', at('2026-03-15T23:59:59Z'));
    expect(iso(sunday.start)).toBe('2026-03-09T00:00:00.000Z');
    const month = periodWindow('monthly', 'Europe/Paris', at('2026-03-31T22:30:00Z'));
    expect(iso(month.start)).toBe('2026-03-31T22:00:00.000Z');
    expect(iso(month.end)).toBe('2026-04-30T22:00:00.000Z');
    const december = periodWindow('monthly', 'UTC', at('2026-12-10T00:00:00Z'));
    expect(iso(december.end)).toBe('2027-01-01T00:00:00.000Z');
  });

  it('lifetime is one period; unknown zones are told apart', () => {
    expect(periodWindow('lifetime', 'UTC', Date.now())).toEqual({ start: 0, end: Number.POSITIVE_INFINITY });
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
