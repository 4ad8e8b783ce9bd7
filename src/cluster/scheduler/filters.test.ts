import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { filterHostPorts, filterNodeAffinity, filterResources, filterTaints, filterUnschedulable } from './filters.js';
import { requiredNodeMatcher } from '../../machinery/scheduling/index.js';
import { podInfo } from './pod-info.js';
import { clusterOf, makeNode, makePod } from './test-objects.js';
import type { Pod } from '../../api/core/index.js';

const nodeInfo = (node = makeNode('n1'), bound: Pod[] = []) => clusterOf([node], bound.map((p): [Pod, string] => [p, 'n1'])).nodeInfo('n1')!;

describe('NodeUnschedulable', () => {
  test('blocks unless the pod tolerates the unschedulable taint', () => {
    const n = nodeInfo(makeNode('n1', { unschedulable: true }));
    assert.deepEqual(filterUnschedulable(n, []), { reasons: ['node(s) were unschedulable'], unresolvable: true });
    assert.equal(filterUnschedulable(n, [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }]), undefined);
    assert.equal(filterUnschedulable(nodeInfo(), []), undefined);
  });
});

describe('TaintToleration', () => {
  const cases: [string, Parameters<typeof makeNode>[1], Partial<Pod['spec']>, string | undefined][] = [
    ['untainted', {}, {}, undefined],
    ['NoSchedule blocks', { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] }, {}, 'node(s) had untolerated taint {k: v}'],
    ['NoExecute blocks', { taints: [{ key: 'k', effect: 'NoExecute' }] }, {}, 'node(s) had untolerated taint {k: }'],
    ['PreferNoSchedule does not block', { taints: [{ key: 'k', effect: 'PreferNoSchedule' }] }, {}, undefined],
    ['tolerated', { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] }, { tolerations: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] }, undefined],
    ['not-ready node', { ready: 'False' }, {}, 'node(s) had untolerated taint {node.kubernetes.io/not-ready: }'],
    ['not-ready tolerated (DaemonSet style)', { ready: 'False' }, { tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }] }, undefined],
    ['unreachable node', { ready: 'Unknown' }, {}, 'node(s) had untolerated taint {node.kubernetes.io/unreachable: }'],
  ];
  for (const [name, node, spec, reason] of cases) {
    test(name, () => {
      const status = filterTaints(nodeInfo(makeNode('n1', node)), spec?.tolerations);
      assert.deepEqual(status, reason ? { reasons: [reason], unresolvable: true } : undefined);
    });
  }
});

describe('NodeAffinity', () => {
  test('selector mismatch is unresolvable', () => {
    const n = nodeInfo(makeNode('n1', { labels: { zone: 'a' } }));
    assert.equal(filterNodeAffinity(n, requiredNodeMatcher({ nodeSelector: { zone: 'a' } })), undefined);
    assert.deepEqual(filterNodeAffinity(n, requiredNodeMatcher({ nodeSelector: { zone: 'b' } })), { reasons: ["node(s) didn't match Pod's node affinity/selector"], unresolvable: true });
  });
});

describe('NodePorts', () => {
  const withPort = (name: string, hostPort: number, hostIP?: string) => makePod(name, { containers: [{ name: 'c', ports: [{ containerPort: 80, hostPort, hostIP }] }] });
  test('clashing host port fails, others pass', () => {
    const n = nodeInfo(makeNode('n1'), [withPort('a', 8080)]);
    assert.deepEqual(filterHostPorts(n, podInfo(withPort('b', 8080))), { reasons: ["node(s) didn't have free ports for the requested pod ports"], unresolvable: false });
    assert.equal(filterHostPorts(n, podInfo(withPort('c', 8081))), undefined);
    assert.deepEqual(filterHostPorts(n, podInfo(withPort('d', 8080, '10.1.1.1')))?.reasons.length, 1);
  });
});

describe('NodeResourcesFit', () => {
  const node = makeNode('n1', { cpu: '2', memory: '4Gi', pods: 3, extra: { 'ephemeral-storage': '10Gi', 'example.com/gpu': '1' } });
  const used = [makePod('a', { cpu: '1500m', memory: '1Gi' }), makePod('b', { cpu: '100m' })];
  const cases: [string, Pod, string[] | undefined][] = [
    ['fits', makePod('p', { cpu: '400m', memory: '3Gi' }), undefined],
    ['cpu short', makePod('p', { cpu: '500m' }), ['Insufficient cpu']],
    ['memory short', makePod('p', { memory: '3500Mi', cpu: '100m' }), ['Insufficient memory']],
    ['every short resource is reported', makePod('p', { memory: '3500Mi', cpu: '1' }), ['Insufficient cpu', 'Insufficient memory']],
    ['no requests always fit resources', makePod('p'), undefined],
    ['ephemeral storage', makePod('p', { containers: [{ name: 'c', resources: { requests: { 'ephemeral-storage': '11Gi' } } }] }), ['Insufficient ephemeral-storage']],
    ['extended resource', makePod('p', { containers: [{ name: 'c', resources: { requests: { 'example.com/gpu': '2' } } }] }), ['Insufficient example.com/gpu']],
    ['unknown extended resource', makePod('p', { containers: [{ name: 'c', resources: { requests: { 'example.com/fpga': '1' } } }] }), ['Insufficient example.com/fpga']],
  ];
  for (const [name, pod, reasons] of cases) {
    test(name, () => {
      const status = filterResources(nodeInfo(node, used), podInfo(pod));
      assert.deepEqual(status?.reasons, reasons);
      if (status) assert.equal(status.unresolvable, false);
    });
  }
  test('pod count', () => {
    const full = nodeInfo(node, [...used, makePod('c')]);
    assert.deepEqual(filterResources(full, podInfo(makePod('p')))?.reasons, ['Too many pods']);
  });
});
