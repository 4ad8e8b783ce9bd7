/**
 * Next activation of a cron schedule after an instant, in an IANA time zone (UTC by default). The
 * search walks wall-clock time (field by field, skipping whole months, days and hours that cannot
 * match) and converts the match back to an instant with the zone's offset at that moment.
 */
import type { CronSchedule } from './cron-schedule.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** robfig/cron gives up after five years without a match (e.g. `0 0 30 2 *`). */
const SEARCH_YEARS = 5;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** True when the runtime knows the zone (`''` and `UTC` always). */
export function isValidTimeZone(zone: string | undefined): boolean {
  if (!zone) return true;
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

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

/** The zone's offset from UTC at `instant`, in ms (positive east of Greenwich). */
export function zoneOffsetMs(zone: string | undefined, instant: number): number {
  if (!zone || zone === 'UTC') return 0;
  const parts: Record<string, number> = {};
  for (const p of formatterFor(zone).formatToParts(new Date(instant))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** Wall-clock time (encoded as if it were UTC) to an instant; times in a DST gap move forward. */
function wallToInstant(zone: string | undefined, wall: number): number {
  const guess = wall - zoneOffsetMs(zone, wall);
  const offset = zoneOffsetMs(zone, guess);
  const instant = wall - offset;
  return zoneOffsetMs(zone, instant) === offset ? instant : guess;
}

/** The first activation strictly after `after` (ms since the epoch), or undefined within five years. */
export function nextActivation(schedule: CronSchedule, after: number, zone?: string): number | undefined {
  if (schedule.kind === 'every') return Math.floor(after / 1000) * 1000 + schedule.intervalMs;
  let wall = Math.floor((after + zoneOffsetMs(zone, after)) / MINUTE) * MINUTE + MINUTE;
  const limit = wall + SEARCH_YEARS * 366 * DAY;
  while (wall <= limit) {
    const d = new Date(wall);
    if (!schedule.month.has(d.getUTCMonth() + 1)) {
      wall = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    } else if (!dayMatches(schedule, d)) {
      wall = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
    } else if (!schedule.hour.has(d.getUTCHours())) {
      wall = Math.floor(wall / HOUR) * HOUR + HOUR;
    } else if (!schedule.minute.has(d.getUTCMinutes())) {
      wall += MINUTE;
    } else {
      const instant = wallToInstant(zone, wall);
      if (instant > after) return instant;
      wall += MINUTE; // the repeated hour after a DST fall-back: each wall time runs once
    }
  }
  return undefined;
}

function dayMatches(s: Extract<CronSchedule, { kind: 'fields' }>, d: Date): boolean {
  const dom = s.dayOfMonth.has(d.getUTCDate());
  const dow = s.dayOfWeek.has(d.getUTCDay());
  return s.dayOfMonthStar || s.dayOfWeekStar ? dom && dow : dom || dow;
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
