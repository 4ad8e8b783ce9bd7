import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { cronScheduleError, parseCronSchedule, parseStandardSchedule, type CronFields } from './cron.js';
import { nextActivation } from './cron-next.js';
import { formatRfc3339InZone, isValidTimeZone, loadTimeZoneError } from './time-zone.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const next = (spec: string, after: string, zone?: string) => iso(nextActivation(parseCronSchedule(spec), at(after), zone));

describe('parseCronSchedule', () => {
  test('lists, ranges, steps and names', () => {
    const s = parseCronSchedule('*/15 9-17 1,15 JAN-mar mon-FRI') as CronFields;
    assert.deepEqual([...s.minute], [0, 15, 30, 45]);
    assert.deepEqual([...s.hour], [9, 10, 11, 12, 13, 14, 15, 16, 17]);
    assert.deepEqual([...s.dayOfMonth], [1, 15]);
    assert.deepEqual([...s.month], [1, 2, 3]);
    assert.deepEqual([...s.dayOfWeek], [1, 2, 3, 4, 5]);
    assert.equal(s.dayOfMonthStar, false);
    assert.deepEqual([...(parseCronSchedule('5/20 * * * *') as CronFields).minute], [5, 25, 45]);
  });

  test('descriptors expand to their schedules', () => {
    assert.deepEqual(parseCronSchedule('@hourly'), parseCronSchedule('0 * * * *'));
    assert.deepEqual(parseCronSchedule('@weekly'), parseCronSchedule('0 0 * * 0'));
    assert.deepEqual(parseCronSchedule('@every 1h30m'), { kind: 'every', intervalMs: 5_400_000 });
  });

  const bad: [string, RegExp][] = [
    ['* * * *', /expected exactly 5 fields, found 4/],
    ['60 * * * *', /end of range \(60\) above maximum \(59\)/],
    ['* * 0 * *', /beginning of range \(0\) below minimum \(1\)/],
    ['5-1 * * * *', /beyond end of range/],
    ['*/0 * * * *', /step of range should be a positive number/],
    ['a * * * *', /failed to parse int from a/],
    ['1-2-3 * * * *', /too many hyphens/],
    ['* * * * 7', /above maximum \(6\)/],
    ['@fortnightly', /unrecognized descriptor/],
    ['@every soon', /failed to parse duration/],
  ];
  for (const [spec, message] of bad) {
    test(`rejects ${JSON.stringify(spec)}`, () => assert.throws(() => parseCronSchedule(spec), message));
  }
});

describe('parseStandardSchedule and cronScheduleError (the ParseStandard wording)', () => {
  test('a TZ= or CRON_TZ= prefix names the zone', () => {
    assert.deepEqual(parseStandardSchedule('CRON_TZ=Asia/Shanghai 0 9 * * *'), { schedule: parseCronSchedule('0 9 * * *'), timeZone: 'Asia/Shanghai' });
    assert.equal(parseStandardSchedule('TZ=UTC @hourly').timeZone, 'UTC');
    assert.equal(parseStandardSchedule('0 9 * * *').timeZone, undefined);
  });

  test('errors read as robfig/cron words them', () => {
    const cases: [string, string | undefined][] = [
      ['0 0 31 2 *', undefined],
      ['*/15 0-6,22 1 JAN,jul ?', undefined],
      ['@every 1h30m', undefined],
      ['', 'empty spec string'],
      ['* * * * 8', 'end of range (8) above maximum (6): 8'],
      ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
      ['70/5 * * * *', 'beginning of range (70) beyond end of range (59): 70/5'],
      ['*/0 * * * *', 'step of range should be a positive number: */0'],
      ['*/-1 * * * *', 'negative number (-1) not allowed: -1'],
      ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
      ['1/2/3 * * * *', 'too many slashes: 1/2/3'],
      ['@every 1', 'failed to parse duration @every 1: time: missing unit in duration "1"'],
      ['@every 5d', 'failed to parse duration @every 5d: time: unknown unit "d" in duration "5d"'],
      ['TZ=UTC', 'provided bad location UTC: missing schedule after the time zone'],
      ['TZ=Mars/Olympus * * * * *', 'provided bad location Mars/Olympus: unknown time zone Mars/Olympus'],
      ['TZ=UTC ', 'expected exactly 5 fields, found 0: []'],
    ];
    for (const [spec, message] of cases) assert.equal(cronScheduleError(spec), message, spec);
  });

  test('@every rounds to whole seconds, at least one', () => {
    assert.deepEqual(parseCronSchedule('@every 1.5s'), { kind: 'every', intervalMs: 1000 });
    assert.deepEqual(parseCronSchedule('@every 100ms'), { kind: 'every', intervalMs: 1000 });
    assert.deepEqual(parseCronSchedule('@every .5m'), { kind: 'every', intervalMs: 30_000 });
  });

  test('time zones load as Go loads them', () => {
    assert.equal(loadTimeZoneError('Local'), undefined);
    assert.equal(loadTimeZoneError(''), undefined);
    assert.equal(loadTimeZoneError('Europe/Paris'), undefined);
    assert.equal(loadTimeZoneError('Mars/Olympus'), 'unknown time zone Mars/Olympus');
  });
});

