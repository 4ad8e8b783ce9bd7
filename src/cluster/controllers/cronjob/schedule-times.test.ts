import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCronSchedule } from '../../../machinery/cron.js';
import { delayUntilNext, isTooLate, jobNameFor, mostRecentScheduleTime, type ScheduleInput } from './schedule-times.js';

const at = (iso: string) => Date.parse(iso);
const everyFive: ScheduleInput = { schedule: parseCronSchedule('*/5 * * * *'), createdAt: at('2024-01-01T00:00:00Z') };

describe('mostRecentScheduleTime', () => {
  test('nothing due before the first activation', () => {
    const r = mostRecentScheduleTime(everyFive, at('2024-01-01T00:04:59Z'));
    assert.equal(r.scheduled, undefined);
    assert.equal(r.missed, 0);
  });

  test('the activation itself is due at its minute', () => {
    const r = mostRecentScheduleTime(everyFive, at('2024-01-01T00:05:00Z'));
    assert.equal(r.scheduled, at('2024-01-01T00:05:00Z'));
    assert.equal(r.missed, 1);
  });

  test('after several misses, the latest one is due', () => {
    const r = mostRecentScheduleTime({ ...everyFive, lastScheduleTime: at('2024-01-01T00:05:00Z') }, at('2024-01-01T00:17:00Z'));
    assert.equal(r.scheduled, at('2024-01-01T00:15:00Z'));
    assert.equal(r.missed, 2);
  });

  test('the starting deadline bounds how far back it looks', () => {
    const input = { ...everyFive, startingDeadlineSeconds: 60 };
    assert.equal(mostRecentScheduleTime(input, at('2024-01-01T00:17:00Z')).scheduled, undefined);
    assert.equal(mostRecentScheduleTime(input, at('2024-01-01T00:15:30Z')).scheduled, at('2024-01-01T00:15:00Z'));
  });

  test('many missed activations: counted up to the cap, latest found', () => {
    const r = mostRecentScheduleTime({ ...everyFive, schedule: parseCronSchedule('* * * * *') }, at('2024-01-03T07:42:10Z'));
    assert.equal(r.missed, 101);
    assert.equal(r.scheduled, at('2024-01-03T07:42:00Z'));
  });
});

test('delayUntilNext waits for the next activation plus 100 ms', () => {
  assert.equal(delayUntilNext(everyFive, at('2024-01-01T00:03:00Z')), 2 * 60_000 + 100);
  assert.equal(delayUntilNext({ ...everyFive, lastScheduleTime: at('2024-01-01T00:05:00Z') }, at('2024-01-01T00:05:01Z')), 299_000 + 100);
});

test('isTooLate compares with the starting deadline', () => {
  assert.equal(isTooLate(at('2024-01-01T00:05:00Z'), at('2024-01-01T00:06:00Z'), 30), true);
  assert.equal(isTooLate(at('2024-01-01T00:05:00Z'), at('2024-01-01T00:05:20Z'), 30), false);
  assert.equal(isTooLate(at('2024-01-01T00:05:00Z'), at('2030-01-01T00:00:00Z'), undefined), false);
});

test('jobNameFor uses minutes since the epoch', () => {
  assert.equal(jobNameFor('backup', at('2024-01-01T00:05:00Z')), 'backup-28401125');
});

test('delayUntilNext for @every counts from the last activation', () => {
  const every: ScheduleInput = { schedule: parseCronSchedule('@every 10m'), createdAt: at('2024-01-01T00:00:00Z'), lastScheduleTime: at('2024-01-01T00:10:00Z') };
  assert.equal(delayUntilNext(every, at('2024-01-01T00:12:00Z')), 8 * 60_000 + 100);
});
