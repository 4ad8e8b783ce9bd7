import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allocateAdaptive, allocateMinMax, allocateSpecific, scaleHalfUp } from './allocation.js';

const obj = (m: Map<string, number> | undefined) => Object.fromEntries(m ?? []);

test('specific: even split, remainder to the subsets with most replicas (ties by name, descending)', () => {
  const subsets = [{ name: 'a' }, { name: 'b' }, { name: 'c' }];
  assert.deepEqual(obj(allocateSpecific(5, subsets, new Map()).replicas), { a: 1, b: 2, c: 2 });
  assert.deepEqual(obj(allocateSpecific(5, subsets, new Map([['a', 3]])).replicas), { a: 2, b: 1, c: 2 });
  assert.deepEqual(obj(allocateSpecific(6, [{ name: 'a', replicas: 1 }, { name: 'b', replicas: '50%' }, { name: 'c' }], new Map()).replicas), { a: 1, b: 3, c: 2 });
  assert.match(allocateSpecific(5, [{ name: 'a', replicas: 4 }, { name: 'b', replicas: 4 }], new Map()).error!, /greater/);
  assert.match(allocateSpecific(5, [{ name: 'a', replicas: 1 }, { name: 'b', replicas: 1 }], new Map()).error!, /less/);
});

test('percent rounds half-up', () => {
  assert.equal(scaleHalfUp('50%', 5), 3);
  assert.equal(scaleHalfUp('49%', 5), 2);
  assert.equal(scaleHalfUp(4, 5), 4);
});

test('min/max: mins first in order, then up to each max', () => {
  assert.deepEqual(obj(allocateMinMax(5, [{ name: 'a', minReplicas: 2, maxReplicas: 4 }, { name: 'b', minReplicas: 2 }]).replicas), { a: 3, b: 2 });
  assert.deepEqual(obj(allocateMinMax(3, [{ name: 'a', minReplicas: 2, maxReplicas: 4 }, { name: 'b', minReplicas: 2 }]).replicas), { a: 2, b: 1 });
  assert.deepEqual(obj(allocateMinMax(10, [{ name: 'a', maxReplicas: '20%' }, { name: 'b' }]).replicas), { a: 2, b: 8 });
});

test('adaptive: an unschedulable subset keeps only its ready pods; ready pods are never moved', () => {
  const subsets = [{ name: 'a', maxReplicas: 2 }, { name: 'b' }];
  assert.deepEqual(obj(allocateAdaptive(2, subsets, new Map()).replicas), { a: 2, b: 0 });
  assert.deepEqual(obj(allocateAdaptive(2, subsets, new Map([['a', { ready: 0, unschedulable: true }]])).replicas), { a: 0, b: 2 });
  assert.deepEqual(obj(allocateAdaptive(2, subsets, new Map([['a', { ready: 0, unschedulable: false }], ['b', { ready: 2, unschedulable: false }]])).replicas), { a: 0, b: 2 });
  assert.deepEqual(obj(allocateAdaptive(3, subsets, new Map([['a', { ready: 1, unschedulable: true }]])).replicas), { a: 1, b: 2 });
});
