import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { maxSurge, maxUnavailable, newReplicaSetReplicas, resolveFenceposts, scaledValue } from './budgets.js';
import type { Deployment, IntOrString, ReplicaSet } from '../../../api/core/index.js';

const deployment = (replicas: number, surge?: IntOrString, unavailable?: IntOrString, type: 'RollingUpdate' | 'Recreate' = 'RollingUpdate'): Deployment => ({
  metadata: { name: 'd' },
  spec: { replicas, selector: {}, template: {}, strategy: type === 'Recreate' ? { type } : { type, rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } } },
});
const rs = (name: string, replicas: number): ReplicaSet => ({ metadata: { name }, spec: { replicas, selector: {} } });

describe('rolling update budgets', () => {
  test('percentages: surge rounds up, unavailable rounds down', () => {
    const cases: [number, IntOrString, IntOrString, number, number][] = [
      // replicas, maxSurge, maxUnavailable -> surge, unavailable
      [10, '25%', '25%', 3, 2],
      [4, '25%', '25%', 1, 1],
      [3, '25%', '25%', 1, 0],
      [1, '25%', '25%', 1, 0],
      [10, 2, 3, 2, 3],
      [10, '0%', '0%', 0, 1], // both zero would never progress
      [5, 0, '10%', 0, 1], // 10% of 5 floors to 0: unavailable forced to 1
      [3, '100%', 0, 3, 0],
    ];
    for (const [replicas, s, u, surge, unavailable] of cases) {
      assert.deepEqual(resolveFenceposts(s, u, replicas), { surge, unavailable }, `${replicas} ${s} ${u}`);
    }
  });

  test('maxUnavailable is capped at the replica count and 0 for Recreate or zero replicas', () => {
    assert.equal(maxUnavailable(deployment(2, 0, 5)), 2);
    assert.equal(maxUnavailable(deployment(0, 1, 1)), 0);
    assert.equal(maxUnavailable(deployment(5, 1, 1, 'Recreate')), 0);
    assert.equal(maxSurge(deployment(5, 1, 1, 'Recreate')), 0);
    assert.equal(maxSurge(deployment(10, '30%', 0)), 3);
  });

  test('invalid int-or-string values are errors', () => {
    assert.throws(() => scaledValue('abc%', 10, true), /invalid value "abc%"/);
    assert.throws(() => scaledValue('5', 10, true), /not a percentage/);
  });

  test('the new ReplicaSet grows only within the surge budget', () => {
    const d = deployment(10, 3, 2);
    const newRS = rs('new', 0);
    assert.equal(newReplicaSetReplicas(d, [rs('old', 10), newRS], newRS), 3);
    const grown = rs('new', 3);
    assert.equal(newReplicaSetReplicas(d, [rs('old', 10), grown], grown), 3, 'total already 13');
    assert.equal(newReplicaSetReplicas(d, [rs('old', 5), grown], grown), 8);
    assert.equal(newReplicaSetReplicas(d, [rs('old', 0), rs('x', 0), grown], grown), 10, 'never beyond replicas');
    assert.equal(newReplicaSetReplicas(deployment(10, 0, 0, 'Recreate'), [grown], grown), 10);
  });
});
