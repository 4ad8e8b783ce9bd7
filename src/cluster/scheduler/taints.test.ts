import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { effectiveTaints, intolerablePreferNoSchedule } from './taints.js';
import { makeNode } from './test-objects.js';
import type { Taint } from '../../api/core/index.js';

describe('effectiveTaints', () => {
  test('a ready node has only its own taints', () => {
    assert.deepEqual(effectiveTaints(makeNode('n', { taints: [{ key: 'a', effect: 'NoSchedule' }] })), [{ key: 'a', effect: 'NoSchedule' }]);
  });
  test('Ready=False implies not-ready, Unknown implies unreachable', () => {
    assert.deepEqual(effectiveTaints(makeNode('n', { ready: 'False' })), [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
    assert.deepEqual(effectiveTaints(makeNode('n', { ready: 'Unknown' })), [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }]);
  });
  test('an implied taint the node already carries is not doubled', () => {
    const own: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };
    assert.deepEqual(effectiveTaints(makeNode('n', { ready: 'False', taints: [own] })), [own]);
  });
});

describe('intolerablePreferNoSchedule', () => {
  const taints: Taint[] = [
    { key: 'soft', effect: 'PreferNoSchedule' },
    { key: 'hard', value: 'x', effect: 'NoSchedule' },
    { key: 'evict', effect: 'NoExecute' },
  ];
  test('PreferNoSchedule is counted, only tolerations with no or that effect count', () => {
    assert.equal(intolerablePreferNoSchedule(taints, []), 1);
    assert.equal(intolerablePreferNoSchedule(taints, [{ key: 'soft', operator: 'Exists', effect: 'NoSchedule' }]), 1);
    assert.equal(intolerablePreferNoSchedule(taints, [{ key: 'soft', operator: 'Exists' }]), 0);
  });
});