describe('nextActivation', () => {
  test('is strictly after the given time, at whole minutes', () => {
    assert.equal(next('*/5 * * * *', '2024-01-01T00:00:00Z'), '2024-01-01T00:05:00.000Z');
    assert.equal(next('*/5 * * * *', '2024-01-01T00:04:59.999Z'), '2024-01-01T00:05:00.000Z');
    assert.equal(next('@hourly', '2024-01-01T10:00:30Z'), '2024-01-01T11:00:00.000Z');
    assert.equal(next('0 0 1 1 *', '2024-06-01T00:00:00Z'), '2025-01-01T00:00:00.000Z');
  });

  test('day-of-month and day-of-week are OR-ed unless one is a star', () => {
    // 2024-01-02 is a Tuesday; the 13th is a Saturday.
    assert.equal(next('0 0 13 * 5', '2024-01-01T00:00:00Z'), '2024-01-05T00:00:00.000Z');
    assert.equal(next('0 0 * * 5', '2024-01-01T00:00:00Z'), '2024-01-05T00:00:00.000Z');
    assert.equal(next('0 0 13 * *', '2024-01-01T00:00:00Z'), '2024-01-13T00:00:00.000Z');
    assert.equal(next('0 0 29 2 *', '2024-03-01T00:00:00Z'), '2028-02-29T00:00:00.000Z');
    assert.equal(next('0 0 30 2 *', '2024-03-01T00:00:00Z'), undefined);
  });

  test('follows the time zone, including daylight saving changes', () => {
    assert.equal(next('0 9 * * *', '2024-01-01T00:00:00Z', 'America/New_York'), '2024-01-01T14:00:00.000Z');
    assert.equal(next('0 9 * * *', '2024-07-01T00:00:00Z', 'America/New_York'), '2024-07-01T13:00:00.000Z');
    // 2024-03-10 02:30 does not exist in New York: it runs at 03:30 EDT.
    assert.equal(next('30 2 * * *', '2024-03-10T05:00:00Z', 'America/New_York'), '2024-03-10T07:30:00.000Z');
    assert.equal(next('0 0 * * *', '2024-01-01T00:00:00Z', 'Asia/Kolkata'), '2024-01-01T18:30:00.000Z');
    assert.equal(isValidTimeZone('Mars/Olympus'), false);
    assert.equal(isValidTimeZone('Europe/Paris'), true);
  });

  test('formats RFC 3339 in the zone, as Go does', () => {
    assert.equal(formatRfc3339InZone(at('2024-01-01T14:00:00Z'), 'America/New_York'), '2024-01-01T09:00:00-05:00');
    assert.equal(formatRfc3339InZone(at('2024-01-01T14:00:00Z')), '2024-01-01T14:00:00Z');
    assert.equal(formatRfc3339InZone(at('2024-01-01T14:00:00Z'), 'Asia/Kolkata'), '2024-01-01T19:30:00+05:30');
  });

  test('property: the next activation matches and no minute before it does', () => {
    const minute = fc.oneof(fc.constant('*'), fc.integer({ min: 0, max: 59 }).map(String), fc.integer({ min: 1, max: 30 }).map((n) => `*/${n}`));
    const hour = fc.oneof(fc.constant('*'), fc.integer({ min: 0, max: 23 }).map(String));
    const dom = fc.oneof(fc.constant('*'), fc.integer({ min: 1, max: 28 }).map(String));
    const dow = fc.oneof(fc.constant('*'), fc.integer({ min: 0, max: 6 }).map(String));
    const start = fc.integer({ min: at('2020-01-01T00:00:00Z'), max: at('2030-01-01T00:00:00Z') });
    fc.assert(fc.property(minute, hour, dom, dow, start, (mi, h, d, w, after) => {
      const s = parseCronSchedule(`${mi} ${h} ${d} * ${w}`) as CronFields;
      const t = nextActivation(s, after)!;
      assert.ok(t > after && t % 60_000 === 0);
      const matches = (ms: number) => {
        const x = new Date(ms);
        const dm = s.dayOfMonth.has(x.getUTCDate());
        const dw = s.dayOfWeek.has(x.getUTCDay());
        const day = s.dayOfMonthStar || s.dayOfWeekStar ? dm && dw : dm || dw;
        return s.minute.has(x.getUTCMinutes()) && s.hour.has(x.getUTCHours()) && day;
      };
      assert.ok(matches(t));
      // Spot-check the minutes just before the answer (a full scan would be too slow).
      for (let m = t - 60_000; m > after && m > t - 120 * 60_000; m -= 60_000) assert.ok(!matches(m));
    }), { numRuns: 200 });
  });
});
