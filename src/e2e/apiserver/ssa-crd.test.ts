/** Server-side apply on a custom resource merges lists by the schema's x-kubernetes-list-type: map keys. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { apiClientFromKubeconfig, type ApiClient } from '../../testing/process.js';

let env: TestControlPlane;
let api: ApiClient;
before(async () => {
  env = await startTestControlPlane();
  api = await apiClientFromKubeconfig(env.kubeconfig);
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: {
        parts: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, size: { type: 'integer' } } } },
        tags: { type: 'array', items: { type: 'string' } },
      } } } } } }],
    },
  };
  assert.equal((await api.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status, 201);
  for (let i = 0; i < 100 && (await api.request('GET', '/apis/example.com/v1/namespaces/default/gadgets')).status !== 200; i++) await new Promise((r) => setTimeout(r, 50));
});
after(async () => { await env.stop(); });

const apply = (manager: string, spec: unknown) => api.request('PATCH', `/apis/example.com/v1/namespaces/default/gadgets/g?fieldManager=${manager}`,
  { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec }, { 'content-type': 'application/apply-patch+yaml' });

test('two managers own different items of a list-map; an atomic list is replaced whole', async () => {
  assert.equal((await apply('a', { parts: [{ name: 'x', size: 1 }], tags: ['one'] })).status, 201);
  const b = await apply('b', { parts: [{ name: 'y', size: 2 }] });
  assert.equal(b.status, 200, b.text);
  assert.deepEqual(b.body.spec.parts.map((p: { name: string }) => p.name).sort(), ['x', 'y']);
  const conflict = await apply('b', { tags: ['two'] });
  assert.equal(conflict.status, 409, 'the atomic list belongs to manager a');
  const removed = await apply('a', { tags: ['one'] });
  assert.deepEqual(removed.body.spec.parts.map((p: { name: string }) => p.name), ['y'], 'a dropped its item, b keeps its own');
});
