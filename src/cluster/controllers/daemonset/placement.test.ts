import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeShouldRunDaemonPod, pinToNode, targetNodeName, withDaemonTolerations } from '../../../machinery/scheduling/index.js';
import { nodesWithPods, planManage } from './manage-plan.js';
import { planRollingUpdate, scaledValue, updateBudget } from './rolling-update.js';
import { hashLabel } from './types.js';
import type { Node, Pod, PodTemplateSpec, Taint, DaemonSet } from '../../../api/core/index.js';

const node = (name: string, labels: Record<string, string> = {}, taints: Taint[] = []): Node => ({ metadata: { name, labels }, spec: { taints } });
const template = (spec: Record<string, unknown> = {}): PodTemplateSpec => ({ metadata: { labels: { app: 'agent' } }, spec: { containers: [], ...spec } });
const placement = (n: Node, t = template()) => nodeShouldRunDaemonPod(n, t.spec);

describe('nodeShouldRunDaemonPod', () => {
  test('nodeSelector and required node affinity', () => {
    const t = template({
      nodeSelector: { disk: 'ssd' },
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }] } } },
    });
    assert.deepEqual(placement(node('n', { disk: 'ssd', zone: 'a' }), t), { shouldRun: true, shouldContinueRunning: true });
    assert.deepEqual(placement(node('n', { disk: 'hdd', zone: 'a' }), t), { shouldRun: false, shouldContinueRunning: false });
    assert.deepEqual(placement(node('n', { disk: 'ssd', zone: 'c' }), t), { shouldRun: false, shouldContinueRunning: false });
    assert.equal(placement(node('other'), template({ nodeName: 'n' })).shouldRun, false);
  });

  test('taints: NoSchedule stops new pods, NoExecute evicts, tolerations and daemon defaults allow', () => {
    const gpu: Taint = { key: 'gpu', value: 'true', effect: 'NoSchedule' };
    assert.deepEqual(placement(node('n', {}, [gpu])), { shouldRun: false, shouldContinueRunning: true });
    assert.deepEqual(placement(node('n', {}, [{ key: 'drain', effect: 'NoExecute' }])), { shouldRun: false, shouldContinueRunning: false });
    assert.equal(placement(node('n', {}, [gpu]), template({ tolerations: [{ key: 'gpu', operator: 'Equal', value: 'true', effect: 'NoSchedule' }] })).shouldRun, true);
    assert.equal(placement(node('n', {}, [{ key: 'anything', effect: 'NoSchedule' }]), template({ tolerations: [{ operator: 'Exists' }] })).shouldRun, true);
    for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) {
      assert.equal(placement(node('n', {}, [{ key, effect: 'NoExecute' }])).shouldRun, true, key);
    }
    for (const key of ['node.kubernetes.io/unschedulable', 'node.kubernetes.io/memory-pressure', 'node.kubernetes.io/disk-pressure', 'node.kubernetes.io/pid-pressure']) {
      assert.equal(placement(node('n', {}, [{ key, effect: 'NoSchedule' }])).shouldRun, true, key);
    }
    const network: Taint = { key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' };
    assert.equal(placement(node('n', {}, [network])).shouldRun, false);
    assert.equal(placement(node('n', {}, [network]), template({ hostNetwork: true })).shouldRun, true);
    assert.equal(placement(node('n', {}, [{ key: 'soft', effect: 'PreferNoSchedule' }])).shouldRun, true);
  });

  test('default tolerations are added once, and pods are pinned by matchFields', () => {
    const t = template({ tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] });
    assert.equal(withDaemonTolerations(t.spec).length, 6);
    const affinity = pinToNode({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [] }] }, preferredDuringSchedulingIgnoredDuringExecution: [] } }, 'n1');
    const pod: Pod = { metadata: { name: 'p' }, spec: { affinity, containers: [] } };
    assert.equal(targetNodeName(pod.spec), 'n1');
    assert.deepEqual(affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution, []);
  });
});

