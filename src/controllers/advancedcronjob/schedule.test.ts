import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dueRuns, earliestTime, readSchedule, tooLate } from './schedule.js';

const at = (iso: string) => Date.parse(iso);

describe('AdvancedCronJob schedule', () => {
  test('the zone: a TZ prefix as written, else timeZone, else the local zone', () => {
    assert.equal(readSchedule('TZ=Europe/Paris 0 9 * * *', undefined).zone, 'Europe/Paris');
    assert.equal(readSchedule('0 9 * * *', 'Asia/Shanghai').zone, 'Asia/Shanghai');
    assert.equal(readSchedule('0 9 * * *', undefined).zone, Intl.DateTimeFormat().resolvedOptions().timeZone);
    assert.throws(() => readSchedule('61 * * * *', undefined), /above maximum/);
  });

  test('the most recent missed run in (earliest, now] and the next one', () => {
    const s = readSchedule('*/10 * * * *', 'UTC');
    assert.deepEqual(dueRuns(s, at('2024-01-01T00:05:00Z'), at('2024-01-01T00:35:00Z')),
      { missed: at('2024-01-01T00:30:00Z'), next: at('2024-01-01T00:40:00Z'), tooMany: false });
    assert.deepEqual(dueRuns(s, at('2024-01-01T00:30:00Z'), at('2024-01-01T00:35:00Z')), { missed: undefined, next: at('2024-01-01T00:40:00Z'), tooMany: false });
    assert.equal(dueRuns(readSchedule('* * * * *', 'UTC'), at('2024-01-01T00:00:00Z'), at('2024-01-01T01:41:00Z')).tooMany, true, '101 missed minutes');
    assert.equal(dueRuns(readSchedule('* * * * *', 'UTC'), at('2024-01-01T00:00:00Z'), at('2024-01-01T01:40:00Z')).tooMany, false, '100 missed minutes');
  });

  test('startingDeadlineSeconds raises the earliest time and makes old runs too late', () => {
    const now = at('2024-01-01T01:00:00Z');
    assert.equal(earliestTime(undefined, at('2024-01-01T00:00:00Z'), now, 60), now - 60_000);
    assert.equal(earliestTime(now - 10_000, 0, now, 60), now - 10_000);
    assert.equal(earliestTime(undefined, 5, now, undefined), 5);
    assert.equal(tooLate(now - 61_000, now, 60), true);
    assert.equal(tooLate(now - 60_000, now, 60), false);
    assert.equal(tooLate(0, now, undefined), false);
  });
});
