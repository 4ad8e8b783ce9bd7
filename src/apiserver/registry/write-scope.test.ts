/** What an update may change per endpoint and kind, before and after mutating admission. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { StatusError } from '../../machinery/errors.js';
import type { ServedResource } from './served-resource.js';
import { scopeAdmitted, scopeRequest } from './write-scope.js';

const served = (group: string, plural: string, extra: Partial<ServedResource> = {}): ServedResource => ({
  definition: { group, version: 'v1', kind: 'K', listKind: 'KList', plural, singular: 'k', namespaced: true, verbs: [], subresources: { status: true } },
  strategy: {}, tracksGeneration: true, storagePrefix: `/${plural}`, storageApiVersion: 'v1', schemaIsAuthoritative: false,
  convert: async (o) => o, ...extra,
});
const pods = served('', 'pods');
const deployments = served('apps', 'deployments');
const widgets = served('example.com', 'widgets', { crdName: 'widgets.example.com', schemaIsAuthoritative: true });

const old: KObject = {
  apiVersion: 'v1', kind: 'K',
  metadata: {
    name: 'o', namespace: 'ns', uid: 'u-1', resourceVersion: '7', generation: 3, creationTimestamp: '2024-01-01T00:00:00Z',
    labels: { a: '1' }, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u-0' }],
  },
  spec: { size: 1 }, status: { ready: 1 },
};

/** A request that changes everything it can: spec, status, labels, annotations, owners and server fields. */
const everything = (): KObject => ({
  apiVersion: 'v1', kind: 'K',
  metadata: { name: 'o', namespace: 'ns', labels: { a: '2' }, annotations: { n: 'x' }, ownerReferences: [], generation: 40, creationTimestamp: '1999-01-01T00:00:00Z' },
  spec: { size: 9 }, status: { ready: 9 },
});

describe('write scope', () => {
  test('/status of a custom resource changes only status', () => {
    const obj = scopeRequest(widgets, old, everything(), 'status');
    assert.deepEqual(obj.spec, { size: 1 });
    assert.deepEqual(obj.status, { ready: 9 });
    assert.deepEqual(obj.metadata, old.metadata);
  });

  test('/status of a built-in kind keeps metadata changes except what its status strategy resets', () => {
    const pod = scopeRequest(pods, old, everything(), 'status');
    assert.deepEqual(pod.spec, { size: 1 });
    assert.deepEqual([pod.metadata.labels, pod.metadata.annotations], [{ a: '2' }, { n: 'x' }]);
    assert.deepEqual(pod.metadata.ownerReferences, old.metadata.ownerReferences, 'pods: ownerReferences are reset');
    const deployment = scopeRequest(deployments, old, everything(), 'status');
    assert.deepEqual(deployment.metadata.labels, { a: '1' }, 'Deployments: labels are reset');
    assert.deepEqual(deployment.metadata.ownerReferences, []);
  });

  test('the main resource of a kind with a status subresource keeps the stored status; server fields stay the server\'s', () => {
    const obj = scopeRequest(pods, old, everything(), undefined);
    assert.deepEqual([obj.spec, obj.status], [{ size: 9 }, { ready: 1 }]);
    const m = obj.metadata;
    assert.deepEqual([m.uid, m.resourceVersion, m.generation, m.creationTimestamp], ['u-1', '7', 3, '2024-01-01T00:00:00Z']);
  });

  test('after admission, a changed name or uid is left for validation to refuse; a changed namespace is a 400', () => {
    const renamed = everything();
    renamed.metadata = { ...renamed.metadata, name: 'other', uid: 'u-2' };
    const admitted = scopeAdmitted(pods, old, renamed, undefined);
    assert.deepEqual([admitted.metadata.name, admitted.metadata.uid], ['other', 'u-2']);
    const moved = everything();
    moved.metadata = { ...moved.metadata, namespace: 'elsewhere' };
    assert.throws(() => scopeAdmitted(pods, old, moved, undefined), (e: StatusError) =>
      e.code === 400 && e.message === 'the namespace of the provided object does not match the namespace sent on the request');
    const unnamed = everything();
    unnamed.metadata = { ...unnamed.metadata, name: undefined, namespace: undefined };
    const filled = scopeAdmitted(pods, old, unnamed, 'status');
    assert.deepEqual([filled.metadata.name, filled.metadata.namespace, filled.metadata.uid], ['o', 'ns', 'u-1']);
  });
});
