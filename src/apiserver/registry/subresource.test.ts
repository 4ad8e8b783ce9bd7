/**
 * The subresource table each served resource carries: generic status and scale from the
 * definition, the rest declared with the resource, and nothing else served.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinServedResources } from '../builtin-served.js';
import { crdResources } from './crd-resources.js';
import { servesSubresource, type SubresourceVerb } from './subresource.js';
import type { ServedResource } from './served-resource.js';

const verbs: SubresourceVerb[] = ['get', 'create', 'update', 'patch'];
const served = builtinServedResources();
const find = (group: string, plural: string) => served.find((r) => r.definition.group === group && r.definition.plural === plural)!;
const table = (r: ServedResource) => Object.fromEntries([...(r.subresources ?? new Map()).keys()].sort()
  .map((sub) => [sub, verbs.filter((v) => servesSubresource(r, sub, v)).join(',')]));

test('built-in resources serve the subresources they declare, with the verbs kube serves', () => {
  assert.deepEqual(table(find('', 'pods')), { binding: 'create', ephemeralcontainers: 'get,update,patch', eviction: 'create', log: 'get', status: 'get,update,patch' });
  assert.deepEqual(table(find('', 'namespaces')), { finalize: 'update', status: 'get,update,patch' });
  assert.deepEqual(table(find('apps', 'deployments')), { scale: 'get,update,patch', status: 'get,update,patch' });
  assert.deepEqual(table(find('', 'configmaps')), {});
});

test('a CRD version serves status and scale as its subresources ask', () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' },
      versions: [
        { name: 'v1', served: true, storage: true, subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } } },
        { name: 'v2', served: true, storage: false },
      ],
    },
  };
  const [v1, v2] = crdResources(crd);
  assert.deepEqual(table(v1), { scale: 'get,update,patch', status: 'get,update,patch' });
  assert.deepEqual(table(v2), {});
  assert.equal(servesSubresource(v1, 'binding', 'create'), false);
});
