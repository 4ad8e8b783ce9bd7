/**
 * The namespace controller on a bare registry: a deleted namespace goes Terminating with kube's
 * conditions counting what its finalizers hold, and goes away once they are released.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { builtinServedResources } from '../builtin-served.js';
import { systemContext } from '../registry/context.js';
import { Registry } from '../registry/registry.js';
import { RegistryReader } from '../registry/reader.js';
import { ResourceTable } from '../registry/resource-table.js';
import { createFileStore } from '../storage/file-store.js';
import { eventually } from '../../testing/workload-env.js';
import { NamespaceController } from './namespace-controller.js';

let registry: Registry;
let controller: NamespaceController;
const lookup = (group: string, plural: string) => registry.table.lookup(group, 'v1', plural)!;
const conditions = (ns: KObject) => ((ns.status as { conditions?: { type: string; status: string; message: string }[] }).conditions ?? [])
  .map((c) => `${c.type}=${c.status} ${c.message}`);

before(async () => {
  const table = new ResourceTable();
  for (const r of builtinServedResources()) table.add(r);
  const store = await createFileStore({});
  registry = new Registry({ store, table });
  controller = new NamespaceController(registry, new RegistryReader(store, table));
  controller.start();
});
after(() => controller.stop());

test('Terminating conditions name the remaining content and finalizers; releasing them removes the namespace', async () => {
  const ctx = systemContext();
  const namespaces = lookup('', 'namespaces');
  const cms = lookup('', 'configmaps');
  await registry.create(namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'gone' } }, ctx);
  for (const [name, finalizers] of [['a', ['example.com/hold']], ['b', ['example.com/hold', 'example.com/b']], ['free', []]] as const) {
    await registry.create(cms, 'gone', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, finalizers: [...finalizers] } }, ctx);
  }
  await registry.delete(namespaces, undefined, 'gone', {}, ctx);
  const terminating = await eventually('conditions', async () => {
    const ns = await registry.get(namespaces, undefined, 'gone');
    return conditions(ns).length === 5 ? ns : undefined;
  });
  assert.equal((terminating.status as { phase: string }).phase, 'Terminating');
  assert.deepEqual(conditions(terminating), [
    'NamespaceDeletionDiscoveryFailure=False All resources successfully discovered',
    'NamespaceDeletionGroupVersionParsingFailure=False All legacy kube types successfully parsed',
    'NamespaceDeletionContentFailure=False All content successfully deleted, may be waiting on finalization',
    'NamespaceContentRemaining=True Some resources are remaining: configmaps. has 2 resource instances',
    'NamespaceFinalizersRemaining=True Some content in the namespace has finalizers remaining: example.com/b in 1 resource instances, example.com/hold in 2 resource instances',
  ]);
  for (const name of ['a', 'b']) await registry.patch(cms, 'gone', name, { type: 'merge', patch: { metadata: { finalizers: null } } }, ctx);
  await eventually('namespace removed', () => registry.get(namespaces, undefined, 'gone').then(() => false, () => true));
});
