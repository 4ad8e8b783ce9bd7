import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ageSince, humanDuration } from './age.js';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('humanDuration', () => {
  const cases: [number, string][] = [
    [-3 * s, '<invalid>'],
    [-1500, '0s'],
    [0, '0s'],
    [5 * s, '5s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [3 * m + 20 * s, '3m20s'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m + 30 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [3 * h + 4 * m, '3h4m'],
    [7 * h + 59 * m, '7h59m'],
    [8 * h + 30 * m, '8h'],
    [47 * h, '47h'],
    [2 * d, '2d'],
    [3 * d + 4 * h, '3d4h'],
    [8 * d + 5 * h, '8d'],
    [400 * d, '400d'],
    [2 * 365 * d + 30 * d, '2y30d'],
    [3 * 365 * d, '3y'],
    [9 * 365 * d + 100 * d, '9y'],
  ];
  for (const [ms, want] of cases) {
    test(`${ms}ms -> ${want}`, () => assert.equal(humanDuration(ms), want));
  }
});

describe('ageSince', () => {
  const now = new Date('2024-05-01T12:00:00Z');
  test('formats an RFC 3339 timestamp relative to now', () => {
    assert.equal(ageSince('2024-05-01T11:55:00Z', now), '5m');
  });
  test('missing or bad timestamps are <unknown>', () => {
    assert.equal(ageSince(undefined, now), '<unknown>');
    assert.equal(ageSince('not a date', now), '<unknown>');
  });
});
