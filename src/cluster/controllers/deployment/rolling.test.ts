import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { maxSurge, maxUnavailable } from './budgets.js';
import { activeReplicaSets } from './replica-sets.js';
import { planNewReplicaSet, planOldReplicaSets } from './rolling.js';
import type { Deployment, ReplicaSet } from '../../../api/core/index.js';

const deployment = (replicas: number, surge: number | string, unavailable: number | string): Deployment => ({
  metadata: { name: 'd' }, spec: { replicas, selector: {}, template: {}, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } } },
});
const rs = (name: string, replicas: number, available: number, created = '2024-01-01T00:00:00Z'): ReplicaSet => ({
  metadata: { name, uid: name, creationTimestamp: created }, spec: { replicas, selector: {} }, status: { replicas, availableReplicas: available },
});

describe('one rolling step', () => {
  test('scale up first, then down old available pods within maxUnavailable', () => {
    const d = deployment(4, 1, 1);
    const old = rs('old', 4, 4);
    assert.equal(planNewReplicaSet(d, [old, rs('new', 0, 0)], rs('new', 0, 0)), 1);
    const newRS = rs('new', 1, 0);
    assert.equal(planNewReplicaSet(d, [old, newRS], newRS), undefined, 'surge budget used');
    assert.deepEqual([...planOldReplicaSets(d, [old], [old, newRS], newRS)], [['old', 3]]);
  });

  test('unavailable old pods are removed first, oldest ReplicaSet first', () => {
    const d = deployment(6, 0, 1);
    const older = rs('older', 3, 1, '2024-01-01T00:00:00Z');
    const old = rs('old', 3, 3, '2024-01-02T00:00:00Z');
    const newRS = rs('new', 0, 0, '2024-01-03T00:00:00Z');
    // 6 pods, 5 must stay available: one pod may go, an unhealthy one of the older ReplicaSet
    assert.deepEqual([...planOldReplicaSets(d, [old, older], [older, old, newRS], newRS)], [['older', 2]]);
    const surge = deployment(6, 0, 3);
    // 3 may go: its 2 unhealthy pods first, then 1 of the 4 available (3 must stay), oldest ReplicaSet first
    assert.deepEqual([...planOldReplicaSets(surge, [old, older], [older, old, newRS], newRS)], [['older', 0]]);
  });

  test('no scale-down while the new ReplicaSet is not available yet and the budget is spent', () => {
    const d = deployment(3, 1, 0);
    const old = rs('old', 3, 3);
    const newRS = rs('new', 1, 0);
    assert.equal(planOldReplicaSets(d, [old], [old, newRS], newRS).size, 0);
  });
});

/** Runs a whole rollout, pods becoming available at once, and checks every intermediate state. */
function simulate(replicas: number, surge: number | string, unavailable: number | string, oldSizes: number[]) {
  const d = deployment(replicas, surge, unavailable);
  let old = oldSizes.map((n, i) => rs(`old${i}`, n, n, `2024-01-0${i + 1}T00:00:00Z`));
  let newRS = rs('new', 0, 0, '2024-02-01T00:00:00Z');
  const maxTotal = replicas + maxSurge(d);
  const minAvailable = replicas - maxUnavailable(d);
  const startTotal = oldSizes.reduce((a, b) => a + b, 0);
  const settle = (r: ReplicaSet, size: number) => rs(r.metadata.name!, size, size, r.metadata.creationTimestamp);
  for (let step = 0; step < 500; step++) {
    const all = [...old, newRS];
    const target = planNewReplicaSet(d, all, newRS);
    if (target !== undefined) newRS = settle(newRS, target);
    else {
      const plan = planOldReplicaSets(d, activeReplicaSets(old), all, newRS);
      if (plan.size === 0) break;
      old = old.map((r) => (plan.has(r.metadata.name!) ? rs(r.metadata.name!, plan.get(r.metadata.name!)!, Math.min(r.status!.availableReplicas!, plan.get(r.metadata.name!)!), r.metadata.creationTimestamp) : r));
    }
    const total = [...old, newRS].reduce((n, r) => n + r.spec!.replicas!, 0);
    const available = [...old, newRS].reduce((n, r) => n + r.status!.availableReplicas!, 0);
    if (target !== undefined) assert.ok(total <= Math.max(maxTotal, startTotal), `step ${step}: ${total} pods > ${maxTotal}`);
    assert.ok(available >= Math.min(minAvailable, startTotal), `step ${step}: ${available} available < ${minAvailable}`);
  }
  return { newRS, old };
}

describe('a whole rollout', () => {
  test('never exceeds maxSurge nor maxUnavailable and always finishes', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 30 }),
      fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom('0%', '10%', '25%', '50%', '100%')),
      fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom('0%', '10%', '25%', '50%', '100%')),
      (replicas, surge, unavailable) => {
        const { newRS, old } = simulate(replicas, surge, unavailable, [replicas]);
        assert.equal(newRS.spec!.replicas, replicas);
        assert.ok(old.every((r) => r.spec!.replicas === 0));
      },
    ), { numRuns: 300 });
  });

  test('two old ReplicaSets are drained oldest first', () => {
    const { old } = simulate(6, 1, 1, [3, 3]);
    assert.deepEqual(old.map((r) => r.spec!.replicas), [0, 0]);
  });
});
