import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FailedPodBackoff } from './failed-backoff.js';
import { newDaemonPod } from './pod-template.js';
import { availability, oldestFirst, updatedPodsOnNode } from './pods.js';
import { daemonSet, pod, T0 } from './test-kit.js';

describe('newDaemonPod', () => {
  test('generateName, bare hash label, pinned affinity, daemon tolerations, owner; no gate under Standard', () => {
    const ds = daemonSet();
    ds.spec.template.spec = { containers: [{ name: 'c', image: 'img' }], tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] } as never;
    const p = newDaemonPod(ds, 'node-a', 'abc123');
    assert.equal(p.metadata.generateName, 'ds-');
    assert.deepEqual(p.metadata.labels, { app: 'ds', 'controller-revision-hash': 'abc123' });
    assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', name: 'ds', uid: 'ds-uid', controller: true, blockOwnerDeletion: true }]);
    assert.deepEqual(p.spec.affinity, { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-a'] }] }] } } });
    assert.equal(p.spec.tolerations?.length, 6, 'the template toleration is not duplicated');
    assert.equal(p.spec.readinessGates, undefined);
    assert.equal(p.spec.nodeName, undefined, 'the scheduler binds it');
  });

  test('InPlaceIfPossible adds the InPlaceUpdateReady gate; the deprecated generation annotation adds its label', () => {
    const ds = daemonSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 1 } } });
    ds.metadata.annotations = { 'deprecated.daemonset.template.generation': '3' };
    const p = newDaemonPod(ds, 'node-b', 'h');
    assert.deepEqual(p.spec.readinessGates, [{ conditionType: 'InPlaceUpdateReady' }]);
    assert.equal(p.metadata.labels?.['pod-template-generation'], '3');
  });
});

describe('daemon pod facts', () => {
  test('oldest first: bound pods, then creation time, then name', () => {
    const unbound = pod('n', { bound: false, created: 0 });
    const late = pod('n', { created: 9 });
    const early = pod('n', { created: 1 });
    assert.deepEqual([unbound, late, early].sort(oldestFirst), [early, late, unbound]);
  });

  test('updatedPodsOnNode skips terminating pods and refuses doubles', () => {
    const fresh = pod('n');
    const old = pod('n', { hash: 'old' });
    assert.deepEqual(updatedPodsOnNode([fresh, old, pod('n', { deleting: true })], 'new', daemonSet()), { newPod: fresh, oldPod: old, ok: true });
    assert.equal(updatedPodsOnNode([fresh, pod('n')], 'new', daemonSet()).ok, false);
  });

  test('availability waits minReadySeconds from the Ready transition', () => {
    assert.deepEqual(availability(pod('n', { readySince: 10 }), 30, T0 + 25_000), { available: false, waitMs: 15_000 });
    assert.deepEqual(availability(pod('n', { readySince: 10 }), 30, T0 + 40_000), { available: true });
    assert.deepEqual(availability(pod('n', { ready: false }), 0, T0), { available: false });
  });

  test('failed-pod back-off doubles per key up to the maximum', () => {
    const b = new FailedPodBackoff({ initialMs: 1_000, maxMs: 3_000 });
    assert.equal(b.remaining('k', 0), 0);
    b.next('k', 0);
    assert.equal(b.remaining('k', 400), 600);
    b.next('k', 1_000);
    assert.equal(b.remaining('k', 1_000), 2_000);
    b.next('k', 3_000);
    assert.equal(b.remaining('k', 3_000), 3_000);
    assert.equal(b.remaining('other', 3_000), 0);
  });
});
