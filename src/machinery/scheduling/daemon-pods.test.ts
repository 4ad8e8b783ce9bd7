import type { Node } from '../../api/core/index.js';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeShouldRunDaemonPod, pinToNode, targetNodeName, withDaemonTolerations, type PlacementPodSpec } from './index.js';

const node = (name: string, labels: Record<string, string> = {}, taints: Node['spec'] = {}): Node =>
  ({ metadata: { name, labels }, spec: taints });

describe('daemon pod placement', () => {
  test('daemon placement: untolerated NoExecute evicts, untolerated NoSchedule only stops new pods, default tolerations apply', () => {
    const spec: PlacementPodSpec = {};
    assert.deepEqual(nodeShouldRunDaemonPod(node('n', {}, { taints: [{ key: 'x', effect: 'NoExecute' }] }), spec), { shouldRun: false, shouldContinueRunning: false });
    assert.deepEqual(nodeShouldRunDaemonPod(node('n', {}, { taints: [{ key: 'x', effect: 'NoSchedule' }] }), spec), { shouldRun: false, shouldContinueRunning: true });
    assert.deepEqual(nodeShouldRunDaemonPod(node('n', {}, { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] }), spec), { shouldRun: true, shouldContinueRunning: true });
    assert.deepEqual(nodeShouldRunDaemonPod(node('n'), { nodeName: 'other' }), { shouldRun: false, shouldContinueRunning: false });
    assert.equal(withDaemonTolerations({ hostNetwork: true }).length, 7);
  });

  test('pinning replaces the required terms and keeps the rest; targetNodeName reads it back', () => {
    const affinity = pinToNode({ nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] }, podAntiAffinity: {} }, 'n1');
    assert.deepEqual(affinity.podAntiAffinity, {});
    assert.deepEqual(affinity.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution, []);
    assert.equal(targetNodeName({ affinity }), 'n1');
    assert.equal(targetNodeName({ nodeName: 'n2', affinity }), 'n2');
    assert.equal(targetNodeName({}), undefined);
  });
});
