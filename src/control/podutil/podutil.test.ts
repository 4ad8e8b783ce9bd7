import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setCondition, newCondition } from '../conditions/index.js';
import { isPodAvailable, isPodActive, withPodCondition } from './index.js';
import type { Pod } from '../../api/core/index.js';
import { slowStartBatch, slowStartBatchSizes } from '../podcontrol/index.js';

describe('podutil', () => {
  const pod = (ready: boolean, since: string, phase: 'Running' | 'Succeeded' = 'Running'): Pod => ({
    metadata: { name: 'p' }, spec: { containers: [] }, status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: since }] },
  });
  const now = Date.parse('2024-01-01T00:01:00Z');

  test('available means ready for longer than minReadySeconds', () => {
    assert.equal(isPodAvailable(pod(true, '2024-01-01T00:00:00Z'), 0, now), true);
    assert.equal(isPodAvailable(pod(true, '2024-01-01T00:00:00Z'), 59, now), true);
    assert.equal(isPodAvailable(pod(true, '2024-01-01T00:00:00Z'), 60, now), false);
    assert.equal(isPodAvailable(pod(false, '2024-01-01T00:00:00Z'), 0, now), false);
  });

  test('finished and terminating pods are not active', () => {
    assert.equal(isPodActive(pod(true, '')), true);
    assert.equal(isPodActive(pod(true, '', 'Succeeded')), false);
    assert.equal(isPodActive({ ...pod(true, ''), metadata: { name: 'p', deletionTimestamp: '2024-01-01T00:00:00Z' } }), false);
  });

  test('withPodCondition moves the transition time only on a status change', () => {
    const before = [{ type: 'Ready', status: 'True' as const, lastTransitionTime: '2024-01-01T00:00:00Z' }];
    assert.equal(withPodCondition(before, { type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' }, now), undefined);
    const after = withPodCondition(before, { type: 'Ready', status: 'False' }, now)!;
    assert.deepEqual(after, [{ type: 'Ready', status: 'False', lastTransitionTime: '2024-01-01T00:01:00Z' }]);
  });
});

describe('workload conditions', () => {
  test('same status and reason is a no-op; a new reason keeps the transition time', () => {
    const first = setCondition([], newCondition('Progressing', 'True', 'NewReplicaSetCreated', 'a', 1000, true));
    assert.equal(setCondition(first, newCondition('Progressing', 'True', 'NewReplicaSetCreated', 'b', 9000, true)), first);
    const second = setCondition(first, newCondition('Progressing', 'True', 'ReplicaSetUpdated', 'c', 9000, true));
    assert.equal(second[0].lastTransitionTime, first[0].lastTransitionTime);
    assert.notEqual(second[0].lastUpdateTime, first[0].lastUpdateTime);
  });
});

describe('slowStartBatch', () => {
  test('doubles batch sizes and stops after the first failing batch', async () => {
    assert.deepEqual(slowStartBatchSizes(10, 1), [1, 2, 4, 3]);
    assert.deepEqual(slowStartBatchSizes(0, 1), []);
    const calls: number[] = [];
    const result = await slowStartBatch(20, 1, async (i) => {
      calls.push(i);
      if (i >= 4) throw new Error(`no ${i}`);
    });
    // batches [0] [1,2] [3,4,5,6]: the third fails, nothing after it runs
    assert.deepEqual(calls, [0, 1, 2, 3, 4, 5, 6]);
    assert.equal(result.successes, 4);
    assert.equal((result.error as Error).message, 'no 4');
  });
});
