import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { preferredNodeTerms } from '../../machinery/scheduling/index.js';
import { podInfo } from './pod-info.js';
import { balancedAllocationScore, leastAllocatedScore, nodeAffinityScores, normalizeByMax, taintTolerationScores } from './scores.js';
import { clusterOf, makeNode, makePod } from './test-objects.js';

const info = (node = makeNode('n', { cpu: '4', memory: '8Gi' }), bound: ReturnType<typeof makePod>[] = []) =>
  clusterOf([node], bound.map((p): [typeof p, string] => [p, node.metadata.name!])).nodeInfo(node.metadata.name!)!;

describe('resource scores', () => {
  const cases: [string, ReturnType<typeof makePod>[], ReturnType<typeof makePod>, number, number][] = [
    ['empty node, half-size pod', [], makePod('p', { cpu: '2', memory: '4Gi' }), 50, 100],
    ['cpu-heavy pod is unbalanced', [], makePod('p', { cpu: '4', memory: '0' }), 50, 50],
    ['already loaded node', [makePod('a', { cpu: '3', memory: '6Gi' })], makePod('p', { cpu: '1', memory: '2Gi' }), 0, 100],
    ['requests above allocatable score 0 free', [], makePod('p', { cpu: '8', memory: '16Gi' }), 0, 100],
  ];
  for (const [name, bound, pod, least, balanced] of cases) {
    test(name, () => {
      const n = info(undefined, bound);
      assert.equal(leastAllocatedScore(n, podInfo(pod)), least);
      assert.equal(balancedAllocationScore(n, podInfo(pod)), balanced);
    });
  }
  test('containers without requests count 100m / 200Mi for LeastAllocated', () => {
    const n = info(makeNode('n', { cpu: '1', memory: '2000Mi' }));
    assert.equal(leastAllocatedScore(n, podInfo(makePod('p'))), 90);
  });
});

describe('normalizeByMax', () => {
  test('scales by the maximum', () => assert.deepEqual(normalizeByMax([0, 5, 10]), [0, 50, 100]));
  test('reverse makes fewer better and all zero 100', () => {
    assert.deepEqual(normalizeByMax([0, 1, 2], true), [100, 50, 0]);
    assert.deepEqual(normalizeByMax([0, 0], true), [100, 100]);
    assert.deepEqual(normalizeByMax([0, 0]), [0, 0]);
  });
});

describe('node affinity and taint scores', () => {
  const nodes = clusterOf([
    makeNode('a', { labels: { disk: 'ssd', zone: 'z1' }, taints: [{ key: 'x', effect: 'PreferNoSchedule' }, { key: 'y', effect: 'PreferNoSchedule' }] }),
    makeNode('b', { labels: { disk: 'ssd' }, taints: [{ key: 'x', effect: 'PreferNoSchedule' }] }),
    makeNode('c'),
  ]).nodes;
  test('preferred node affinity sums matching weights', () => {
    const terms = preferredNodeTerms({ affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [
      { weight: 30, preference: { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] } },
      { weight: 10, preference: { matchExpressions: [{ key: 'zone', operator: 'Exists' }] } },
    ] } } });
    assert.deepEqual(nodeAffinityScores(nodes, terms), [100, 75, 0]);
    assert.equal(nodeAffinityScores(nodes, []), undefined);
  });
  test('intolerable PreferNoSchedule taints lower the score', () => {
    assert.deepEqual(taintTolerationScores(nodes, []), [0, 50, 100]);
    assert.deepEqual(taintTolerationScores(nodes, [{ key: 'x', operator: 'Exists' }]), [0, 100, 100]);
  });
});
