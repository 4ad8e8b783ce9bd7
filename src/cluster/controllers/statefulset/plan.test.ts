import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { desiredClaimOwners, claimOwnersUpdate } from './claims.js';
import { ordinalOf } from './identity.js';
import { planStatefulSet, type Plan } from './plan.js';
import { computeStatus } from './status.js';
import { revisionLabel } from './types.js';
import type { Pod, StatefulSet, StatefulSetSpec } from '../../../api/core/index.js';

const now = Date.parse('2024-01-01T00:10:00Z');
const set = (spec: Partial<StatefulSetSpec>): StatefulSet => ({ metadata: { name: 'web', namespace: 'ns', uid: 'set-uid', generation: 3 }, spec: { replicas: 3, selector: {}, template: {}, ...spec } });
type State = 'pending' | 'ready' | 'running' | 'failed' | 'terminating';
const pod = (ordinal: number, state: State = 'ready', revision = 'web-a', readySince = now - 60_000): Pod => ({
  metadata: {
    name: `web-${ordinal}`, uid: `uid-${ordinal}`, labels: { [revisionLabel]: revision },
    ...(state === 'terminating' ? { deletionTimestamp: '2024-01-01T00:09:00Z' } : {}),
  },
  spec: { containers: [] },
  status: {
    phase: state === 'pending' ? 'Pending' : state === 'failed' ? 'Failed' : 'Running',
    conditions: [{ type: 'Ready', status: state === 'ready' || state === 'terminating' ? 'True' : 'False', lastTransitionTime: new Date(readySince).toISOString() }],
  },
});
const plan = (s: StatefulSet, pods: Pod[], update = 'web-a', current = 'web-a') => planStatefulSet({ set: s, pods, currentRevision: current, updateRevision: update, now });
const summary = (p: Plan) => p.steps.map((s) => (s.kind === 'create' ? `create ${s.ordinal} ${s.revision}` : `delete ${s.pod.metadata.name} ${s.why}`));

describe('planStatefulSet: OrderedReady', () => {
  test('creates one pod at a time, each after the previous is Running and Ready', () => {
    assert.deepEqual(summary(plan(set({}), [])), ['create 0 update']);
    const waiting = plan(set({}), [pod(0, 'pending')]);
    assert.deepEqual(summary(waiting), []);
    assert.match(waiting.waitingFor!, /web-0 to be Running and Ready/);
    assert.deepEqual(summary(plan(set({}), [pod(0, 'running')])), [], 'running but not ready still blocks');
    assert.deepEqual(summary(plan(set({}), [pod(0)])), ['create 1 update']);
    assert.deepEqual(summary(plan(set({}), [pod(0), pod(1)])), ['create 2 update']);
  });

  test('minReadySeconds: a pod must be available before the next starts', () => {
    assert.deepEqual(summary(plan(set({ minReadySeconds: 120 }), [pod(0)])), []);
    assert.deepEqual(summary(plan(set({ minReadySeconds: 30 }), [pod(0)])), ['create 1 update']);
  });

  test('scales down from the highest ordinal, one at a time, waiting for termination', () => {
    const five = [0, 1, 2, 3, 4].map((i) => pod(i));
    assert.deepEqual(summary(plan(set({}), five)), ['delete web-4 condemned']);
    assert.deepEqual(summary(plan(set({}), [...five.slice(0, 4), pod(4, 'terminating')])), []);
    assert.deepEqual(summary(plan(set({}), five.slice(0, 4))), ['delete web-3 condemned']);
  });

  test('an unhealthy replica blocks scale-down; the first unhealthy condemned pod may go', () => {
    assert.deepEqual(summary(plan(set({}), [pod(0), pod(1, 'pending'), pod(2), pod(3)])), []);
    assert.deepEqual(summary(plan(set({}), [pod(0), pod(1), pod(2), pod(3, 'pending'), pod(4, 'pending')])), [], 'web-3 is the first unhealthy');
    assert.deepEqual(summary(plan(set({}), [pod(0), pod(1), pod(2), pod(3, 'pending'), pod(4)])), ['delete web-4 condemned'], 'a healthy pod may go');
    assert.deepEqual(summary(plan(set({}), [pod(0), pod(1), pod(2), pod(3), pod(4, 'pending')])), ['delete web-4 condemned']);
  });

  test('a failed pod is deleted to be recreated', () => {
    assert.deepEqual(summary(plan(set({}), [pod(0), pod(1, 'failed'), pod(2)])), ['delete web-1 finished']);
  });

  test('ordinals.start shifts the ordinals', () => {
    const s = set({ ordinals: { start: 5 }, replicas: 2 });
    assert.deepEqual(summary(plan(s, [])), ['create 5 update']);
    assert.equal(ordinalOf(s, pod(6)), 6);
    assert.deepEqual(summary(plan(s, [pod(5), pod(6), pod(0)])), ['delete web-0 condemned']);
  });
});

