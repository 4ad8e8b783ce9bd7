import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findActiveOrLatest, isScalingEvent, planScale } from './proportional.js';
import type { Deployment, ReplicaSet } from '../../../api/core/index.js';

const deployment = (replicas: number, surge: number | string = 0, unavailable: number | string = 1): Deployment => ({
  metadata: { name: 'd' }, spec: { replicas, selector: {}, template: {}, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } } },
  status: { replicas: 5 },
});

function rs(name: string, replicas: number, o: { max?: number; desired?: number; available?: number; day?: number } = {}): ReplicaSet {
  const annotations: Record<string, string> = {};
  if (o.max !== undefined) annotations['deployment.kubernetes.io/max-replicas'] = String(o.max);
  if (o.desired !== undefined) annotations['deployment.kubernetes.io/desired-replicas'] = String(o.desired);
  return {
    metadata: { name, uid: name, annotations, creationTimestamp: `2024-01-${String(o.day ?? 1).padStart(2, '0')}T00:00:00Z` },
    spec: { replicas, selector: {} }, status: { replicas, availableReplicas: o.available ?? replicas },
  };
}

const plan = (d: Deployment, newRS: ReplicaSet | undefined, old: ReplicaSet[]) => Object.fromEntries(planScale(d, newRS, old).plan);

describe('proportional scaling', () => {
  test('a single active ReplicaSet takes the whole count', () => {
    assert.deepEqual(plan(deployment(7), rs('new', 3, { day: 3 }), [rs('old', 0)]), { new: 7 });
    assert.deepEqual(plan(deployment(7), undefined, [rs('a', 0, { day: 1 }), rs('b', 0, { day: 2 })]), { b: 7 }, 'newest when none is active');
    assert.deepEqual(plan(deployment(3), rs('new', 3, { day: 3 }), [rs('old', 0)]), {});
  });

  test('growing mid-rollout spreads by previous size', () => {
    const newRS = rs('new', 3, { max: 5, day: 2 });
    assert.deepEqual(plan(deployment(10), newRS, [rs('old', 2, { max: 5, day: 1 })]), { new: 6, old: 4 });
  });

  test('shrinking mid-rollout spreads by previous size', () => {
    const newRS = rs('new', 6, { max: 10, day: 2 });
    assert.deepEqual(plan(deployment(5), newRS, [rs('old', 4, { max: 10, day: 1 })]), { new: 3, old: 2 });
  });

  test('rounding leftovers go to the largest ReplicaSet', () => {
    const newRS = rs('new', 6, { max: 10, day: 2 });
    assert.deepEqual(plan(deployment(11), newRS, [rs('old', 4, { max: 10, day: 1 })]), { new: 7, old: 4 });
    assert.deepEqual(plan(deployment(12), newRS, [rs('old', 4, { max: 10, day: 1 })]), { new: 7, old: 5 });
  });

  test('the surge allowance is part of the target', () => {
    const newRS = rs('new', 3, { max: 6, day: 2 });
    // 10 + 2 surge = 12 allowed, 6 now: both double
    assert.deepEqual(plan(deployment(10, 2), newRS, [rs('old', 3, { max: 6, day: 1 })]), { new: 6, old: 6 });
  });

  test('a saturated new ReplicaSet sends the old ones to zero', () => {
    const newRS = rs('new', 4, { desired: 4, available: 4, day: 2 });
    assert.deepEqual(plan(deployment(4), newRS, [rs('old', 2, { day: 1 })]), { old: 0 });
  });

  test('a scaling event is a desired-replicas annotation that differs from spec.replicas', () => {
    assert.equal(isScalingEvent(deployment(4), rs('new', 2, { desired: 3 }), []), true);
    assert.equal(isScalingEvent(deployment(4), rs('new', 2, { desired: 4 }), [rs('old', 0, { desired: 3 })]), false, 'inactive ones do not count');
    assert.equal(findActiveOrLatest(rs('new', 2), [rs('old', 1)]), undefined);
  });
});
