import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { firstUntoleratedTaint, toleratesTaint } from './taints.js';
import type { Taint, Toleration } from '../../api/core/index.js';

describe('toleratesTaint', () => {
  const taint: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
  const cases: [string, Toleration, boolean][] = [
    ['Equal with key, value and effect', { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }, true],
    ['Equal is the default operator', { key: 'dedicated', value: 'gpu' }, true],
    ['wrong value', { key: 'dedicated', value: 'cpu' }, false],
    ['wrong key', { key: 'other', value: 'gpu' }, false],
    ['Exists ignores the value', { key: 'dedicated', operator: 'Exists' }, true],
    ['Exists without key tolerates everything', { operator: 'Exists' }, true],
    ['empty key with Equal tolerates nothing', { value: 'gpu' }, false],
    ['effect must match when given', { key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }, false],
    ['empty effect matches all effects', { key: 'dedicated', operator: 'Exists', effect: '' }, true],
  ];
  for (const [name, toleration, want] of cases) test(name, () => assert.equal(toleratesTaint(toleration, taint), want));
});

describe('firstUntoleratedTaint', () => {
  const taints: Taint[] = [
    { key: 'soft', effect: 'PreferNoSchedule' },
    { key: 'hard', value: 'x', effect: 'NoSchedule' },
    { key: 'evict', effect: 'NoExecute' },
  ];
  test('first untolerated NoSchedule/NoExecute taint', () => {
    assert.equal(firstUntoleratedTaint(taints, [])?.key, 'hard');
    assert.equal(firstUntoleratedTaint(taints, [{ key: 'hard', operator: 'Exists' }])?.key, 'evict');
    assert.equal(firstUntoleratedTaint(taints, [{ key: 'hard', operator: 'Exists' }, { key: 'evict', operator: 'Exists' }]), undefined);
  });
  test('only the effects asked for count', () => {
    assert.equal(firstUntoleratedTaint(taints, [], ['NoExecute'])?.key, 'evict');
    assert.equal(firstUntoleratedTaint(taints, [], ['PreferNoSchedule'])?.key, 'soft');
    assert.equal(firstUntoleratedTaint(undefined, undefined), undefined);
  });
});