describe('planStatefulSet: Parallel', () => {
  test('creates and deletes all at once', () => {
    assert.deepEqual(summary(plan(set({ podManagementPolicy: 'Parallel' }), [])), ['create 0 update', 'create 1 update', 'create 2 update']);
    const s = set({ podManagementPolicy: 'Parallel', replicas: 1 });
    assert.deepEqual(summary(plan(s, [pod(0, 'pending'), pod(1, 'pending'), pod(2)])), ['delete web-2 condemned', 'delete web-1 condemned']);
  });
});

describe('planStatefulSet: updates', () => {
  const rolling = (partition: number) => set({ replicas: 4, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition } } });
  const old = [0, 1, 2, 3].map((i) => pod(i));

  test('RollingUpdate replaces from the highest ordinal down, one healthy pod at a time', () => {
    assert.deepEqual(summary(plan(rolling(0), old, 'web-b')), ['delete web-3 update']);
    const rolled = [...old.slice(0, 3), pod(3, 'pending', 'web-b')];
    assert.deepEqual(summary(plan(rolling(0), rolled, 'web-b')), [], 'waits for web-3 at the new revision');
    assert.deepEqual(summary(plan(rolling(0), [...old.slice(0, 3), pod(3, 'ready', 'web-b')], 'web-b')), ['delete web-2 update']);
  });

  test('the partition keeps lower ordinals at the current revision, including new ones', () => {
    const upper = [pod(0), pod(1), pod(2, 'ready', 'web-b'), pod(3, 'ready', 'web-b')];
    assert.deepEqual(summary(plan(rolling(2), upper, 'web-b')), []);
    assert.deepEqual(summary(plan(rolling(2), [pod(0), pod(2, 'ready', 'web-b'), pod(3, 'ready', 'web-b')], 'web-b')), ['create 1 current']);
    assert.deepEqual(summary(plan(rolling(2), [pod(0), pod(1), pod(2, 'ready', 'web-b')], 'web-b')), ['create 3 update']);
  });

  test('OnDelete never deletes for an update; new pods get the update revision', () => {
    const s = set({ replicas: 4, updateStrategy: { type: 'OnDelete' } });
    assert.deepEqual(summary(plan(s, old, 'web-b')), []);
    assert.deepEqual(summary(plan(s, old.slice(0, 3), 'web-b')), ['create 3 update']);
  });
});

test('computeStatus counts pods and completes the rollout when all are updated and ready', () => {
  const s = set({ replicas: 2 });
  const mid = computeStatus({ set: s, pods: [pod(0), pod(1, 'pending', 'web-b')], currentRevision: 'web-a', updateRevision: 'web-b', collisionCount: 0, now });
  assert.deepEqual([mid.replicas, mid.readyReplicas, mid.currentReplicas, mid.updatedReplicas, mid.currentRevision], [2, 1, 1, 1, 'web-a']);
  const done = computeStatus({ set: s, pods: [pod(0, 'ready', 'web-b'), pod(1, 'ready', 'web-b')], currentRevision: 'web-a', updateRevision: 'web-b', collisionCount: 0, now });
  assert.deepEqual([done.currentReplicas, done.updatedReplicas, done.currentRevision, done.observedGeneration], [2, 2, 'web-b', 3]);
});

test('claim owners follow the retention policy', () => {
  const p = pod(3);
  const both = set({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' } });
  assert.deepEqual(desiredClaimOwners(both, p, false).map((r) => r.kind), ['StatefulSet']);
  assert.deepEqual(desiredClaimOwners(both, p, true).map((r) => r.kind), ['Pod']);
  const retain = set({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' } });
  assert.deepEqual(desiredClaimOwners(retain, p, true), []);
  const claim = { metadata: { name: 'data-web-3', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'set-uid', controller: true }] } };
  assert.deepEqual(claimOwnersUpdate(claim, both, p, desiredClaimOwners(both, p, true))?.map((r) => r.uid), ['uid-3']);
  assert.equal(claimOwnersUpdate(claim, both, p, desiredClaimOwners(both, p, false)), undefined, 'already right');
});
