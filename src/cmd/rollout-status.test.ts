import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cloneSetStatus, daemonSetStatus, statefulSetStatus } from './rollout-status.js';

const cs = (spec: Record<string, unknown>, status: Record<string, unknown>, generation = 2) =>
  ({ metadata: { name: 'demo', generation }, spec: { replicas: 3, ...spec }, status: { observedGeneration: 2, ...status } });

test('CloneSet: waits for the spec to be observed, then for updated, old and available replicas', () => {
  assert.deepEqual(cloneSetStatus(cs({}, {}, 3)), { message: 'Waiting for CloneSet spec update to be observed...', done: false });
  assert.equal(cloneSetStatus(cs({}, { replicas: 3, updatedReplicas: 1 })).message, 'Waiting for CloneSet "demo" rollout to finish: 1 out of 3 new replicas have been updated...');
  assert.equal(cloneSetStatus(cs({}, { replicas: 4, updatedReplicas: 3 })).message, 'Waiting for CloneSet "demo" rollout to finish: 1 old replicas are pending termination...');
  assert.equal(cloneSetStatus(cs({}, { replicas: 3, updatedReplicas: 3, updatedAvailableReplicas: 2 })).message, 'Waiting for CloneSet "demo" rollout to finish: 2 of 3 updated replicas are available...');
  assert.deepEqual(cloneSetStatus(cs({}, { replicas: 3, updatedReplicas: 3, updatedAvailableReplicas: 3, availableReplicas: 3, updateRevision: 'demo-abc' })),
    { message: 'CloneSet rolling update complete 3 pods at revision demo-abc...', done: true });
});

test('CloneSet: a partition is done once its updated pods are available; a passed deadline is an error', () => {
  const spec = { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: '40%' } } };
  assert.equal(cloneSetStatus(cs(spec, { replicas: 3, updatedReplicas: 1, expectedUpdatedReplicas: 1, updatedAvailableReplicas: 0 })).message,
    'Waiting for partitioned roll out to finish: 0 of 1 updated pods are available...');
  assert.deepEqual(cloneSetStatus(cs(spec, { replicas: 3, updatedReplicas: 1, expectedUpdatedReplicas: 1, updatedAvailableReplicas: 1 })),
    { message: 'partitioned roll out complete: 1 new pods have been updated...', done: true });
  assert.throws(() => cloneSetStatus(cs({}, { conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] })),
    { message: 'CloneSet "demo" exceeded its progress deadline' });
});

test('Advanced StatefulSet and DaemonSet: OnDelete has no rollout status; partitions count as done', () => {
  assert.throws(() => statefulSetStatus(cs({ updateStrategy: { type: 'OnDelete' } }, {})), { message: 'rollout status is only available for RollingUpdate strategy type' });
  assert.deepEqual(statefulSetStatus(cs({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }, { readyReplicas: 3, updatedReplicas: 1 })),
    { message: 'partitioned roll out complete: 1 new pods have been updated...', done: true });
  assert.equal(statefulSetStatus(cs({}, { readyReplicas: 1 })).message, 'Waiting for 2 pods to be ready...');
  const ds = (partition: string | undefined, status: Record<string, unknown>) => cs({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition } } }, status);
  assert.equal(daemonSetStatus(ds(undefined, { desiredNumberScheduled: 4, updatedNumberScheduled: 2 })).message,
    'Waiting for daemon set "demo" rollout to finish: 2 out of 4 new pods have been updated...');
  assert.deepEqual(daemonSetStatus(ds('50%', { desiredNumberScheduled: 5, updatedNumberScheduled: 3, numberAvailable: 5 })),
    { message: 'partitioned roll out complete: 3 new pods have been updated...', done: true });
  assert.deepEqual(daemonSetStatus(ds(undefined, { desiredNumberScheduled: 4, updatedNumberScheduled: 4, numberAvailable: 4 })),
    { message: 'daemon set "demo" successfully rolled out', done: true });
});