const now = Date.parse('2024-01-01T00:00:00Z');
const ds = (rolling: Record<string, unknown> = {}): DaemonSet => ({
  metadata: { name: 'agent', uid: 'ds' }, spec: { selector: {}, template: template(), updateStrategy: { type: 'RollingUpdate', rollingUpdate: rolling } },
});
const daemonPod = (name: string, nodeName: string, hash: string, ready = true, created = '2024-01-01T00:00:00Z'): Pod => ({
  metadata: { name, labels: { [hashLabel]: hash }, creationTimestamp: created },
  spec: { affinity: pinToNode(undefined, nodeName), containers: [] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2023-12-31T00:00:00Z' }] },
});

describe('planManage', () => {
  test('creates on eligible nodes without a pod, trims duplicates, clears ineligible and vanished nodes', () => {
    const nodes = [node('a'), node('b'), node('c', { role: 'x' }, [{ key: 'k', effect: 'NoExecute' }]), node('d')];
    const pods = [daemonPod('p-b1', 'b', 'h'), daemonPod('p-b2', 'b', 'h', true, '2024-01-01T00:01:00Z'), daemonPod('p-c', 'c', 'h'), daemonPod('p-gone', 'zz', 'h'),
      { ...daemonPod('p-d', 'd', 'h'), status: { phase: 'Failed' as const } }];
    const { nodes: views, orphaned } = nodesWithPods(ds(), nodes, pods);
    const plan = planManage(ds(), views, orphaned, 'h', false);
    assert.deepEqual(plan.createOn, ['a']);
    assert.deepEqual(plan.delete.map((p) => p.metadata.name).sort(), ['p-b2', 'p-c', 'p-d', 'p-gone']);
    assert.deepEqual(plan.failed.map((p) => p.metadata.name), ['p-d']);
  });
});

describe('rolling update', () => {
  test('budgets: percentages round up; both zero means one unavailable', () => {
    assert.equal(scaledValue('25%', 10, true), 3);
    assert.deepEqual(updateBudget(ds({ maxUnavailable: '20%' }), 10), { maxSurge: 0, maxUnavailable: 2 });
    assert.deepEqual(updateBudget(ds({ maxUnavailable: 0, maxSurge: 0 }), 3), { maxSurge: 0, maxUnavailable: 1 });
    assert.deepEqual(updateBudget(ds({ maxUnavailable: 0, maxSurge: '50%' }), 3), { maxSurge: 2, maxUnavailable: 0 });
  });

  const cluster = (hashes: [string, string, boolean][]) => {
    const nodes = hashes.map(([n]) => node(n));
    const pods = hashes.map(([n, h, ready]) => daemonPod(`p-${n}`, n, h, ready));
    return nodesWithPods(ds(), nodes, pods).nodes;
  };

  test('maxUnavailable: deletes old pods only while the budget allows; unavailable old pods go at once', () => {
    const names = (pods: Pod[]) => pods.map((p) => p.metadata.name);
    assert.deepEqual(names(planRollingUpdate(ds({ maxUnavailable: 1 }), cluster([['a', 'old', true], ['b', 'old', true], ['c', 'old', true]]), 'new', now).delete), ['p-a']);
    assert.deepEqual(names(planRollingUpdate(ds({ maxUnavailable: 1 }), cluster([['a', 'new', false], ['b', 'old', true], ['c', 'old', true]]), 'new', now).delete), []);
    assert.deepEqual(names(planRollingUpdate(ds({ maxUnavailable: 1 }), cluster([['a', 'new', true], ['b', 'old', false], ['c', 'old', true]]), 'new', now).delete), ['p-b', 'p-c']);
    assert.deepEqual(names(planRollingUpdate(ds({ maxUnavailable: 2 }), cluster([['a', 'old', true], ['b', 'old', true], ['c', 'old', true]]), 'new', now).delete), ['p-a', 'p-b']);
  });

  test('maxSurge: starts new pods beside old ones, retires old pods once the new one is available', () => {
    const surge = ds({ maxUnavailable: 0, maxSurge: 1 });
    assert.deepEqual(planRollingUpdate(surge, cluster([['a', 'old', true], ['b', 'old', true]]), 'new', now), { delete: [], createOn: ['a'] });
    const views = nodesWithPods(surge, [node('a'), node('b')], [daemonPod('p-a', 'a', 'old'), daemonPod('p-a2', 'a', 'new', false), daemonPod('p-b', 'b', 'old')]).nodes;
    assert.deepEqual(planRollingUpdate(surge, views, 'new', now), { delete: [], createOn: [] }, 'the surge slot is taken');
    const ready = nodesWithPods(surge, [node('a'), node('b')], [daemonPod('p-a', 'a', 'old'), daemonPod('p-a2', 'a', 'new'), daemonPod('p-b', 'b', 'old')]).nodes;
    const plan = planRollingUpdate(surge, ready, 'new', now);
    assert.deepEqual([plan.delete.map((p) => p.metadata.name), plan.createOn], [['p-a'], ['b']]);
  });
});
