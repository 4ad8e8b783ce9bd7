import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { maxRevision, setNewReplicaSetAnnotations } from './annotations.js';
import { replicaSetsToDelete } from './cleanup.js';
import { equalIgnoreHash, findNewReplicaSet, newReplicaSetObject, templateHash } from './replica-sets.js';
import type { Deployment, ReplicaSet } from '../../../api/core/index.js';

const template = (image: string) => ({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } });
const deployment = (annotations: Record<string, string> = {}): Deployment => ({
  metadata: { name: 'web', namespace: 'default', uid: 'd-uid', annotations },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: template('nginx:1'), revisionHistoryLimit: 1 },
});
const rs = (name: string, annotations: Record<string, string>, o: { replicas?: number; day?: number; image?: string } = {}): ReplicaSet => ({
  metadata: { name, uid: name, annotations, creationTimestamp: `2024-01-0${o.day ?? 1}T00:00:00Z`, generation: 1 },
  spec: { replicas: o.replicas ?? 0, selector: { matchLabels: { app: 'web' } }, template: template(o.image ?? 'nginx:0') }, status: { replicas: o.replicas ?? 0, observedGeneration: 1 },
});

describe('revision annotations', () => {
  test('a new ReplicaSet gets the next revision, the replicas annotations and the deployment annotations', () => {
    const d = deployment({ 'kubernetes.io/change-cause': 'bump', 'kubectl.kubernetes.io/last-applied-configuration': '{}', 'deployment.kubernetes.io/revision': '2' });
    const created = newReplicaSetObject(d);
    assert.equal(setNewReplicaSetAnnotations(d, created, 3, false, 3, 4), true);
    assert.deepEqual(created.metadata.annotations, {
      'kubernetes.io/change-cause': 'bump', 'deployment.kubernetes.io/revision': '3',
      'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4',
    });
  });

  test('rolling back to an old ReplicaSet moves it to the newest revision and keeps the old one in history', () => {
    const old = rs('web-a', { 'deployment.kubernetes.io/revision': '1', 'deployment.kubernetes.io/revision-history': '' });
    assert.equal(setNewReplicaSetAnnotations(deployment(), old, 3, true, 3, 4), true);
    assert.equal(old.metadata.annotations?.['deployment.kubernetes.io/revision'], '3');
    assert.equal(old.metadata.annotations?.['deployment.kubernetes.io/revision-history'], '1');
    assert.equal(old.metadata.annotations?.['deployment.kubernetes.io/desired-replicas'], undefined, 'existing ones are scaled separately');
    setNewReplicaSetAnnotations(deployment(), old, 5, true, 3, 4);
    assert.equal(old.metadata.annotations?.['deployment.kubernetes.io/revision-history'], '1,3');
    assert.equal(setNewReplicaSetAnnotations(deployment(), old, 5, true, 3, 4), false, 'nothing left to change');
  });

  test('a higher existing revision is never lowered', () => {
    const current = rs('web-b', { 'deployment.kubernetes.io/revision': '7' });
    assert.equal(setNewReplicaSetAnnotations(deployment(), current, 4, true, 3, 4), false);
    assert.equal(current.metadata.annotations?.['deployment.kubernetes.io/revision'], '7');
    assert.equal(maxRevision([current, rs('x', { 'deployment.kubernetes.io/revision': 'junk' }), rs('y', {})]), 7);
  });
});

describe('new ReplicaSet identity', () => {
  test('named <deployment>-<hash>, the hash label on labels, selector and template; found again ignoring it', () => {
    const d = deployment();
    const created = newReplicaSetObject(d);
    const hash = templateHash(d);
    assert.equal(created.metadata.name, `web-${hash}`);
    assert.deepEqual(created.spec?.selector, { matchLabels: { app: 'web', 'pod-template-hash': hash } });
    assert.equal(created.spec?.template?.metadata?.labels?.['pod-template-hash'], hash);
    assert.equal(created.metadata.ownerReferences?.[0].uid, 'd-uid');
    assert.ok(equalIgnoreHash(created.spec?.template, d.spec?.template));
    assert.equal(findNewReplicaSet(d, [rs('other', {}), { ...created, metadata: { ...created.metadata, creationTimestamp: '2024-01-05T00:00:00Z' } }])?.metadata.name, created.metadata.name);
    assert.notEqual(templateHash({ ...d, status: { collisionCount: 1 } }), hash);
    assert.ok(equalIgnoreHash({ metadata: { labels: { 'pod-template-hash': 'x' } } }, { metadata: {} }), 'empty and absent labels are equal');
  });
});

describe('history cleanup', () => {
  test('deletes the lowest revisions beyond the limit, only when fully scaled down', () => {
    const r1 = rs('r1', { 'deployment.kubernetes.io/revision': '1' }, { day: 3 });
    const r2 = rs('r2', { 'deployment.kubernetes.io/revision': '2' }, { day: 1, replicas: 1 });
    const r3 = rs('r3', { 'deployment.kubernetes.io/revision': '3' }, { day: 2 });
    assert.deepEqual(replicaSetsToDelete(deployment(), [r3, r2, r1]).map((r) => r.metadata.name), ['r1']);
    assert.deepEqual(replicaSetsToDelete({ ...deployment(), spec: { ...deployment().spec, revisionHistoryLimit: 0 } }, [r3, r1]).map((r) => r.metadata.name), ['r1', 'r3']);
    assert.deepEqual(replicaSetsToDelete({ ...deployment(), spec: { ...deployment().spec, revisionHistoryLimit: undefined } }, [r3, r1]), []);
  });
});
