/**
 * IANA time zones through the runtime's Intl data: whether a zone is known, Go's time.LoadLocation
 * error wording, a zone's UTC offset at an instant and RFC 3339 formatting in a zone.
 */

const MINUTE = 60_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** True when the runtime knows the zone (`''` and `UTC` always; `Local` is not an IANA name). */
export function isValidTimeZone(zone: string | undefined): boolean {
  if (!zone) return true;
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

/** The LoadLocation error for `zone`, or undefined when the zone loads (`''`, `UTC` and `Local` always do). */
export function loadTimeZoneError(zone: string): string | undefined {
  if (zone === 'Local' || isValidTimeZone(zone)) return undefined;
  return `unknown time zone ${zone}`;
}

/** The zone's offset from UTC at `instant`, in ms (positive east of Greenwich). */
export function zoneOffsetMs(zone: string | undefined, instant: number): number {
  if (!zone || zone === 'UTC') return 0;
  const parts: Record<string, number> = {};
  for (const p of formatterFor(zone).formatToParts(new Date(instant))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** Go's time.RFC3339 of `instant` in `zone`: `2024-01-01T10:00:00Z` or `...T05:00:00-05:00`. */
export function formatRfc3339InZone(instant: number, zone?: string): string {
  const offset = zoneOffsetMs(zone, instant);
  const wall = new Date(Math.floor(instant / 1000) * 1000 + offset).toISOString().slice(0, 19);
  if (offset === 0) return `${wall}Z`;
  const abs = Math.abs(offset) / MINUTE;
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${wall}${offset < 0 ? '-' : '+'}${hh}:${mm}`;
}
