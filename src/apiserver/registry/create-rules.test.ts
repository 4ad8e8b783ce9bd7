/**
 * Create rules that clients see in answers: the 403 for new content in a terminating namespace
 * (named after the object, as NamespaceLifecycle words it), and what the creator owns in
 * managedFields (the request plus scheme defaults, not admission side effects or prepared status).
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { StatusError } from '../../machinery/errors.js';
import { builtinServedResources } from '../builtin-served.js';
import { createFileStore } from '../storage/file-store.js';
import { systemContext } from './context.js';
import { Registry } from './registry.js';
import { ResourceTable } from './resource-table.js';
import type { ServedResource } from './served-resource.js';

let registry: Registry;
const served = (group: string, plural: string): ServedResource => registry.table.lookup(group, 'v1', plural)!;
const ctx = () => ({ ...systemContext(), fieldManager: 'creator' });
const namespace = (name: string): KObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

async function refusal(p: Promise<unknown>): Promise<StatusError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  assert.ok(e instanceof StatusError, `expected a StatusError, got ${String(e)}`);
  return e;
}

/** Top-level field names per `f:` level of the creator's entry, e.g. spec -> [containers, dnsPolicy, ...]. */
function owned(obj: KObject, section: string): string[] {
  const entry = obj.metadata.managedFields?.find((m) => m.manager === 'creator');
  const fields = (entry?.fieldsV1 ?? {}) as Record<string, Record<string, unknown>>;
  return Object.keys(fields[`f:${section}`] ?? {}).sort();
}

describe('create', () => {
  before(async () => {
    const table = new ResourceTable();
    for (const r of builtinServedResources()) table.add(r);
    registry = new Registry({ store: await createFileStore({}), table });
  });

  test('in a terminating namespace: 403 naming the object (its generateName when unnamed) with the NamespaceTerminating cause', async () => {
    const namespaces = served('', 'namespaces');
    await registry.create(namespaces, undefined, namespace('t'), ctx());
    await registry.delete(namespaces, undefined, 't', {}, ctx());
    const cm = await refusal(registry.create(served('', 'configmaps'), 't', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' } }, ctx()));
    assert.equal(cm.code, 403);
    assert.equal(cm.message, 'configmaps "late" is forbidden: unable to create new content in namespace t because it is being terminated');
    assert.deepEqual([cm.details?.name, cm.details?.group, cm.details?.kind], ['late', undefined, 'configmaps']);
    assert.deepEqual(cm.details?.causes, [{ reason: 'NamespaceTerminating', message: 'namespace t is being terminated', field: 'metadata.namespace' }]);
    const generated = await refusal(registry.create(served('', 'configmaps'), 't', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'late-' } }, ctx()));
    assert.match(generated.message, /^configmaps "late-" is forbidden: /);
    const grouped = await refusal(registry.create(served('apps', 'deployments'), 't', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } }, ctx()));
    assert.match(grouped.message, /^deployments\.apps "d" is forbidden: /);
    assert.equal(grouped.details?.group, 'apps');
  });

  test('the creator of a namespace owns its name label, not the finalizer or phase the strategy adds', async () => {
    const created = await registry.create(served('', 'namespaces'), undefined, namespace('m'), ctx());
    assert.deepEqual((created.spec as { finalizers: string[] }).finalizers, ['kubernetes']);
    assert.deepEqual(owned(created, 'metadata'), ['f:labels']);
    assert.deepEqual([owned(created, 'spec'), owned(created, 'status')], [[], []]);
  });

  test('the creator of a pod owns scheme defaults, not what the ServiceAccount, toleration and priority admission add', async () => {
    await registry.create(served('', 'namespaces'), undefined, namespace('p'), ctx());
    const created = await registry.create(served('', 'pods'), 'p', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox:1' }] } }, ctx());
    const spec = created.spec as Record<string, unknown>;
    assert.deepEqual([spec.serviceAccountName, spec.priority, (spec.tolerations as unknown[]).length], ['default', 0, 2]);
    assert.deepEqual(owned(created, 'spec'), [
      'f:containers', 'f:dnsPolicy', 'f:enableServiceLinks', 'f:restartPolicy', 'f:schedulerName', 'f:securityContext', 'f:terminationGracePeriodSeconds',
    ]);
    assert.deepEqual(owned(created, 'status'), []);
  });
});
