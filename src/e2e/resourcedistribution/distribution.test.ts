/**
 * C.5 acceptance scenarios of docs/design/resourcedistribution.md §6 through the API, and the
 * 200-namespace case: a source change reaches every copy, a namespace relabelled out loses its copy.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { ResourceDistributions } from '../../api/kruise/resource-types.js';
import { ConfigMaps, Namespaces, Secrets } from '../../api/resource-type.js';
import { setupResourceDistributionController } from '../../controllers/resourcedistribution/index.js';
import { eventually, startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';

let w: WorkloadEnv;
before(async () => {
  w = await startWorkloadEnv({ nodes: 1, gates: 'ResourceDistributionGate=true', controllers: (m) => { setupResourceDistributionController(m); } });
});
after(() => w.stop());

const RdsV1alpha1 = { ...ResourceDistributions, version: 'v1alpha1' };
type Rd = KObject & { spec: Record<string, unknown>; status?: { desired?: number; succeeded?: number; failed?: number; conditions?: Array<Record<string, unknown>> } };
type Cm = KObject & { data?: Record<string, string> };

const ns = (name: string, labels?: Record<string, string>) => w.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(labels && { labels }) } });
const copy = (namespace: string, name = 'shared') => w.client.get<Cm>(ConfigMaps, namespace, name).catch(() => undefined);
const rd = (name = 'shared-cm') => w.client.get<Rd>(ResourceDistributions, undefined, name);
const condition = (r: Rd, type: string) => r.status?.conditions?.find((c) => c.type === type);

const manifest = {
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name: 'shared-cm' },
  spec: {
    resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' }, data: { k: 'v1' } },
    targets: {
      includedNamespaces: { list: [{ name: 'rd-3' }] },
      namespaceLabelSelector: { matchLabels: { team: 'x' } },
      excludedNamespaces: { list: [{ name: 'rd-2' }] },
    },
  },
};

describe('ResourceDistribution (C.5)', () => {
  test('distribution, new namespace, label removal, conflict, drift, update, missing namespace, cascade', async () => {
    await ns('rd-1', { team: 'x' });
    await ns('rd-2', { team: 'x' });
    await ns('rd-3');
    await w.client.create(RdsV1alpha1, manifest as unknown as KObject);
    // 1
    const first = await eventually('status 2/2', async () => { const r = await rd(); return r.status?.desired === 2 && r.status.succeeded === 2 ? r : undefined; });
    assert.equal(first.status!.failed, 0);
    assert.deepEqual(first.status!.conditions!.map((c) => [c.type, c.status, c.reason]), [
      ['GetResourceFailed', 'False', 'Succeeded'], ['CreateResourceFailed', 'False', 'Succeeded'], ['UpdateResourceFailed', 'False', 'Succeeded'],
      ['DeleteResourceFailed', 'False', 'Succeeded'], ['ConflictOccurred', 'False', 'Succeeded'], ['NamespaceNotExists', 'False', 'Succeeded'],
    ]);
    const c1 = (await copy('rd-1'))!;
    assert.equal((await copy('rd-2')), undefined);
    assert.ok(await copy('rd-3'));
    assert.deepEqual(c1.data, { k: 'v1' });
    const owner = c1.metadata.ownerReferences?.find((o) => o.controller);
    assert.deepEqual([owner?.kind, owner?.name, owner?.uid, owner?.blockOwnerDeletion], ['ResourceDistribution', 'shared-cm', first.metadata.uid, true]);
    assert.equal(c1.metadata.annotations?.['kruise.io/resourcedistribution.resource.from'], 'shared-cm');
    const hash1 = c1.metadata.annotations?.['kruise.io/resourcedistribution.resource.hashcode'];
    assert.match(hash1 ?? '', /^[0-9a-f]{64}$/);

    // 2
    await ns('rd-4', { team: 'x' });
    await eventually('copy in rd-4, desired 3', async () => !!(await copy('rd-4')) && (await rd()).status?.desired === 3);
    // 3
    await w.client.patch(Namespaces, undefined, 'rd-1', 'merge', { metadata: { labels: { team: null } } });
    await eventually('copy gone from rd-1', async () => (await copy('rd-1')) === undefined);
    // 4
    await ns('rd-5');
    await w.client.create(ConfigMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared', namespace: 'rd-5' }, data: { mine: 'yes' } });
    await w.client.patch(Namespaces, undefined, 'rd-5', 'merge', { metadata: { labels: { team: 'x' } } });
    const conflicted = await eventually('ConflictOccurred', async () => { const r = await rd(); return condition(r, 'ConflictOccurred')?.status === 'True' ? r : undefined; });
    assert.deepEqual(condition(conflicted, 'ConflictOccurred')!.failedNamespaces, ['rd-5']);
    assert.equal(conflicted.status!.failed, 1);
    assert.deepEqual((await copy('rd-5'))!.data, { mine: 'yes' });
    const alpha = await w.client.get<Rd>(RdsV1alpha1, undefined, 'shared-cm');
    assert.deepEqual(alpha.status!.conditions!.find((c) => c.type === 'ConflictOccurred')!.failedNamespace, ['rd-5']);
    // 5
    await w.client.patch(ConfigMaps, 'rd-3', 'shared', 'merge', { data: { k: 'edited' } });
    await eventually('drift reverted', async () => (await copy('rd-3'))?.data?.k === 'v1');
    await w.client.delete(ConfigMaps, 'rd-3', 'shared');
    await eventually('deleted copy recreated', async () => (await copy('rd-3'))?.data?.k === 'v1');
    // 6
    await w.client.patch(ResourceDistributions, undefined, 'shared-cm', 'merge', { spec: { resource: { data: { k: 'v2' } } } });
    for (const n of ['rd-3', 'rd-4']) await eventually(`copy in ${n} updated`, async () => (await copy(n))?.data?.k === 'v2');
    const hash2 = (await copy('rd-3'))!.metadata.annotations?.['kruise.io/resourcedistribution.resource.hashcode'];
    assert.notEqual(hash2, hash1);
    // 7
    await w.client.patch(ResourceDistributions, undefined, 'shared-cm', 'merge', { spec: { targets: { includedNamespaces: { list: [{ name: 'rd-3' }, { name: 'rd-9' }] } } } });
    const missing = await eventually('NamespaceNotExists', async () => { const r = await rd(); return condition(r, 'NamespaceNotExists')?.status === 'True' ? r : undefined; });
    assert.deepEqual(condition(missing, 'NamespaceNotExists')!.failedNamespaces, ['rd-9']);
    assert.equal(missing.status!.desired, 4); // rd-3, rd-4, rd-5, rd-9
    // 10
    await w.client.delete(ResourceDistributions, undefined, 'shared-cm');
    for (const n of ['rd-3', 'rd-4']) await eventually(`copy in ${n} collected`, async () => (await copy(n)) === undefined);
    assert.deepEqual((await copy('rd-5'))!.data, { mine: 'yes' });
  });

  test('allNamespaces never writes to kube-system or kube-public (C.5 8)', async () => {
    for (const n of ['kube-system', 'kube-public']) await ns(n).catch(() => undefined);
    await w.client.create(ResourceDistributions, {
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'ResourceDistribution', metadata: { name: 'everywhere' },
      spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'everywhere' }, data: { a: 'b' } }, targets: { allNamespaces: true } },
    });
    await eventually('copy in default', async () => !!(await copy('default', 'everywhere')));
    assert.equal(await copy('kube-system', 'everywhere'), undefined);
    assert.equal(await copy('kube-public', 'everywhere'), undefined);
    await w.client.delete(ResourceDistributions, undefined, 'everywhere');
  });

  test('200 namespaces: every copy made, a source change reaches all, a namespace relabelled out loses its copy', async (t) => {
    const names = Array.from({ length: 200 }, (_, i) => `big-${i}`);
    await Promise.all(names.map((n) => ns(n, { fleet: 'big' })));
    const started = Date.now();
    await w.client.create(ResourceDistributions, {
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'ResourceDistribution', metadata: { name: 'fleet' },
      spec: { resource: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'fleet' }, data: { v: Buffer.from('1').toString('base64') } }, targets: { namespaceSelector: { matchLabels: { fleet: 'big' } } } },
    });
    const secrets = async () => (await w.client.list(Secrets, { fieldSelector: 'metadata.name=fleet' })).items as Array<KObject & { data?: Record<string, string> }>;
    await eventually('200 copies', async () => (await secrets()).length === 200, 60_000);
    t.diagnostic(`200 namespaces distributed in ${Date.now() - started} ms`);
    await w.client.patch(ResourceDistributions, undefined, 'fleet', 'merge', { spec: { resource: { data: { v: Buffer.from('2').toString('base64') } } } });
    await eventually('all 200 updated', async () => { const s = await secrets(); return s.length === 200 && s.every((x) => x.data?.v === Buffer.from('2').toString('base64')); }, 60_000);
    await w.client.patch(Namespaces, undefined, 'big-7', 'merge', { metadata: { labels: { fleet: 'other' } } });
    await eventually('big-7 lost its copy', async () => { const s = await secrets(); return s.length === 199 && !s.some((x) => x.metadata.namespace === 'big-7'); }, 30_000);
    const status = await eventually('status 199', async () => { const r = await rd('fleet'); return r.status?.desired === 199 && r.status.succeeded === 199 ? r : undefined; });
    assert.equal(status.status!.failed, 0);
  });

  test('bad input is refused with 422 and upstream\'s messages (C.5 9)', async () => {
    const create = (name: string, resource: Record<string, unknown>, targets: Record<string, unknown> = { allNamespaces: true }) =>
      w.client.create(ResourceDistributions, { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ResourceDistribution', metadata: { name }, spec: { resource, targets } } as unknown as KObject);
    const refused = (re: RegExp) => (e: Error & { code?: number }) => e.code === 422 && re.test(e.message);
    await assert.rejects(create('bad-kind', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } }), refused(/unknown or unsupported resource GroupKind, only support \[Secret ConfigMap\]/));
    await assert.rejects(create('bad-key', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { 'bad key!': 'x' } }), refused(/spec\.resource is invalid: ConfigMap "c" is invalid/));
    await assert.rejects(create('both', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
      { includedNamespaces: { list: [{ name: 'rd-3' }] }, excludedNamespaces: { list: [{ name: 'rd-3' }] } }),
    refused(/ambiguous targets because namespace \[rd-3\] is in both IncludedNamespaces.List and ExcludedNamespaces.List/));
    await create('renamed', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, { includedNamespaces: { list: [{ name: 'rd-3' }] } });
    await assert.rejects(w.client.patch(ResourceDistributions, undefined, 'renamed', 'merge', { spec: { resource: { metadata: { name: 'd' } } } }),
      refused(/resource apiVersion, kind, and name are immutable/));
  });
});
