/**
 * IANA time zones through Intl: one formatter per zone (building one costs
 * far more than using it), and whether a name is a zone Intl knows.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Formats an instant as numeric year, month, day, hour (00-23), minute, second in the zone; throws for an unknown zone. */
export function zoneFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether Intl knows the zone (an IANA name such as `Europe/Paris`, or `UTC`). */
export function isTimeZone(timeZone: string): boolean {
  try {
    zoneFormatter(timeZone);
    return true;
  } catch {
    return false;
  }
}
