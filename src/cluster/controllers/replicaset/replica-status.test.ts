import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { calculateStatus, nextAvailableInMs, statusUnchanged } from './replica-status.js';
import type { Pod, ReplicaSet } from '../../../api/core/index.js';

const now = Date.parse('2024-01-01T00:01:00Z');

const rs = (over: Partial<NonNullable<ReplicaSet['spec']>> = {}, status?: ReplicaSet['status']): ReplicaSet => ({
  metadata: { name: 'rs', namespace: 'default', generation: 4 },
  spec: { replicas: 3, selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a', tier: 'x' } } }, ...over },
  status,
});

const pod = (labels: Record<string, string>, readySince?: string): Pod => ({
  metadata: { name: 'p', labels },
  spec: { containers: [] },
  status: { phase: 'Running', conditions: readySince ? [{ type: 'Ready', status: 'True', lastTransitionTime: readySince }] : [] },
});

describe('ReplicaSet status', () => {
  test('counts labelled, ready and available pods and records the generation', () => {
    const pods = [pod({ app: 'a', tier: 'x' }, '2024-01-01T00:00:00Z'), pod({ app: 'a' }, '2024-01-01T00:00:50Z'), pod({ app: 'a', tier: 'x' })];
    const status = calculateStatus(rs({ minReadySeconds: 30 }), pods, undefined, now);
    assert.deepEqual(status, { replicas: 3, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 1, observedGeneration: 4 });
    assert.equal(nextAvailableInMs(rs({ minReadySeconds: 30 }), pods, now), 20_001);
    assert.equal(nextAvailableInMs(rs(), pods, now), undefined);
  });

  test('zero counts are omitted but replicas is always written', () => {
    assert.deepEqual(calculateStatus(rs({ replicas: 0 }), [], undefined, now), { replicas: 0, observedGeneration: 4 });
  });

  test('a scaling error sets ReplicaFailure with FailedCreate or FailedDelete; success removes it', () => {
    const failed = calculateStatus(rs(), [pod({ app: 'a' })], new Error('quota exceeded'), now);
    assert.deepEqual(failed.conditions, [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'quota exceeded', lastTransitionTime: '2024-01-01T00:01:00Z' }]);
    const tooMany = calculateStatus(rs({ replicas: 0 }), [pod({ app: 'a' })], new Error('denied'), now);
    assert.equal(tooMany.conditions?.[0].reason, 'FailedDelete');
    const healed = calculateStatus(rs({}, failed), [pod({ app: 'a' })], undefined, now);
    assert.equal(healed.conditions, undefined);
  });

  test('statusUnchanged treats missing and zero alike', () => {
    assert.equal(statusUnchanged({ replicas: 0, observedGeneration: 4, conditions: [] }, { replicas: 0, observedGeneration: 4 }), true);
    assert.equal(statusUnchanged({ replicas: 1, observedGeneration: 3 }, { replicas: 1, observedGeneration: 4 }), false);
  });
});
