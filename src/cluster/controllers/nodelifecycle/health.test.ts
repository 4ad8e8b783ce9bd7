import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../machinery/clock.js';
import { graceFor, NodeHealthTracker, silentNodeConditions } from './health.js';
import { reconcileTaints } from './taints.js';
import type { Node } from '../../../api/core/index.js';

const clock = () => new FakeClock('2024-01-01T00:00:00Z');
const node = (ready?: 'True' | 'False' | 'Unknown', extra: Partial<Node> = {}): Node => ({
  metadata: { name: 'n1', creationTimestamp: '2023-12-31T00:00:00Z' },
  status: { conditions: ready ? [{ type: 'Ready', status: ready, reason: 'KubeletReady', lastHeartbeatTime: '2023-12-31T23:59:50Z', lastTransitionTime: '2023-12-31T00:00:00Z' }] : [] },
  ...extra,
});

describe('node health tracking', () => {
  test('first sight counts as heard from; only a changed renewTime or heartbeat moves the probe time', () => {
    const c = clock();
    const h = new NodeHealthTracker(c);
    h.observeLease({ metadata: { name: 'n1' }, spec: { renewTime: 'a' } });
    const t0 = c.now();
    c.advance(10_000);
    h.observeLease({ metadata: { name: 'n1' }, spec: { renewTime: 'a' } });
    assert.equal(h.probeTime('n1'), t0);
    h.observeNode(node('True'));
    assert.equal(h.probeTime('n1'), t0 + 10_000, 'a first heartbeat value is news');
    c.advance(5_000);
    h.observeLease({ metadata: { name: 'n1' }, spec: { renewTime: 'b' } });
    assert.equal(h.probeTime('n1'), t0 + 15_000);
    h.forget('n1');
    assert.equal(h.probeTime('n1'), undefined);
  });

  test('a silent node has every kubelet condition Unknown with upstream reasons', () => {
    const now = Date.parse('2024-01-01T00:01:00Z');
    const conditions = silentNodeConditions(node('True'), now)!;
    assert.deepEqual(conditions.find((c) => c.type === 'Ready'), {
      type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.',
      lastHeartbeatTime: '2023-12-31T23:59:50Z', lastTransitionTime: '2024-01-01T00:01:00Z',
    });
    assert.deepEqual(conditions.find((c) => c.type === 'MemoryPressure'), {
      type: 'MemoryPressure', status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.',
      lastHeartbeatTime: '2023-12-31T00:00:00Z', lastTransitionTime: '2024-01-01T00:01:00Z',
    });
    assert.equal(silentNodeConditions({ ...node(), status: { conditions } }, now + 1000), undefined, 'already Unknown: no write');
    assert.equal(graceFor(node(), 40_000, 60_000), 60_000);
    assert.equal(graceFor(node('True'), 40_000, 60_000), 40_000);
  });
});

describe('controller taints', () => {
  const now = Date.parse('2024-01-01T00:00:00Z');
  const keys = (n: Node) => (reconcileTaints(n, now) ?? n.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`);

  test('unreachable and not-ready taints follow the Ready condition', () => {
    assert.deepEqual(keys(node('Unknown')), ['node.kubernetes.io/unreachable:NoSchedule', 'node.kubernetes.io/unreachable:NoExecute']);
    assert.deepEqual(keys(node('False')), ['node.kubernetes.io/not-ready:NoSchedule', 'node.kubernetes.io/not-ready:NoExecute']);
    assert.equal(reconcileTaints(node('True'), now), undefined);
    assert.deepEqual(reconcileTaints(node('Unknown'), now)![0].timeAdded, '2024-01-01T00:00:00Z');
  });

  test('recovery removes only controller taints; existing ones keep their timeAdded', () => {
    const taints = [
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' as const, timeAdded: '2023-12-31T00:00:00Z' },
      { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' as const },
    ];
    assert.deepEqual(reconcileTaints(node('True', { spec: { taints } }), now), [taints[1]]);
    const stillDown = reconcileTaints(node('Unknown', { spec: { taints } }), now)!;
    assert.equal(stillDown.find((t) => t.effect === 'NoExecute')?.timeAdded, '2023-12-31T00:00:00Z');
    assert.equal(stillDown.length, 3);
  });

  test('pressure conditions and cordoning add NoSchedule taints', () => {
    const n = node('True', { spec: { unschedulable: true } });
    n.status!.conditions!.push({ type: 'DiskPressure', status: 'True' }, { type: 'MemoryPressure', status: 'False' });
    assert.deepEqual(keys(n), ['node.kubernetes.io/disk-pressure:NoSchedule', 'node.kubernetes.io/unschedulable:NoSchedule']);
  });
});
