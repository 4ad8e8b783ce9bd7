import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../api/meta.js';
import { byControllerUid, byLabel, byNamespace, byNodeName, controllerRef, IndexNames } from './indexers.js';
import { diffAgainstCache } from './notifier.js';
import { objectKey, Store } from './store.js';

const pod = (ns: string, name: string, extra: Partial<KObject> & { owner?: string; node?: string; app?: string; rv?: string } = {}): KObject => ({
  metadata: {
    namespace: ns, name, uid: `uid-${ns}-${name}`, resourceVersion: extra.rv ?? '1',
    labels: extra.app ? { app: extra.app } : undefined,
    ownerReferences: extra.owner ? [{ apiVersion: 'v1', kind: 'X', name: 'other', uid: 'not-controller' }, { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs', uid: extra.owner, controller: true }] : undefined,
  },
  spec: extra.node ? { nodeName: extra.node } : {},
});

describe('store and indexers', () => {
  test('keys are namespace/name, or name when cluster-scoped', () => {
    assert.equal(objectKey(pod('ns', 'a')), 'ns/a');
    assert.equal(objectKey({ metadata: { name: 'node-1' } }), 'node-1');
  });

  test('indexes follow upserts and removals; indexers added late index existing objects', () => {
    const store = new Store();
    store.upsert(pod('a', 'p1', { owner: 'cs-1', node: 'n1', app: 'web' }));
    store.upsert(pod('a', 'p2', { owner: 'cs-1', app: 'db' }));
    store.addIndexer(IndexNames.namespace, byNamespace);
    store.addIndexer(IndexNames.controllerUid, byControllerUid);
    store.addIndexer(IndexNames.nodeName, byNodeName);
    store.addIndexer(IndexNames.label('app'), byLabel('app'));
    store.upsert(pod('b', 'p3', { owner: 'cs-2', node: 'n1' }));
    const names = (objs: KObject[]) => objs.map((o) => o.metadata.name).sort();
    assert.deepEqual(names(store.byIndex(IndexNames.controllerUid, 'cs-1')), ['p1', 'p2']);
    assert.deepEqual(names(store.byIndex(IndexNames.nodeName, 'n1')), ['p1', 'p3']);
    assert.deepEqual(names(store.byIndex(IndexNames.namespace, 'a')), ['p1', 'p2']);
    assert.deepEqual(names(store.byIndex(IndexNames.label('app'), 'web')), ['p1']);
    store.upsert(pod('a', 'p1', { owner: 'cs-2', node: 'n2' }));
    assert.deepEqual(names(store.byIndex(IndexNames.controllerUid, 'cs-1')), ['p2'], 'old index values are dropped');
    assert.deepEqual(names(store.byIndex(IndexNames.controllerUid, 'cs-2')), ['p1', 'p3']);
    store.remove('b/p3');
    assert.deepEqual(names(store.byIndex(IndexNames.nodeName, 'n1')), []);
    assert.throws(() => store.byIndex('nope', 'x'), /no indexer/);
    assert.throws(() => store.addIndexer(IndexNames.namespace, byNamespace), /already exists/);
    assert.equal(controllerRef(pod('a', 'x', { owner: 'u' }))?.uid, 'u', 'only the controller reference counts');
  });

  test('a freezing store makes cached objects immutable', () => {
    const store = new Store(true);
    store.upsert(pod('a', 'p1', { app: 'web' }));
    const cached = store.get('a/p1')!;
    assert.throws(() => { cached.metadata.labels!.app = 'changed'; }, TypeError);
  });

  test('diffAgainstCache reports adds, updates, deletes and re-creations, skipping unchanged objects', () => {
    const store = new Store();
    for (const name of ['same', 'changed', 'gone', 'recreated']) store.upsert(pod('a', name));
    const recreated = { ...pod('a', 'recreated', { rv: '9' }), metadata: { ...pod('a', 'recreated').metadata, uid: 'new-uid', resourceVersion: '9' } };
    const out = diffAgainstCache(store, [pod('a', 'same'), pod('a', 'changed', { rv: '5' }), recreated, pod('a', 'new', { rv: '7' })]);
    assert.deepEqual(out.map((n) => `${n.type}:${n.obj.metadata.name}:${n.obj.metadata.uid}`), [
      'update:changed:uid-a-changed', 'delete:recreated:uid-a-recreated', 'add:recreated:new-uid', 'add:new:uid-a-new', 'delete:gone:uid-a-gone',
    ]);
    assert.deepEqual(store.keys().sort(), ['a/changed', 'a/new', 'a/recreated', 'a/same']);
  });
});
