/** IANA time zone lookups in the words of Go's time.LoadLocation. */

/** The LoadLocation error for `zone`, or undefined when the zone loads (`UTC` and `Local` always do). */
export function loadTimeZoneError(zone: string): string | undefined {
  if (zone === '' || zone === 'UTC' || zone === 'Local') return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return undefined;
  } catch {
    return `unknown time zone ${zone}`;
  }
}
