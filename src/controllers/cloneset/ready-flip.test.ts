import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, PodCondition } from '../../api/core/index.js';
import { awaitsReadyFlip, PodsInFlight } from './ready-flip.js';

const pod = (condition?: Partial<PodCondition>, extra: Partial<Pod['metadata']> = {}): Pod => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns', ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs', uid: 'u', controller: true }], ...extra },
  spec: { containers: [{ name: 'c', image: 'i' }], readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] },
  status: { conditions: condition ? [{ type: 'InPlaceUpdateReady', status: 'True', ...condition } as PodCondition] : [] },
});

describe('awaitsReadyFlip', () => {
  test('a CloneSet pod with the gate and the condition False, or True with a reason; a new pod is the pass\'s', () => {
    assert.equal(awaitsReadyFlip(pod()), false);
    assert.equal(awaitsReadyFlip(pod({ status: 'False', reason: 'StartInPlaceUpdate' })), true);
    assert.equal(awaitsReadyFlip(pod({ reason: 'Odd' })), true);
    assert.equal(awaitsReadyFlip(pod({})), false, 'plainly True');
  });

  test('not while deleting, in a grace period, or owned by something else', () => {
    const held = { status: 'False' as const, reason: 'StartInPlaceUpdate' };
    assert.equal(awaitsReadyFlip(pod(held)), true);
    assert.equal(awaitsReadyFlip(pod(held, { deletionTimestamp: '2024-01-01T00:00:00Z' })), false);
    assert.equal(awaitsReadyFlip(pod(held, { annotations: { 'apps.kruise.io/inplace-update-grace': '{}' } })), false);
    assert.equal(awaitsReadyFlip(pod(held, { ownerReferences: [] })), false);
  });
});

describe('PodsInFlight', () => {
  test('one holder at a time; only a pass letting go hands the pod back', () => {
    const handed: string[] = [];
    const f = new PodsInFlight();
    f.onPassRelease = (key) => handed.push(key);
    assert.equal(f.take('ns/p'), true);
    assert.equal(f.take('ns/p'), false);
    f.release('ns/p', false);
    assert.deepEqual(handed, []);
    assert.equal(f.take('ns/p'), true);
    f.release('ns/p', true);
    assert.deepEqual(handed, ['ns/p']);
  });
});
