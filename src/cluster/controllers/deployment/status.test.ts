import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pausedConditions, progressCheckInMs, rolloutStatus } from './status.js';
import type { Deployment, DeploymentStatus, ReplicaSet } from '../../../api/core/index.js';

const t0 = Date.parse('2024-01-01T00:00:00Z');
const at = (s: number) => t0 + s * 1000;
const stamp = (s: number) => new Date(at(s)).toISOString().replace(/\.\d{3}Z$/, 'Z');

const deployment = (status: DeploymentStatus = {}, spec: Partial<NonNullable<Deployment['spec']>> = {}): Deployment => ({
  metadata: { name: 'web', generation: 2 },
  spec: { replicas: 3, selector: {}, template: {}, progressDeadlineSeconds: 60, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }, ...spec },
  status,
});
const rs = (name: string, replicas: number, ready: number, available: number): ReplicaSet => ({
  metadata: { name }, spec: { replicas, selector: {} }, status: { replicas, readyReplicas: ready, availableReplicas: available },
});
const progressing = (s: DeploymentStatus) => s.conditions?.find((c) => c.type === 'Progressing');
const availableCond = (s: DeploymentStatus) => s.conditions?.find((c) => c.type === 'Available');

describe('deployment status', () => {
  test('counts come from the ReplicaSets; Available follows minimum availability', () => {
    const s = rolloutStatus([rs('old', 2, 2, 2), rs('new', 2, 1, 0)], rs('new', 2, 1, 0), deployment(), at(0));
    assert.equal(s.observedGeneration, 2);
    assert.deepEqual([s.replicas, s.updatedReplicas, s.readyReplicas, s.availableReplicas, s.unavailableReplicas], [4, 2, 3, 2, 2]);
    assert.deepEqual(availableCond(s), {
      type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.',
      lastUpdateTime: stamp(0), lastTransitionTime: stamp(0),
    });
  });

  test('progress refreshes lastUpdateTime but keeps lastTransitionTime', () => {
    const before = deployment({ replicas: 3, updatedReplicas: 1, conditions: [
      { type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated', message: 'x', lastUpdateTime: stamp(0), lastTransitionTime: stamp(0) }] });
    const s = rolloutStatus([rs('old', 2, 2, 2), rs('new', 2, 2, 2)], rs('new', 2, 2, 2), before, at(30));
    assert.deepEqual(progressing(s), {
      type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: 'ReplicaSet "new" is progressing.',
      lastUpdateTime: stamp(30), lastTransitionTime: stamp(0),
    });
    assert.equal(progressCheckInMs(before, s, at(30)), 60_001);
  });

  test('a complete rollout says NewReplicaSetAvailable and stops estimating', () => {
    const s = rolloutStatus([rs('old', 0, 0, 0), rs('new', 3, 3, 3)], rs('new', 3, 3, 3), deployment({ replicas: 4, updatedReplicas: 3 }), at(5));
    assert.equal(progressing(s)?.reason, 'NewReplicaSetAvailable');
    assert.equal(progressing(s)?.message, 'ReplicaSet "new" has successfully progressed.');
    assert.equal(availableCond(s)?.status, 'True');
    assert.equal(s.unavailableReplicas, undefined, 'zero counts are omitted');
    assert.equal(progressCheckInMs(deployment(), s, at(5)), undefined);
  });

  test('no progress past the deadline is ProgressDeadlineExceeded', () => {
    const stuck: DeploymentStatus = { replicas: 4, updatedReplicas: 1, readyReplicas: 3, availableReplicas: 3, conditions: [
      { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: 'x', lastUpdateTime: stamp(0), lastTransitionTime: stamp(0) }] };
    const all = [rs('old', 3, 3, 3), rs('new', 1, 0, 0)];
    assert.equal(progressing(rolloutStatus(all, all[1], deployment(stuck), at(59)))?.reason, 'ReplicaSetUpdated');
    const late = rolloutStatus(all, all[1], deployment(stuck), at(61));
    assert.deepEqual(progressing(late), {
      type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "new" has timed out progressing.',
      lastUpdateTime: stamp(61), lastTransitionTime: stamp(61),
    });
  });

  test('a ReplicaSet failure is surfaced; no deadline means no Progressing condition', () => {
    const failing = { ...rs('new', 3, 0, 0), status: { replicas: 0, conditions: [{ type: 'ReplicaFailure', status: 'True' as const, reason: 'FailedCreate', message: 'quota', lastTransitionTime: stamp(1) }] } };
    const s = rolloutStatus([failing], failing, deployment({}, { progressDeadlineSeconds: 2147483647 }), at(2));
    assert.equal(progressing(s), undefined);
    assert.deepEqual(s.conditions?.find((c) => c.type === 'ReplicaFailure'), { type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'quota', lastTransitionTime: stamp(1), lastUpdateTime: stamp(1) });
  });

  test('pausing and resuming are recorded once as Progressing Unknown', () => {
    const paused = pausedConditions(deployment({}, { paused: true }), at(0))!;
    assert.deepEqual(paused.map((c) => [c.status, c.reason, c.message]), [['Unknown', 'DeploymentPaused', 'Deployment is paused']]);
    assert.equal(pausedConditions(deployment({ conditions: paused }, { paused: true }), at(1)), undefined);
    assert.equal(pausedConditions(deployment({ conditions: paused }), at(2))![0].reason, 'DeploymentResumed');
  });
});
