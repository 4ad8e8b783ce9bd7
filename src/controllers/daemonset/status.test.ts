import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { computeStatus, nextAvailableMs } from './status.js';
import { daemonSet, node, pod, T0, view } from './test-kit.js';

describe('computeStatus', () => {
  const nodes = [node('node-a'), node('node-b'), node('node-c'), node('node-x', {}, [{ key: 'k', effect: 'NoSchedule' }])];
  const now = T0 + 60_000;

  test('counts per node from its oldest pod; misscheduled pods on ineligible nodes; bare hash as updateRevision', () => {
    const ds = daemonSet({ minReadySeconds: 30 }, { observedGeneration: 1, collisionCount: 0 });
    const pods = [
      pod('node-a', { created: 1, readySince: 10 }), pod('node-a', { created: 2, hash: 'old', ready: false }),
      pod('node-b', { hash: 'old', readySince: 50 }),
      pod('node-x'),
      pod('node-c', { phase: 'Failed', deleting: true }),
    ];
    const status = computeStatus(ds, view(ds, nodes, pods), { hash: 'new', collisionCount: 0, now, fullPass: true });
    assert.deepEqual(status, {
      currentNumberScheduled: 2, numberMisscheduled: 1, desiredNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 1,
      numberAvailable: 1, numberUnavailable: 2, updateRevision: 'new', observedGeneration: 2, collisionCount: 0,
    });
    assert.equal(nextAvailableMs(ds, view(ds, nodes, pods), now), 20_000);
  });

  test('observedGeneration stays until a full pass; an InPlaceUpdateReady=False pod is not available', () => {
    const ds = daemonSet({}, { observedGeneration: 1 });
    const p = pod('node-a');
    p.spec.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
    p.status!.conditions!.push({ type: 'InPlaceUpdateReady', status: 'False' });
    const status = computeStatus(ds, view(ds, [node('node-a')], [p]), { hash: 'new', collisionCount: 0, now, fullPass: false });
    assert.equal(status.observedGeneration, 1);
    assert.equal(status.numberReady, 1);
    assert.equal(status.numberAvailable, 0);
    assert.equal(status.collisionCount, undefined);
  });
});
