import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CloneSet } from './pods.js';
import { calculateStatus, statusChanged } from './status.js';
import type { Pod } from '../../api/core/index.js';

const cs = (replicas: number, minReadySeconds = 0): CloneSet => ({
  metadata: { name: 'demo', namespace: 'default', generation: 4 },
  spec: { replicas, minReadySeconds, selector: { matchLabels: { app: 'demo' } }, template: {}, updateStrategy: { rollingUpdate: { partition: 1 } } },
} as unknown as CloneSet);

const pod = (revision: string, opts: { state?: string; ready?: boolean; readySince?: string; inPlaceReady?: boolean } = {}): Pod => ({
  metadata: { name: `demo-${Math.random()}`, labels: { 'controller-revision-hash': revision, ...(opts.state ? { 'lifecycle.apps.kruise.io/state': opts.state } : {}) } },
  spec: { containers: [] },
  status: {
    phase: 'Running',
    conditions: [
      { type: 'Ready', status: opts.ready === false ? 'False' as const : 'True' as const, lastTransitionTime: opts.readySince ?? '2026-01-01T00:00:00Z' },
      ...(opts.inPlaceReady === false ? [{ type: 'InPlaceUpdateReady', status: 'False' as const }] : []),
    ],
  },
});

const now = Date.parse('2026-01-01T00:01:00Z');
const input = { updateRevision: 'demo-new', currentRevision: 'demo-old', collisionCount: 0, now };

describe('calculateStatus', () => {
  test('counts ready, available and updated pods; lifecycle and InPlaceUpdateReady gate availability', () => {
    const pods = [
      pod('demo-new'), pod('demo-new', { state: 'PreparingNormal' }), pod('demo-old', { inPlaceReady: false }), pod('demo-old', { ready: false }),
    ];
    const { status } = calculateStatus(cs(4), pods, input);
    assert.deepEqual(status, {
      observedGeneration: 4, replicas: 4, readyReplicas: 2, availableReplicas: 1, updatedReplicas: 2, updatedReadyReplicas: 2,
      updatedAvailableReplicas: 1, expectedUpdatedReplicas: 3, updateRevision: 'demo-new', currentRevision: 'demo-old',
      collisionCount: 0, labelSelector: 'app=demo',
    });
  });

  test('currentRevision follows updateRevision once every pod is updated, ready or not', () => {
    const { status } = calculateStatus(cs(2), [pod('demo-new', { ready: false }), pod('new')], input);
    assert.equal(status.currentRevision, 'demo-new', 'a bare hash label counts as updated');
  });

  test('minReadySeconds delays availability and asks for a requeue', () => {
    const { status, requeueAfterMs } = calculateStatus(cs(1, 30), [pod('demo-new', { readySince: '2026-01-01T00:00:50Z' })], input);
    assert.equal(status.availableReplicas, 0);
    assert.equal(requeueAfterMs, 20_000);
  });

  test('a failure only adds a sticky condition; conditions alone do not force a write', () => {
    const first = calculateStatus(cs(1), [], input).status;
    const failed = calculateStatus({ ...cs(1), status: first }, [], { ...input, failure: { type: 'FailedScale', message: 'boom' } }).status;
    assert.deepEqual(failed.conditions?.map((c) => [c.type, c.status, c.message]), [['FailedScale', 'True', 'boom']]);
    assert.equal(statusChanged(first, failed), false);
    assert.equal(statusChanged(first, { ...failed, replicas: 2 }), true);
  });
});
