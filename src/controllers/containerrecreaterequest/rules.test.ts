import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/core/index.js';
import { containerSnapshot, podGone, timeVerdict, type CRR } from './rules.js';

const created = '2024-05-01T10:00:00Z';
const t = (s: number) => Date.parse(created) + s * 1000;
const request = (o: { phase?: string; deadline?: number } = {}): CRR => ({
  metadata: { name: 'r', namespace: 'ns', creationTimestamp: created, labels: { 'crr.apps.kruise.io/pod-uid': 'u1' } },
  spec: { podName: 'p', containers: [{ name: 'app' }, { name: 'side' }], activeDeadlineSeconds: o.deadline },
  status: { phase: (o.phase ?? '') as 'Recreating', containerRecreateStates: [{ name: 'app', phase: 'Recreating' }, { name: 'side', phase: 'Succeeded' }] },
});

describe('timeVerdict', () => {
  test('a silent daemon is given 60 s, then the request completes', () => {
    assert.deepEqual(timeVerdict(request(), t(10)), { recheckMs: 50_000 });
    assert.deepEqual(timeVerdict(request(), t(60)), { complete: { message: 'daemon has not responded for a long time' } });
    assert.deepEqual(timeVerdict(request({ phase: 'Recreating' }), t(600)), { recheckMs: undefined });
  });

  test('the deadline fails the unfinished containers only', () => {
    assert.deepEqual(timeVerdict(request({ phase: 'Recreating', deadline: 5 }), t(2)), { recheckMs: 3000 });
    assert.deepEqual(timeVerdict(request({ phase: 'Recreating', deadline: 5 }), t(5)).complete, {
      message: 'recreating has exceeded the activeDeadlineSeconds',
      states: [{ name: 'app', phase: 'Failed', message: 'recreating has exceeded the activeDeadlineSeconds' }, { name: 'side', phase: 'Succeeded' }],
    });
  });
});

describe('containerSnapshot and podGone', () => {
  const pod = (startedAt: string, uid = 'u1'): Pod => ({
    metadata: { name: 'p', namespace: 'ns', uid }, spec: { containers: [] },
    status: { containerStatuses: [
      { name: 'app', image: 'i', imageID: '', ready: true, restartCount: 1, containerID: 'containerd://a1', state: { running: { startedAt } } },
      { name: 'side', image: 'i', imageID: '', ready: false, restartCount: 0, containerID: 'containerd://s0', state: { waiting: { reason: 'x' } } },
    ] },
  });
  test('only running attempts started since the request count', () => {
    assert.deepEqual(containerSnapshot(request(), pod('2024-05-01T10:00:03Z')), [{ name: 'app', ready: true, restartCount: 1, containerID: 'containerd://a1' }]);
    assert.deepEqual(containerSnapshot(request(), pod('2024-05-01T09:59:59Z')), []);
  });
  test('a missing, deleting or replaced pod is gone', () => {
    assert.equal(podGone(request(), undefined), true);
    assert.equal(podGone(request(), pod('2024-05-01T10:00:03Z', 'u2')), true);
    assert.equal(podGone(request(), pod('2024-05-01T10:00:03Z')), false);
  });
});
