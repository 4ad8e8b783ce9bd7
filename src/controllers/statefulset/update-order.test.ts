import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pod, set } from './test-kit.js';
import { needsCurrentRevision, positionsToUpdate, type Slots } from './update-order.js';

const rolling = (r: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  set({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, podUpdatePolicy: 'ReCreate', ...r } }, ...extra });
const slots = (...revs: (string | undefined)[]): Slots => revs.map((r, i) => (r === undefined ? undefined : pod(`web-${i}`, { revision: r })));

describe('revision of a new pod', () => {
  test('ordered: the first `partition` unreserved positions take the current revision', () => {
    const s = rolling({ partition: 2 });
    const withHole = slots('old', undefined, 'old', 'new');
    assert.deepEqual([0, 2, 3].map((i) => needsCurrentRevision(s, 'new', i, withHole)), [true, true, false]);
  });

  test('unordered: current revision while fewer than `partition` other pods are off the update revision', () => {
    const s = rolling({ partition: 2, unorderedUpdate: {} }, { podManagementPolicy: 'Parallel' });
    assert.equal(needsCurrentRevision(s, 'new', 0, slots('x', 'old', 'new')), true);
    assert.equal(needsCurrentRevision(s, 'new', 0, slots('x', 'old', 'old')), false);
  });

  test('OnDelete always creates at the update revision', () => {
    assert.equal(needsCurrentRevision(set({ updateStrategy: { type: 'OnDelete' } }), 'new', 0, slots('x')), false);
  });
});

describe('update order', () => {
  test('ordered: highest position down to the partition', () => {
    assert.deepEqual(positionsToUpdate(rolling({ partition: 1 }), 'new', slots('old', 'old', 'old')), [2, 1]);
    assert.deepEqual(positionsToUpdate(rolling({ partition: 3 }), 'new', slots('old', 'old', 'old')), []);
    assert.deepEqual(positionsToUpdate(rolling({ partition: 0 }, { replicas: 3 }), 'new', slots('old', undefined, 'old', 'old')), [3, 2, 0]);
  });

  test('unordered: updated and terminating first, then by priority (stable, highest first), at most replicas − partition', () => {
    const s = rolling({
      partition: 1, unorderedUpdate: { priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: { matchLabels: { canary: 'true' } } }] } },
    }, { podManagementPolicy: 'Parallel', replicas: 4 });
    const ps: Slots = [
      pod('web-0', { revision: 'old', labels: { canary: 'true' } }),
      pod('web-1', { revision: 'old' }),
      pod('web-2', { revision: 'new' }),
      pod('web-3', { revision: 'old' }),
    ];
    assert.deepEqual(positionsToUpdate(s, 'new', ps), [2, 0, 3]);
    ps[1] = pod('web-1', { revision: 'old', terminating: true });
    assert.deepEqual(positionsToUpdate(s, 'new', ps), [2, 1, 0]);
  });

  test('PreparingUpdate counts as updated only with gate PreparingUpdateAsUpdate', () => {
    const s = rolling({ unorderedUpdate: {} }, { podManagementPolicy: 'Parallel' });
    const ps: Slots = [pod('web-0', { labels: { 'lifecycle.apps.kruise.io/state': 'PreparingUpdate' } }), pod('web-1'), pod('web-2')];
    assert.deepEqual(positionsToUpdate(s, 'new', ps), [2, 1, 0]);
    assert.deepEqual(positionsToUpdate(s, 'new', ps, true), [0, 2, 1]);
  });
});
