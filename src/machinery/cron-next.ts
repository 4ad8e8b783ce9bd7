/**
 * Next activation of a cron schedule after an instant, in an IANA time zone (UTC by default). The
 * search walks wall-clock time (field by field, skipping whole months, days and hours that cannot
 * match) and converts the match back to an instant with the zone's offset at that moment.
 */
import type { CronSchedule } from './cron.js';
import { zoneOffsetMs } from './time-zone.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** robfig/cron gives up after five years without a match (e.g. `0 0 30 2 *`). */
const SEARCH_YEARS = 5;

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
