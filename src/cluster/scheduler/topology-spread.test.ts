import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { requiredNodeMatcher } from '../../machinery/scheduling/index.js';
import { podInfo } from './pod-info.js';
import { spreadConstraints } from './spread-constraints.js';
import { filterSpread, normalizeSpread, prepareSpreadFilter, REASON_SPREAD, REASON_SPREAD_MISSING_LABEL, spreadScores } from './topology-spread.js';
import { clusterOf, makeNode, makePod } from './test-objects.js';
import type { Node, Pod, TopologySpreadConstraint } from '../../api/core/index.js';

const nodes = [
  makeNode('a1', { labels: { zone: 'a' } }),
  makeNode('a2', { labels: { zone: 'a' } }),
  makeNode('b1', { labels: { zone: 'b' } }),
  makeNode('c1', { labels: { zone: 'c', pool: 'special' } }),
];
const web = (name: string) => makePod(name, { labels: { app: 'web' } });
const spread = (c: Partial<TopologySpreadConstraint>, extra: Parameters<typeof makePod>[1] = {}) => makePod('p', {
  labels: { app: 'web' },
  topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } }, ...c }],
  ...extra,
});

function verdicts(pod: Pod, bound: [Pod, string][], ns: Node[] = nodes): Record<string, string> {
  const cache = clusterOf(ns, bound);
  const info = podInfo(pod);
  const state = prepareSpreadFilter(spreadConstraints(info), cache.nodes, info, requiredNodeMatcher(pod.spec));
  const out: Record<string, string> = {};
  for (const n of cache.nodes) out[n.name] = (state && filterSpread(state, n)?.reasons[0]) || 'ok';
  return out;
}

describe('PodTopologySpread filter', () => {
  test('a zone already ahead by maxSkew is refused', () => {
    const v = verdicts(spread({}), [[web('w1'), 'a1'], [web('w2'), 'b1']]);
    assert.deepEqual(v, { a1: REASON_SPREAD, a2: REASON_SPREAD, b1: REASON_SPREAD, c1: 'ok' });
  });
  test('maxSkew 2 allows one more', () => {
    const v = verdicts(spread({ maxSkew: 2 }), [[web('w1'), 'a1'], [web('w2'), 'b1']]);
    assert.deepEqual(v, { a1: 'ok', a2: 'ok', b1: 'ok', c1: 'ok' });
  });
  test('non-matching pods and other namespaces do not count', () => {
    const v = verdicts(spread({}), [[makePod('x', { labels: { app: 'db' } }), 'a1'], [makePod('y', { labels: { app: 'web' }, namespace: 'other' }), 'b1']]);
    assert.deepEqual(v, { a1: 'ok', a2: 'ok', b1: 'ok', c1: 'ok' });
  });
  test('a node without the topology key is unresolvable', () => {
    const v = verdicts(spread({}), [], [...nodes, makeNode('nolabel')]);
    assert.equal(v.nolabel, REASON_SPREAD_MISSING_LABEL);
  });
  test('nodes excluded by node affinity do not make a domain (nodeAffinityPolicy Honor)', () => {
    // Only zones a and b are eligible; c being empty must not hold the minimum at 0.
    const pod = spread({}, { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }] } } } });
    const v = verdicts(pod, [[web('w1'), 'a1']]);
    assert.equal(v.b1, 'ok');
    assert.equal(v.a1, REASON_SPREAD);
    const ignoring = spread({ nodeAffinityPolicy: 'Ignore' }, { affinity: pod.spec!.affinity });
    assert.equal(verdicts(ignoring, [[web('w1'), 'a1'], [web('w2'), 'b1']]).b1, REASON_SPREAD);
  });
  test('minDomains above the domain count makes the minimum 0', () => {
    const v = verdicts(spread({ minDomains: 5, maxSkew: 1 }), [[web('w1'), 'a1'], [web('w2'), 'b1'], [web('w3'), 'c1']]);
    assert.deepEqual(v, { a1: REASON_SPREAD, a2: REASON_SPREAD, b1: REASON_SPREAD, c1: REASON_SPREAD });
  });
  test('ScheduleAnyway constraints never filter', () => {
    assert.deepEqual(verdicts(spread({ whenUnsatisfiable: 'ScheduleAnyway' }), [[web('w1'), 'a1']]), { a1: 'ok', a2: 'ok', b1: 'ok', c1: 'ok' });
  });
});

describe('PodTopologySpread score', () => {
  function scores(pod: Pod, bound: [Pod, string][], ns: Node[] = nodes): Record<string, number> {
    const cache = clusterOf(ns, bound);
    const info = podInfo(pod);
    const s = spreadScores(spreadConstraints(info, cache), cache.nodes, cache.nodes, info, requiredNodeMatcher(pod.spec)) ?? [];
    const unindexed = spreadScores(spreadConstraints(info), cache.nodes, cache.nodes, info, requiredNodeMatcher(pod.spec)) ?? [];
    assert.deepEqual(s, unindexed); // the owner index only saves work
    return Object.fromEntries(cache.nodes.map((n, i) => [n.name, s[i]]));
  }
  test('emptier zones score higher', () => {
    const s = scores(spread({ whenUnsatisfiable: 'ScheduleAnyway' }), [[web('w1'), 'a1'], [web('w2'), 'a2'], [web('w3'), 'b1']]);
    assert.ok(s.c1 > s.b1 && s.b1 > s.a1, JSON.stringify(s));
    assert.equal(s.a1, s.a2);
    assert.equal(s.c1, 100);
  });
  test('owner defaults spread a controller\'s pods across nodes and zones', () => {
    const mine = (n: string) => makePod(n, { owner: 'rs1' });
    const zoned = ['a1', 'a2', 'b1', 'c1'].map((n) => makeNode(n, { labels: { 'topology.kubernetes.io/zone': n[0] } }));
    const s = scores(mine('new'), [[mine('m1'), 'a1'], [mine('m2'), 'a1'], [makePod('other', { owner: 'rs2' }), 'b1']], zoned);
    assert.ok(s.b1 > s.a2 && s.a2 > s.a1, JSON.stringify(s));
    assert.equal(s.b1, s.c1);
  });
  test('owner defaults work without zone labels', () => {
    const plain = [makeNode('n1'), makeNode('n2')];
    const s = scores(makePod('new', { owner: 'rs1' }), [[makePod('m1', { owner: 'rs1' }), 'n1']], plain);
    assert.ok(s.n2 > s.n1, JSON.stringify(s));
  });
  test('no constraints and no owner: no score', () => {
    const cache = clusterOf(nodes);
    const info = podInfo(makePod('p'));
    assert.equal(spreadScores(spreadConstraints(info), cache.nodes, cache.nodes, info, () => true), undefined);
  });
  test('normalizeSpread: lower is better, ignored nodes 0, all zero 100', () => {
    assert.deepEqual(normalizeSpread([0, 2, 4, undefined]), [100, 50, 0, 0]);
    assert.deepEqual(normalizeSpread([0, 0]), [100, 100]);
  });
});
