/**
 * What a DELETE answers and writes, as kube-apiserver does: a Success Status for kinds whose storage
 * does not return the object, the object for pods (written with its deletion marks before it goes),
 * the listed items for a collection, and kube's precondition messages.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { StatusError } from '../../machinery/errors.js';
import { builtinServedResources } from '../builtin-served.js';
import { createFileStore } from '../storage/file-store.js';
import { systemContext } from './context.js';
import { Registry } from './registry.js';
import { RegistryReader } from './reader.js';
import { ResourceTable } from './resource-table.js';
import type { ServedResource } from './served-resource.js';

let registry: Registry;
let reader: RegistryReader;
const served = (group: string, plural: string): ServedResource => registry.table.lookup(group, 'v1', plural)!;
const configMap = (name: string, labels: Record<string, string> = {}): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { k: 'v' } });
const pod = (name: string, nodeName?: string): KObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName, containers: [{ name: 'c', image: 'nginx:1' }] } });
const ctx = () => systemContext();
const dryRun = () => ({ ...systemContext(), dryRun: true });

describe('DELETE answers', () => {
  before(async () => {
    const table = new ResourceTable();
    for (const r of builtinServedResources()) table.add(r);
    const store = await createFileStore({});
    registry = new Registry({ store, table });
    reader = new RegistryReader(store, table);
    await registry.create(served('', 'namespaces'), undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'd' } }, ctx());
  });

  test('a ConfigMap removed at once (or in a dry run) answers with a Success Status naming it; a held one with itself', async () => {
    const cms = served('', 'configmaps');
    const created = await registry.create(cms, 'd', configMap('now'), ctx());
    const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'now', group: undefined, kind: 'configmaps', uid: created.metadata.uid } };
    assert.deepEqual(await registry.delete(cms, 'd', 'now', {}, dryRun()), status);
    assert.equal((await registry.get(cms, 'd', 'now')).metadata.name, 'now');
    assert.deepEqual(await registry.delete(cms, 'd', 'now', {}, ctx()), status);
    await registry.create(cms, 'd', { ...configMap('held'), metadata: { name: 'held', finalizers: ['example.com/keep'] } }, ctx());
    const held = await registry.delete(cms, 'd', 'held', {}, ctx());
    assert.equal(held.kind, 'ConfigMap');
    assert.ok(held.metadata.deletionTimestamp);
  });

  test('a Deployment names its group in the Status', async () => {
    const deployments = served('apps', 'deployments');
    await registry.create(deployments, 'd', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } } },
    }, ctx());
    const answer = await registry.delete(deployments, 'd', 'web', {}, ctx()) as KObject & { details?: { group?: string; kind?: string } };
    assert.deepEqual([answer.kind, answer.details?.group, answer.details?.kind], ['Status', 'apps', 'deployments']);
  });

  test('an unscheduled pod is written with deletionTimestamp and grace 0, then removed, and answers with that state', async () => {
    const pods = served('', 'pods');
    const created = await registry.create(pods, 'd', pod('p'), ctx());
    const seen: string[] = [];
    const watch = reader.watchStored(pods, 'd', Number(created.metadata.resourceVersion), (e) => {
      seen.push(`${e.type} ${Boolean(e.object.metadata.deletionTimestamp)} ${e.object.metadata.deletionGracePeriodSeconds ?? '-'}`);
    });
    const dry = await registry.delete(pods, 'd', 'p', {}, dryRun());
    assert.equal(dry.metadata.deletionGracePeriodSeconds, 0);
    const answer = await registry.delete(pods, 'd', 'p', {}, ctx());
    watch.stop();
    assert.equal(answer.kind, 'Pod');
    assert.ok(answer.metadata.deletionTimestamp);
    assert.equal(answer.metadata.deletionGracePeriodSeconds, 0);
    assert.deepEqual(seen, ['MODIFIED true 0', 'DELETED true 0']);
  });

  test('a forced delete after a graceful one shortens the period from the first request, then removes the pod', async () => {
    const pods = served('', 'pods');
    await registry.create(pods, 'd', pod('bound', 'n1'), ctx());
    const graceful = await registry.delete(pods, 'd', 'bound', { gracePeriodSeconds: 30 }, ctx());
    const longer = await registry.delete(pods, 'd', 'bound', { gracePeriodSeconds: 60 }, ctx());
    assert.equal(longer.metadata.resourceVersion, graceful.metadata.resourceVersion, 'a longer period changes nothing');
    const forced = await registry.delete(pods, 'd', 'bound', { gracePeriodSeconds: 0 }, ctx());
    assert.equal(forced.metadata.deletionGracePeriodSeconds, 0);
    const asked = new Date(graceful.metadata.deletionTimestamp!).getTime() - 30_000;
    assert.equal(new Date(forced.metadata.deletionTimestamp!).getTime(), asked);
    await assert.rejects(registry.get(pods, 'd', 'bound'), (e: StatusError) => e.code === 404);
  });

  test('a collection delete returns the deleted items as listed before', async () => {
    const cms = served('', 'configmaps');
    for (const n of ['g1', 'g2']) await registry.create(cms, 'd', configMap(n, { group: 'g' }), ctx());
    const list = await registry.deleteCollection(cms, 'd', { labelSelector: 'group=g' }, {}, ctx());
    assert.equal(list.kind, 'ConfigMapList');
    assert.deepEqual(list.items.map((i) => [i.metadata.name, Boolean(i.metadata.deletionTimestamp)]), [['g1', false], ['g2', false]]);
    assert.deepEqual((await registry.list(cms, 'd', { labelSelector: 'group=g' })).items, []);
  });

  test('preconditions fail with a Conflict naming the kind', async () => {
    const cms = served('', 'configmaps');
    const created = await registry.create(cms, 'd', configMap('pre'), ctx());
    const failed = await registry.delete(cms, 'd', 'pre', { preconditions: { uid: 'other' } }, ctx()).then(() => undefined, (e: StatusError) => e);
    assert.equal(failed?.code, 409);
    assert.equal(failed?.message, `Operation cannot be fulfilled on ConfigMap "pre": the UID in the precondition (other) does not match the UID in record (${created.metadata.uid}). The object might have been deleted and then recreated`);
    assert.equal(failed?.details?.kind, 'ConfigMap');
  });

  test('a ReplicationController deleted without a policy orphans its pods (core/v1 default)', async () => {
    const rcs = served('', 'replicationcontrollers');
    await registry.create(rcs, 'd', {
      apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'rc' },
      spec: { selector: { a: 'b' }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } } },
    }, ctx());
    const answer = await registry.delete(rcs, 'd', 'rc', {}, ctx());
    assert.deepEqual(answer.metadata.finalizers, ['orphan']);
  });
});
