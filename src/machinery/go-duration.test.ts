import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGoDuration } from './go-duration.js';

test('durations in milliseconds, as time.ParseDuration reads them', () => {
  const cases: [string, number][] = [['1h30m', 5_400_000], ['1.5h', 5_400_000], ['-90s', -90_000], ['+2m', 120_000], ['0', 0], ['1.s', 1000], ['500us', 0.5], ['2µs', 0.002]];
  for (const [text, ms] of cases) assert.equal(parseGoDuration(text), ms, text);
});

test('errors carry Go wording and quoting', () => {
  const cases: [string, string][] = [
    ['', 'time: invalid duration ""'],
    ['soon', 'time: invalid duration "soon"'],
    ['.h', 'time: invalid duration ".h"'],
    ['10', 'time: missing unit in duration "10"'],
    ['3d', 'time: unknown unit "d" in duration "3d"'],
    ['1é', 'time: unknown unit "\\xc3\\xa9" in duration "1\\xc3\\xa9"'],
    ['9999999999h', 'time: invalid duration "9999999999h"'],
  ];
  for (const [text, message] of cases) assert.throws(() => parseGoDuration(text), { message }, text);
});
