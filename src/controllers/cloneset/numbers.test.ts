import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { calculateDiffs, passNumbers, readyDeleteBudget, scaledValue, type GroupCounts } from './numbers.js';
import type { CloneSet } from './pods.js';

type RollingUpdate = NonNullable<NonNullable<CloneSet['spec']['updateStrategy']>['rollingUpdate']>;

const cs = (replicas: number, rollingUpdate?: RollingUpdate, scaleMax?: string | number): CloneSet => ({
  metadata: { name: 'demo', namespace: 'default' },
  spec: {
    replicas, selector: { matchLabels: { app: 'demo' } }, template: {},
    updateStrategy: rollingUpdate ? { type: 'RollingUpdate', rollingUpdate } : {},
    ...(scaleMax !== undefined ? { scaleStrategy: { maxUnavailable: scaleMax } } : {}),
  },
} as unknown as CloneSet);

const group = (g: Partial<GroupCounts>): GroupCounts => {
  const total = g.total ?? 0;
  return { total, preDeleting: g.preDeleting ?? 0, active: g.active ?? total - (g.preDeleting ?? 0), toDelete: g.toDelete ?? 0, unavailable: g.unavailable ?? 0 };
};

describe('passNumbers', () => {
  test('percent values round up, decimals allowed', () => {
    assert.equal(scaledValue('20%', 3, true), 1);
    assert.equal(scaledValue('20%', 3, false), 0);
    assert.equal(scaledValue('33.4%', 3, true), 2);
    assert.equal(scaledValue(2, 10, true), 2);
    assert.throws(() => scaledValue('abc', 3, true), /invalid value for IntOrString/);
  });

  test('partition: a percent below 100% leaves at least one pod to update; clamped to replicas', () => {
    assert.equal(passNumbers(cs(4, { partition: '90%' })).partition, 3, 'ceil(3.6)=4 would update nothing');
    assert.equal(passNumbers(cs(4, { partition: '100%' })).partition, 4);
    assert.equal(passNumbers(cs(1, { partition: '90%' })).partition, 1, 'a single replica is not forced');
    assert.equal(passNumbers(cs(4, { partition: 9 })).partition, 4);
    assert.equal(passNumbers(cs(4, { partition: '50%' })).partition, 2);
  });

  test('maxUnavailable rounds up without surge and down with surge; surge is 0 while paused', () => {
    assert.equal(passNumbers(cs(3, { maxUnavailable: '20%' })).maxUnavailable, 1);
    assert.equal(passNumbers(cs(3, { maxUnavailable: '20%', maxSurge: '10%' })).maxUnavailable, 0);
    assert.equal(passNumbers(cs(3, { maxUnavailable: '20%', maxSurge: '10%' })).maxSurge, 1);
    const paused = passNumbers(cs(3, { maxUnavailable: '20%', maxSurge: '10%', paused: true }));
    assert.deepEqual([paused.maxSurge, paused.maxUnavailable], [0, 1]);
  });

  test('no rollingUpdate: partition 0, surge 0, maxUnavailable floor(20%)', () => {
    assert.deepEqual(passNumbers(cs(9)), { replicas: 9, partition: 0, maxSurge: 0, maxUnavailable: 1, scaleMaxUnavailable: Infinity });
    assert.equal(passNumbers(cs(10, undefined, '25%')).scaleMaxUnavailable, 3);
  });
});

describe('calculateDiffs', () => {
  test('scale up from nothing creates R pods on the update revision', () => {
    const d = calculateDiffs(passNumbers(cs(3, { maxUnavailable: '20%' })), group({}), group({}));
    assert.deepEqual([d.scaleUpNum, d.scaleUpNumOld, d.scaleUpLimit, d.scaleDownNum], [3, 0, 3, 0]);
  });

  test('scale down from 3 to 1 prefers old pods', () => {
    const d = calculateDiffs(passNumbers(cs(1, { maxUnavailable: '20%' })), group({ total: 1 }), group({ total: 2 }));
    assert.deepEqual([d.scaleDownNum, d.scaleDownNumOld], [2, 2], 'both victims come from the old group');
    const keepOld = calculateDiffs(passNumbers(cs(2, { partition: 1 })), group({ total: 2 }), group({ total: 1 }));
    assert.deepEqual([keepOld.scaleDownNum, keepOld.scaleDownNumOld], [1, 0], 'the partition keeps its old pod');
  });

  test('rolling update: updateNum is the number of old pods above the partition', () => {
    const d = calculateDiffs(passNumbers(cs(4, { maxUnavailable: 1, partition: 1 })), group({}), group({ total: 4 }));
    assert.equal(d.updateNum, 3);
    assert.equal(d.updateMaxUnavailable, 1);
  });

  test('maxSurge creates extra update-revision pods while old ones remain', () => {
    const d = calculateDiffs(passNumbers(cs(4, { maxUnavailable: 0, maxSurge: 1 })), group({}), group({ total: 4 }));
    assert.deepEqual([d.useSurge, d.scaleUpNum, d.scaleUpNumOld], [1, 1, 0]);
  });

  test('scaleStrategy.maxUnavailable limits scale-up while pods are unavailable', () => {
    const d = calculateDiffs(passNumbers(cs(5, undefined, 2)), group({ total: 2, unavailable: 2 }), group({}));
    assert.deepEqual([d.scaleUpNum, d.scaleUpLimit], [3, 0]);
  });

  test('specified-delete pods are deleted within maxUnavailable plus surplus pods', () => {
    const d = calculateDiffs(passNumbers(cs(4, { maxUnavailable: 1 })), group({}), group({ total: 4, toDelete: 2 }));
    assert.equal(d.deleteReadyLimit, 1);
    assert.equal(d.scaleUpNum, 0);
  });

  test('an unavailable toDelete pod uses the budget up: with maxUnavailable 1 no available pod may go with it', () => {
    // 4 pods, R = 4, U = 1: a (unready) and b (ready) are both specified for deletion
    const d = calculateDiffs(passNumbers(cs(4, { maxUnavailable: 1 })), group({}), group({ total: 4, toDelete: 2 }));
    assert.equal(d.deleteReadyLimit, 1, 'U_total leaves toDelete pods out (as upstream)');
    assert.equal(readyDeleteBudget(d.deleteReadyLimit, 1), 0, 'deleting b as well would leave 2 available, below R − U = 3');
    assert.equal(readyDeleteBudget(d.deleteReadyLimit, 0), 1, 'both ready: one may go');
  });

  test('the ready-delete budget is available pods − (R − U), never negative', () => {
    const cases = [
      // [R, U, pods, unavailable kept, toDelete, of which unavailable, preDeleting]
      [4, 1, 4, 0, 2, 1, 0], [4, 2, 4, 0, 2, 1, 0], [2, 1, 3, 1, 1, 1, 0], [5, 2, 6, 1, 2, 2, 1], [3, 1, 3, 2, 1, 1, 0],
    ] as const;
    for (const [R, U, total, unavailable, toDelete, unavToDelete, preDeleting] of cases) {
      const d = calculateDiffs(passNumbers(cs(R, { maxUnavailable: U })), group({}), group({ total, unavailable, toDelete, preDeleting }));
      const available = total - unavailable - unavToDelete - preDeleting;
      assert.equal(readyDeleteBudget(d.deleteReadyLimit, unavToDelete), Math.max(available - (R - U), 0), `R=${R} U=${U} pods=${total}`);
    }
  });
});
