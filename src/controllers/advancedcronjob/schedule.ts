/**
 * When an AdvancedCronJob fires (docs/design/jobs.md §4): the schedule read with its zone (a `TZ=`
 * or `CRON_TZ=` prefix as written, else spec.timeZone, else the manager's local zone), the most
 * recent fire time missed in (earliest, now] and the next one. Pure functions of times in ms.
 */
import { parseStandardSchedule, type CronSchedule } from '../../machinery/cron.js';
import { nextActivation } from '../../machinery/cron-next.js';
import { isValidTimeZone } from '../../machinery/time-zone.js';

/** More missed fire times than this and upstream stops scheduling (an error, no requeue). */
export const maxMissedRuns = 100;

export interface ZonedSchedule {
  schedule: CronSchedule;
  zone?: string;
}

/** The manager's own zone, used when neither the schedule nor spec.timeZone names one (robfig's time.Local). */
export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Parses the schedule as upstream builds it: a `TZ` in the schedule wins; else a loadable timeZone is prefixed. */
export function readSchedule(schedule: string, timeZone: string | undefined): ZonedSchedule {
  const withZone = !schedule.includes('TZ') && timeZone && isValidTimeZone(timeZone) ? `TZ=${timeZone} ${schedule}` : schedule;
  const parsed = parseStandardSchedule(withZone);
  const zone = parsed.timeZone === 'Local' ? localZone() : parsed.timeZone ?? localZone();
  return { schedule: parsed.schedule, zone };
}

export interface Due {
  /** The latest fire time in (earliest, now], if any. */
  missed?: number;
  /** The first fire time after now. */
  next?: number;
  /** More than maxMissedRuns fire times were missed. */
  tooMany: boolean;
}

export function dueRuns(s: ZonedSchedule, earliest: number, now: number): Due {
  const next = nextActivation(s.schedule, now, s.zone);
  if (earliest > now) return { next, tooMany: false };
  let missed: number | undefined;
  let count = 0;
  for (let t = nextActivation(s.schedule, earliest, s.zone); t !== undefined && t <= now; t = nextActivation(s.schedule, t, s.zone)) {
    missed = t;
    if (++count > maxMissedRuns) return { next, tooMany: true };
  }
  return { missed, next, tooMany: false };
}

/** The search starts at the last scheduled run (or creation), raised to now − startingDeadlineSeconds. */
export function earliestTime(lastScheduleTime: number | undefined, createdAt: number, now: number, startingDeadlineSeconds: number | undefined): number {
  const earliest = lastScheduleTime ?? createdAt;
  return startingDeadlineSeconds === undefined ? earliest : Math.max(earliest, now - startingDeadlineSeconds * 1000);
}

/** A missed run older than startingDeadlineSeconds is skipped. */
export function tooLate(missed: number, now: number, startingDeadlineSeconds: number | undefined): boolean {
  return startingDeadlineSeconds !== undefined && missed + startingDeadlineSeconds * 1000 < now;
}
