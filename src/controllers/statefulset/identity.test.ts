import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { identityDrift, newStatefulSetPod, storageMatches } from './identity.js';
import { defaultGates, pod, revision, set, withGates } from './test-kit.js';

const now = new Date('2024-01-01T00:00:00Z');
const data = { metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1Gi' } } } };

describe('pod identity', () => {
  test('a new pod: name, identity and revision labels, hostname, subdomain, owner, lifecycle Normal', () => {
    const p = newStatefulSetPod(set(), revision('web-abc', 'img:2'), 2, defaultGates, now);
    assert.equal(p.metadata.name, 'web-2');
    assert.deepEqual(p.metadata.labels, {
      app: 'web', 'statefulset.kubernetes.io/pod-name': 'web-2', 'apps.kubernetes.io/pod-index': '2',
      'controller-revision-hash': 'web-abc', 'lifecycle.apps.kruise.io/state': 'Normal',
    });
    assert.equal(p.metadata.annotations?.['lifecycle.apps.kruise.io/timestamp'], '2024-01-01T00:00:00Z');
    assert.deepEqual([p.spec.hostname, p.spec.subdomain, p.spec.containers[0]!.image], ['web-2', 'svc', 'img:2']);
    assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'web', uid: 'set-uid', controller: true, blockOwnerDeletion: true }]);
    assert.equal(p.spec.readinessGates, undefined);
  });

  test('pod-index only with gate PodIndexLabel; PreparingNormal while a preNormal hook is not on the pod', () => {
    const s = set({ lifecycle: { preNormal: { labelsHandler: { ready: 'yes' } } } });
    const p = newStatefulSetPod(s, revision('web-abc'), 0, withGates([]), now);
    assert.equal(p.metadata.labels?.['apps.kubernetes.io/pod-index'], undefined);
    assert.equal(p.metadata.labels?.['lifecycle.apps.kruise.io/state'], 'PreparingNormal');
  });

  test('claim templates replace same-named template volumes with the ordinal claim', () => {
    const s = set({ volumeClaimTemplates: [data], template: {
      metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app' }], volumes: [{ name: 'data', emptyDir: {} }, { name: 'tmp', emptyDir: {} }] },
    } });
    const p = newStatefulSetPod(s, { ...revision('web-x'), data: undefined }, 1, defaultGates, now);
    assert.deepEqual(p.spec.volumes, [{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-1' } }, { name: 'tmp', emptyDir: {} }]);
    assert.equal(storageMatches(s, p), true);
    assert.equal(storageMatches(s, pod('web-1')), false);
  });

  test('identity drift lists the labels to fix', () => {
    const p = pod('web-1', { labels: { 'statefulset.kubernetes.io/pod-name': 'web-1' } });
    assert.deepEqual(identityDrift(set(), p, defaultGates), { 'apps.kubernetes.io/pod-index': '1' });
    assert.deepEqual(identityDrift(set(), p, withGates([])), {});
  });
});
