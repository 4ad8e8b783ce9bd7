import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod, PodSpec } from '../../api/core/index.js';
import { unfitReason } from './node-fitness.js';
import { classifyPods, isComplete, planNodes, podsByNode } from './pod-plan.js';

const node = (name: string, o: { labels?: Record<string, string>; spec?: Node['spec']; allocatable?: Record<string, string> } = {}): Node =>
  ({ metadata: { name, labels: o.labels ?? {} }, spec: o.spec ?? {}, status: { allocatable: o.allocatable ?? { cpu: '2', memory: '4Gi', pods: '110' } } });
const pod = (name: string, nodeName: string, o: { phase?: string; restarts?: number; restartPolicy?: string; deleting?: boolean } = {}): Pod => ({
  metadata: { name, ...(o.deleting ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}) },
  spec: { nodeName, restartPolicy: o.restartPolicy ?? 'Never', containers: [] } as unknown as Pod['spec'],
  status: { phase: (o.phase ?? 'Running') as 'Running', containerStatuses: [{ restartCount: o.restarts ?? 0 } as never] },
});
const spec = (s: Partial<PodSpec> = {}): PodSpec => ({ containers: [{ name: 'c', image: 'i' }], ...s });

describe('node fitness', () => {
  const cases: [string, PodSpec, Node, string | undefined][] = [
    ['plain node', spec(), node('n'), undefined],
    ['other node name', spec({ nodeName: 'm' }), node('n'), "node(s) didn't match the requested node name"],
    ['nodeSelector mismatch', spec({ nodeSelector: { gpu: 'yes' } }), node('n'), "node(s) didn't match Pod's node affinity/selector"],
    ['NoSchedule taint', spec(), node('n', { spec: { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] } }), "node(s) had taint {k: v}, that the pod didn't tolerate"],
    ['tolerated taint', spec({ tolerations: [{ key: 'k', operator: 'Exists' }] }), node('n', { spec: { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] } }), undefined],
    ['PreferNoSchedule is ignored', spec(), node('n', { spec: { taints: [{ key: 'k', effect: 'PreferNoSchedule' }] } }), undefined],
    ['unschedulable', spec(), node('n', { spec: { unschedulable: true } }), 'node(s) were unschedulable'],
    ['unschedulable, tolerated', spec({ tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] }), node('n', { spec: { unschedulable: true } }), undefined],
    ['too much cpu', spec({ containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '3' } } }] }), node('n'), 'Insufficient cpu'],
    ['init container is the max', spec({ initContainers: [{ name: 'i', image: 'i', resources: { requests: { memory: '5Gi' } } }] }), node('n'), 'Insufficient memory'],
  ];
  for (const [name, s, n, want] of cases) test(name, () => assert.equal(unfitReason(s, n), want));
});

describe('pod classification and node plan', () => {
  test('phases, restart limit for OnFailure pods only, deleting pods ignored whatever their phase', () => {
    const counts = classifyPods([pod('killed', 'g', { phase: 'Failed', deleting: true }),
      pod('ok', 'a', { phase: 'Succeeded' }), pod('bad', 'b', { phase: 'Failed' }), pod('gone', 'c', { deleting: true }),
      pod('loop', 'd', { restartPolicy: 'OnFailure', restarts: 2 }), pod('loop-ok', 'e', { restartPolicy: 'OnFailure', restarts: 1 }),
      pod('never', 'f', { restarts: 5 }),
    ], 1);
    assert.deepEqual([counts.active, counts.failed, counts.succeeded].map((l) => l.map((p) => p.metadata.name)), [['loop-ok', 'never'], ['bad', 'loop'], ['ok']]);
  });

  test('desired nodes, nodes to run, pods that no longer fit; complete when every desired node has a finished pod', () => {
    const duplicates: string[] = [];
    const byNode = podsByNode([pod('p1', 'n1', { phase: 'Succeeded' }), pod('p2', 'n2'), pod('p2b', 'n2')], (p) => duplicates.push(p.metadata.name!));
    assert.deepEqual(duplicates, ['p2b']);
    const plan = planNodes([node('n1'), node('n2', { spec: { unschedulable: true } }), node('n3'), node('n4', { labels: {} , spec: { taints: [{ key: 'x', effect: 'NoExecute' }] } })], spec(), byNode);
    assert.deepEqual([...plan.desired.keys()], ['n1', 'n3']);
    assert.deepEqual(plan.toRun, ['n3']);
    assert.deepEqual(plan.toDelete.map((p) => p.metadata.name), ['p2b']);
    assert.equal(isComplete(plan), false);
    assert.equal(isComplete(planNodes([node('n1')], spec(), byNode)), true);
    assert.equal(isComplete(planNodes([], spec(), byNode)), false, 'no desired node: not complete');
  });
});
