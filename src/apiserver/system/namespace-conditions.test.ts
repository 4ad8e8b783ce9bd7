import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deletionConditions, mergeConditions } from './namespace-conditions.js';

const line = (c: { type: string; status: string; reason: string; message: string }) => `${c.type}=${c.status} ${c.reason}: ${c.message}`;

test('remaining content is counted per resource.group and per finalizer, sorted', () => {
  const conditions = deletionConditions({
    byResource: new Map([['secrets.', 1], ['deployments.apps', 1], ['configmaps.', 2]]),
    byFinalizer: new Map([['example.com/hold', 3], ['example.com/b', 1]]),
  });
  assert.deepEqual(conditions.map(line), [
    'NamespaceDeletionDiscoveryFailure=False ResourcesDiscovered: All resources successfully discovered',
    'NamespaceDeletionGroupVersionParsingFailure=False ParsedGroupVersions: All legacy kube types successfully parsed',
    'NamespaceDeletionContentFailure=False ContentDeleted: All content successfully deleted, may be waiting on finalization',
    'NamespaceContentRemaining=True SomeResourcesRemain: Some resources are remaining: configmaps. has 2 resource instances, deployments.apps has 1 resource instances, secrets. has 1 resource instances',
    'NamespaceFinalizersRemaining=True SomeFinalizersRemain: Some content in the namespace has finalizers remaining: example.com/b in 1 resource instances, example.com/hold in 3 resource instances',
  ]);
});

test('nothing left: both remaining conditions are False', () => {
  const conditions = deletionConditions({ byResource: new Map(), byFinalizer: new Map() }).slice(3);
  assert.deepEqual(conditions.map(line), [
    'NamespaceContentRemaining=False ContentRemoved: All content successfully removed',
    'NamespaceFinalizersRemaining=False ContentHasNoFinalizers: All content-preserving finalizers finished',
  ]);
});

test('an unchanged set is no write; a changed one keeps the transition time of unchanged statuses', () => {
  const left = { byResource: new Map([['configmaps.', 1]]), byFinalizer: new Map([['example.com/hold', 1]]) };
  const first = mergeConditions({ metadata: {} }, deletionConditions(left), 't1')!;
  assert.ok(first.every((c) => c.lastTransitionTime === 't1'));
  const ns = { metadata: {}, status: { conditions: first } };
  assert.equal(mergeConditions(ns, deletionConditions(left), 't2'), undefined);
  const more = mergeConditions(ns, deletionConditions({ ...left, byResource: new Map([['configmaps.', 2]]) }), 't2')!;
  assert.equal(more.find((c) => c.type === 'NamespaceContentRemaining')?.lastTransitionTime, 't1');
  const gone = mergeConditions(ns, deletionConditions({ byResource: new Map(), byFinalizer: new Map() }), 't3')!;
  assert.equal(gone.find((c) => c.type === 'NamespaceContentRemaining')?.lastTransitionTime, 't3');
  assert.equal(gone.find((c) => c.type === 'NamespaceDeletionDiscoveryFailure')?.lastTransitionTime, 't1');
});
