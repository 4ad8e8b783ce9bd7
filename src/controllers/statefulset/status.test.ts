import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { calculateStatus, statusChanged, type StatusInput } from './status.js';
import { pod, set } from './test-kit.js';
import type { Pod } from '../../api/core/index.js';

const now = Date.parse('2024-01-01T00:01:00Z');
const input = (pods: (Pod | undefined)[], extra: Partial<StatusInput> = {}): StatusInput =>
  ({ pods, currentRevision: 'web-old', updateRevision: 'web-new', collisionCount: 0, now, ...extra });

describe('status', () => {
  test('counts created pods; current/updated exclude terminating ones; selector and generation', () => {
    const pods = [
      pod('web-0'), pod('web-1', { revision: 'web-new' }), pod('web-2', { revision: 'web-new', ready: false }),
      pod('web-3', { terminating: true }), { ...pod('web-4'), status: {} }, undefined,
    ];
    const { status } = calculateStatus(set(), input(pods));
    assert.deepEqual(status, {
      observedGeneration: 4, replicas: 4, readyReplicas: 3, availableReplicas: 3, currentReplicas: 1, updatedReplicas: 2,
      updatedReadyReplicas: 1, updatedAvailableReplicas: 1, currentRevision: 'web-old', updateRevision: 'web-new',
      collisionCount: 0, labelSelector: 'app=web',
    });
  });

  test('rolling update completes when every pod is updated and ready', () => {
    const { status } = calculateStatus(set(), input([pod('web-0', { revision: 'web-new' }), pod('web-1', { revision: 'web-new' })]));
    assert.equal(status.currentRevision, 'web-new');
    assert.equal(status.currentReplicas, 2);
    const onDelete = calculateStatus(set({ updateStrategy: { type: 'OnDelete' } }), input([pod('web-0', { revision: 'web-new' })])).status;
    assert.equal(onDelete.currentRevision, 'web-old');
  });

  test('pods deleted this pass count as terminating; minReadySeconds delays availability and asks for a requeue', () => {
    const s = set({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { minReadySeconds: 90 } } });
    const { status, requeueAfterMs } = calculateStatus(s, input([pod('web-0'), pod('web-1')], { deleted: new Set(['web-1']) }));
    assert.deepEqual([status.currentReplicas, status.readyReplicas, status.availableReplicas], [1, 2, 0]);
    assert.equal(requeueAfterMs, 30_000);
  });

  test('failures become True conditions; a change of them, not of their time, is a change', () => {
    const failed = calculateStatus(set(), input([pod('web-0')], { failures: new Map([['FailedCreatePod', 'quota']]) })).status;
    assert.deepEqual(failed.conditions?.map((c) => [c.type, c.status, c.message]), [['FailedCreatePod', 'True', 'quota']]);
    const later = calculateStatus(set(), input([pod('web-0')], { failures: new Map([['FailedCreatePod', 'quota']]), now: now + 5_000 })).status;
    assert.equal(statusChanged(failed, later), false);
    const cleared = calculateStatus(set(), input([pod('web-0')])).status;
    assert.equal(statusChanged(failed, cleared), true);
    assert.equal(statusChanged(cleared, { ...cleared, readyReplicas: 0 }), true);
    assert.equal(statusChanged(undefined, cleared), true);
  });
});
