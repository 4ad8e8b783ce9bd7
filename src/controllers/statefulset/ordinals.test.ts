import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { inRange, ordinalOf, parseReserveOrdinals, replicaRange } from './ordinals.js';
import { defaultGates, set, withGates } from './test-kit.js';
import { scaledValue } from '../../machinery/int-or-percent.js';
import { budgetOf } from './types.js';

describe('ordinals', () => {
  test('reserveOrdinals: ints and inclusive ranges; malformed entries ignored', () => {
    assert.deepEqual(parseReserveOrdinals([1, '3-4', '5-2', 'x', -1, '7-7']), [[1, 1], [3, 4], [7, 7]]);
  });

  const cases: [string, Record<string, unknown>, string[], { start: number; end: number }][] = [
    ['no reserves', {}, [], { start: 0, end: 3 }],
    ['S9 [1]', { reserveOrdinals: [1] }, [], { start: 0, end: 4 }],
    ['S9 [1, 2]', { reserveOrdinals: [1, 2] }, [], { start: 0, end: 5 }],
    ['S9 [1, "3-4"]', { reserveOrdinals: [1, '3-4'] }, [], { start: 0, end: 6 }],
    ['reserved range at the start', { reserveOrdinals: ['0-9'] }, [], { start: 0, end: 13 }],
    ['zero replicas', { replicas: 0, reserveOrdinals: [0] }, [], { start: 0, end: 0 }],
    ['start ignored without the gate', { ordinals: { start: 10 } }, [], { start: 0, end: 3 }],
    ['start with the gate', { ordinals: { start: 10 }, reserveOrdinals: [11] }, ['StatefulSetStartOrdinal'], { start: 10, end: 14 }],
  ];
  for (const [name, spec, gates, want] of cases) {
    test(`replica range: ${name}`, () => {
      const r = replicaRange(set(spec), gates.length ? withGates(gates) : defaultGates);
      assert.deepEqual({ start: r.start, end: r.end }, want);
    });
  }

  test('inRange excludes reserved ordinals and the ends', () => {
    const r = replicaRange(set({ reserveOrdinals: [1, '3-4'] }), defaultGates);
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6].filter((o) => inRange(r, o)), [0, 2, 5]);
  });

  test('ordinalOf parses <set>-<n> only', () => {
    assert.equal(ordinalOf('web', 'web-12'), 12);
    assert.equal(ordinalOf('web', 'web-0'), 0);
    for (const name of ['web-007', 'web-', 'web-1-0', 'webx-1', 'other-1', 'web-a']) assert.equal(ordinalOf('web', name), undefined, name);
    assert.equal(ordinalOf('web-1', 'web-1-0'), 0);
  });

  test('maxUnavailable rounds down with a floor of 1', () => {
    assert.equal(scaledValue('50%', 5, false), 2);
    assert.equal(scaledValue('33.33%', 3, false), 0);
    assert.equal(budgetOf('10%', 4), 1);
    assert.equal(budgetOf(undefined, 4), 1);
    assert.equal(budgetOf(3, 4), 3);
    assert.equal(budgetOf(0, 4), 1);
    assert.throws(() => scaledValue('x%', 4, false), /invalid value for IntOrString/);
  });
});
