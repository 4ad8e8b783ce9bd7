import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CloneSet } from './pods.js';
import { podsToCancelDelete, withinDeleteBudget } from './scale-plan.js';
import { podsToDeleteKept } from './spec-sync.js';
import type { Pod } from '../../api/core/index.js';

const STATE = 'lifecycle.apps.kruise.io/state';
const pod = (name: string, state = 'Normal', labels: Record<string, string> = {}): Pod =>
  ({ metadata: { name, labels: { [STATE]: state, ...labels } }, spec: { containers: [] } });
const cs = (replicas: number, extra: Record<string, unknown> = {}): CloneSet =>
  ({ metadata: { name: 'demo' }, spec: { replicas, selector: {}, template: {}, lifecycle: { preDelete: { labelsHandler: { hold: 'true' } } }, ...extra } }) as unknown as CloneSet;
const names = (pods: Pod[]) => pods.map((p) => p.metadata.name);

describe('podsToCancelDelete', () => {
  const pods = [pod('a'), pod('b', 'PreparingDelete'), pod('c', 'PreparingDelete'), pod('d')];
  test('up to R − len(pods) + #(toDelete ∪ preDeleting) pods', () => {
    assert.deepEqual(names(podsToCancelDelete(cs(2, {}), pods)), []);
    assert.deepEqual(names(podsToCancelDelete(cs(3, {}), pods)), ['b']);
    assert.deepEqual(names(podsToCancelDelete(cs(4, {}), pods)), ['b', 'c']);
  });
  test('never a toDelete pod, a specified-delete pod, or with markPodNotReady', () => {
    assert.deepEqual(names(podsToCancelDelete(cs(4, { scaleStrategy: { podsToDelete: ['b'] } }), pods)), ['c']);
    const labelled = [pod('a'), pod('b', 'PreparingDelete', { 'apps.kruise.io/specified-delete': 'true' }), pod('c', 'PreparingDelete')];
    assert.deepEqual(names(podsToCancelDelete(cs(3), labelled)), ['c']);
    const notReady = cs(4, { lifecycle: { preDelete: { labelsHandler: { hold: 'true' }, markPodNotReady: true } } });
    assert.deepEqual(podsToCancelDelete(notReady, pods), []);
  });
});

describe('withinDeleteBudget', () => {
  test('unavailable pods always, available ones while the budget lasts', () => {
    const budget = { left: 1 };
    const available = new Set(['a', 'b', 'd']);
    const out = withinDeleteBudget([pod('a'), pod('b'), pod('c'), pod('d')], (p) => available.has(p.metadata.name!), budget);
    assert.deepEqual(names(out), ['a', 'c']);
    assert.equal(budget.left, 0);
  });
});

describe('podsToDeleteKept', () => {
  test('names without a live pod are dropped; nothing to do when all are live', () => {
    const set = cs(2, { scaleStrategy: { podsToDelete: ['a', 'gone', 'b'] } });
    assert.deepEqual(podsToDeleteKept(set, [pod('a'), pod('b')]), ['a', 'b']);
    assert.deepEqual(podsToDeleteKept(set, []), []);
    assert.equal(podsToDeleteKept(cs(2, { scaleStrategy: { podsToDelete: ['a'] } }), [pod('a')]), undefined);
    assert.equal(podsToDeleteKept(cs(2), []), undefined);
  });
});
