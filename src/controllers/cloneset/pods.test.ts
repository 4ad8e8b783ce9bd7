import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newRevision } from '../../control/revision/index.js';
import { newCloneSetPod, newInstanceIds, type CloneSet } from './pods.js';

const cs = {
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: 'demo', namespace: 'default', uid: 'u1' },
  spec: {
    replicas: 1, selector: { matchLabels: { app: 'demo' } },
    template: { metadata: { labels: { app: 'demo' } }, spec: { containers: [{ name: 'web', image: 'nginx' }], volumes: [{ name: 'data', emptyDir: {} }] } },
    volumeClaimTemplates: [{ metadata: { name: 'data', labels: { tier: 'db' } }, spec: { accessModes: ['ReadWriteOnce'] } }],
  },
} as unknown as CloneSet;

test('a new pod carries revision, instance id and PreparingNormal; its PVC replaces the same-named volume', () => {
  const revision = newRevision(cs, { spec: { template: cs.spec.template as unknown as Record<string, unknown> } }, 1, 0);
  const { pod, claims } = newCloneSetPod(cs, revision, 'abcde', new Date('2026-01-01T00:00:00.123Z'));
  assert.equal(pod.metadata.name, 'demo-abcde');
  assert.deepEqual(pod.metadata.labels, {
    app: 'demo', 'controller-revision-hash': revision.metadata.name, 'pod-template-hash': revision.metadata.name!.slice(5),
    'apps.kruise.io/cloneset-instance-id': 'abcde', 'lifecycle.apps.kruise.io/state': 'PreparingNormal',
  });
  assert.equal(pod.metadata.annotations?.['lifecycle.apps.kruise.io/timestamp'], '2026-01-01T00:00:00Z');
  assert.deepEqual(pod.spec.readinessGates, [{ conditionType: 'InPlaceUpdateReady' }]);
  assert.deepEqual(pod.spec.volumes, [{ name: 'data', persistentVolumeClaim: { claimName: 'data-demo-abcde' } }]);
  assert.equal(claims.length, 1);
  assert.equal(claims[0]!.metadata.name, 'data-demo-abcde');
  assert.deepEqual(claims[0]!.metadata.labels, { tier: 'db', app: 'demo', 'apps.kruise.io/cloneset-instance-id': 'abcde' });
  assert.equal(claims[0]!.metadata.ownerReferences?.[0]?.uid, 'u1');
});

test('instance ids are 5 chars of the safe alphabet and skip taken ones', () => {
  const seq = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0.99, 0.99, 0, 0, 0, 0];
  let i = 0;
  const ids = newInstanceIds(2, new Set(['bbbbb']), () => seq[i++]!);
  assert.deepEqual(ids, ['bbbb9', '9bbbb']);
});
