/** Reads and writes through both clients against a real embedded control plane. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../api/meta.js';
import { ConfigMaps, Deployments, Namespaces, Pods } from '../api/resource-type.js';
import { startTestControlPlane, type TestControlPlane } from '../testing/control-plane.js';
import type { Client } from './client.js';
import { configMap, deployment, factories, pod, rejectsWith } from './client-testkit.test.js';

for (const [name, makeClient] of factories) {
  describe(`${name} client: reads and writes`, () => {
    let env: TestControlPlane;
    let client: Client;
    const ns = 'crud';

    before(async () => {
      env = await startTestControlPlane();
      client = makeClient(env);
      await client.create(Namespaces, { metadata: { name: ns } });
    });
    after(() => env.stop());

    test('ConfigMap create, get, update, delete', async () => {
      const created = await client.create(ConfigMaps, configMap(ns, 'cm1', { a: '1' }));
      assert.equal(created.metadata.uid !== undefined, true);
      assert.equal(created.metadata.managedFields?.[0]?.manager, 'kruise-ts', 'field manager derived from the user agent');
      const got = await client.get(ConfigMaps, ns, 'cm1');
      assert.deepEqual(got.data, { a: '1' });
      const updated = await client.update(ConfigMaps, { ...got, data: { a: '2' } });
      assert.deepEqual(updated.data, { a: '2' });
      assert.notEqual(updated.metadata.resourceVersion, got.metadata.resourceVersion);
      await client.delete(ConfigMaps, ns, 'cm1');
      await rejectsWith(client.get(ConfigMaps, ns, 'cm1'), 404, 'NotFound');
    });

    test('Pod and Deployment create, get, delete; cluster-scoped Namespace get', async () => {
      await client.create(Pods, pod(ns, 'p1'));
      assert.equal((await client.get<KObject & { spec: { containers: unknown[] } }>(Pods, ns, 'p1')).spec.containers.length, 1);
      await client.delete(Pods, ns, 'p1', { gracePeriodSeconds: 0 });
      await rejectsWith(client.get(Pods, ns, 'p1'), 404, 'NotFound');
      const d = await client.create(Deployments, deployment(ns, 'd1'));
      assert.equal(d.metadata.generation, 1);
      assert.equal((await client.get(Namespaces, undefined, ns)).metadata.name, ns);
    });

    test('errors: 404, 409 AlreadyExists and Conflict, 422 Invalid, 400 for a missing namespace', async () => {
      const missing = await rejectsWith(client.get(ConfigMaps, ns, 'nope'), 404, 'NotFound');
      assert.equal(missing.message, 'configmaps "nope" not found');
      const first = await client.create(ConfigMaps, configMap(ns, 'dup'));
      await rejectsWith(client.create(ConfigMaps, configMap(ns, 'dup')), 409, 'AlreadyExists');
      await client.update(ConfigMaps, { ...first, data: { x: 'y' } });
      await rejectsWith(client.update(ConfigMaps, { ...first, data: { x: 'stale' } }), 409, 'Conflict');
      const invalid = await rejectsWith(client.create(ConfigMaps, configMap(ns, 'Bad_Name')), 422, 'Invalid');
      assert.equal(invalid.details?.causes?.[0]?.field, 'metadata.name');
      await rejectsWith(client.get(ConfigMaps, undefined, 'x'), 400, 'BadRequest');
    });

    test('dryRun create does not persist', async () => {
      await client.create(ConfigMaps, configMap(ns, 'dry'), { dryRun: true });
      await rejectsWith(client.get(ConfigMaps, ns, 'dry'), 404, 'NotFound');
    });

    test('updateStatus writes status only', async () => {
      const d = await client.create(Deployments, deployment(ns, 'status'));
      const spec = d.spec as { replicas: number };
      const written = await client.updateStatus(Deployments, { ...d, spec: { ...spec, replicas: 9 }, status: { observedGeneration: 1, replicas: 3 } });
      assert.deepEqual((written.status as { replicas: number }).replicas, 3);
      const got = await client.get(Deployments, ns, 'status');
      assert.equal((got.spec as { replicas: number }).replicas, 1, 'spec changes are ignored on /status');
      assert.equal((got.status as { replicas: number }).replicas, 3);
    });

    test('patch: json, merge, strategic and apply', async () => {
      await client.create(ConfigMaps, configMap(ns, 'patched', { a: '1' }));
      const json = await client.patch(ConfigMaps, ns, 'patched', 'json', [{ op: 'add', path: '/data/b', value: '2' }]);
      assert.deepEqual(json.data, { a: '1', b: '2' });
      const merge = await client.patch(ConfigMaps, ns, 'patched', 'merge', { data: { a: null }, metadata: { labels: { l: 'v' } } });
      assert.deepEqual(merge.data, { b: '2' });
      assert.deepEqual(merge.metadata.labels, { l: 'v' });
      await client.create(Deployments, deployment(ns, 'smp'));
      const smp = await client.patch(Deployments, ns, 'smp', 'strategic', { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } } } });
      const containers = (smp.spec as { template: { spec: { containers: { name: string; image: string }[] } } }).template.spec.containers;
      assert.deepEqual(containers.map((c) => `${c.name}=${c.image}`), ['app=nginx:2', 'sidecar=busybox:1'], 'list merged by name');
      const applied = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied', namespace: ns }, data: { k: 'mine' } };
      const created = await client.patch(ConfigMaps, ns, 'applied', 'apply', applied, { fieldManager: 'owner' });
      assert.ok(created.metadata.managedFields?.some((m) => m.manager === 'owner' && m.operation === 'Apply'));
      const theirs = { ...applied, data: { k: 'theirs' } };
      await rejectsWith(client.patch(ConfigMaps, ns, 'applied', 'apply', theirs, { fieldManager: 'other' }), 409, 'Conflict');
      const forced = await client.patch(ConfigMaps, ns, 'applied', 'apply', theirs, { fieldManager: 'other', force: true });
      assert.deepEqual(forced.data, { k: 'theirs' });
      await rejectsWith(client.patch(ConfigMaps, ns, 'applied', 'apply', theirs), 400, 'BadRequest');
    });

    test('scale subresource patch and pods/binding', async () => {
      await client.create(Deployments, deployment(ns, 'scaled'));
      const scale = await client.patch(Deployments, ns, 'scaled', 'merge', { spec: { replicas: 3 } }, { subresource: 'scale' });
      assert.equal(scale.kind, 'Scale');
      assert.equal(((await client.get(Deployments, ns, 'scaled')).spec as { replicas: number }).replicas, 3);
      await client.create(Pods, pod(ns, 'bound'));
      const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'bound' }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' } };
      const status = await client.createSubresource(Pods, ns, 'bound', 'binding', binding);
      assert.equal((status as { status: string }).status, 'Success');
      assert.equal(((await client.get(Pods, ns, 'bound')).spec as { nodeName: string }).nodeName, 'node-1');
      await rejectsWith(client.createSubresource(Pods, ns, 'bound', 'binding', binding), 409, 'Conflict');
    });
  });
}
