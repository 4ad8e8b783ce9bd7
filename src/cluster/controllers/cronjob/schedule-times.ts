/**
 * When a CronJob should have started a Job: the most recent missed activation (bounded by the
 * starting deadline), how many were missed, and how long until the next one. Pure functions of the
 * CronJob's times and `now`, so the arithmetic is tested without a cluster.
 */
import type { CronSchedule } from '../../../machinery/cron.js';
import { nextActivation } from '../../../machinery/cron-next.js';

export interface ScheduleInput {
  schedule: CronSchedule;
  timeZone?: string;
  /** metadata.creationTimestamp in ms. */
  createdAt: number;
  /** status.lastScheduleTime in ms, if any. */
  lastScheduleTime?: number;
  startingDeadlineSeconds?: number;
}

export interface MostRecent {
  /** The latest activation at or before `now` not yet started, if any. */
  scheduled?: number;
  /** How many activations fell between the earliest time considered and `now` (capped). */
  missed: number;
  /** The time the search started from (last schedule, creation, or the deadline bound). */
  earliest: number;
}

/** Upstream warns (TooManyMissedTimes) past this many missed starts. */
export const tooManyMissed = 100;
const countCap = tooManyMissed + 1;

function earliestTime(input: ScheduleInput, now: number, useDeadline: boolean): number {
  let earliest = input.lastScheduleTime ?? input.createdAt;
  if (useDeadline && input.startingDeadlineSeconds !== undefined) {
    earliest = Math.max(earliest, now - input.startingDeadlineSeconds * 1000);
  }
  return earliest;
}

/** The most recent unmet activation in (earliest, now]; counts misses up to 101. */
export function mostRecentScheduleTime(input: ScheduleInput, now: number, useDeadline = true): MostRecent {
  const earliest = earliestTime(input, now, useDeadline);
  let scheduled: number | undefined;
  let missed = 0;
  for (let t = nextActivation(input.schedule, earliest, input.timeZone); t !== undefined && t <= now;) {
    scheduled = t;
    missed++;
    const next = nextActivation(input.schedule, t, input.timeZone);
    if (missed >= countCap && next !== undefined && next <= now) {
      // Jump to the last activation before now without walking each one (fixed-interval estimate first).
      scheduled = lastActivationBefore(input, t, now);
      break;
    }
    t = next;
  }
  return { scheduled, missed, earliest };
}

/** The last activation <= now, searching backwards from `now` in growing windows. */
function lastActivationBefore(input: ScheduleInput, from: number, now: number): number {
  for (let window = 60_000; ; window *= 2) {
    const start = Math.max(from, now - window);
    let last: number | undefined;
    for (let t = nextActivation(input.schedule, start - 1, input.timeZone); t !== undefined && t <= now; t = nextActivation(input.schedule, t, input.timeZone)) last = t;
    if (last !== undefined || start === from) return last ?? from;
  }
}

/** Milliseconds until the activation after the most recent one (plus upstream's 100 ms slack). */
export function delayUntilNext(input: ScheduleInput, now: number): number | undefined {
  const recent = mostRecentScheduleTime(input, now, false);
  const from = recent.scheduled ?? recent.earliest;
  const next = nextActivation(input.schedule, from, input.timeZone);
  if (next === undefined) return undefined;
  return Math.max(0, next - now) + 100;
}

/** True when the activation is older than the starting deadline allows. */
export function isTooLate(scheduled: number, now: number, startingDeadlineSeconds: number | undefined): boolean {
  return startingDeadlineSeconds !== undefined && scheduled + startingDeadlineSeconds * 1000 < now;
}

/** `<cronjob>-<minutes since the epoch>`: one name per activation, so a retry cannot start it twice. */
export function jobNameFor(cronJobName: string, scheduled: number): string {
  return `${cronJobName}-${Math.floor(scheduled / 60_000)}`;
}
