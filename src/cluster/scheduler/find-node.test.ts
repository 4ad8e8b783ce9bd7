import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findNode, numFeasibleNodesToFind, pickBest } from './find-node.js';
import { seededRandom } from './rng.js';
import { clusterOf, makeNode, makePod } from './test-objects.js';

describe('numFeasibleNodesToFind', () => {
  const cases: [number, number, number][] = [[50, 0, 50], [99, 0, 99], [100, 0, 100], [1000, 0, 420], [5000, 0, 500], [100000, 0, 5000], [1000, 100, 1000], [1000, 10, 100], [1000, 30, 300]];
  for (const [nodes, pct, want] of cases) test(`${nodes} nodes at ${pct}%`, () => assert.equal(numFeasibleNodesToFind(nodes, pct), want));
});

describe('pickBest', () => {
  test('highest wins', () => assert.equal(pickBest([1, 5, 3], seededRandom(1)), 1));
  test('ties are broken evenly and reproducibly', () => {
    const random = seededRandom(42);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) counts[pickBest([7, 9, 9, 9], random)]++;
    assert.equal(counts[0], 0);
    for (const c of counts.slice(1)) assert.ok(c > 1100 && c < 1570, String(counts));
    const again = seededRandom(42);
    const first = seededRandom(42);
    assert.deepEqual([1, 2, 3].map(() => pickBest([1, 1, 1], again)), [1, 2, 3].map(() => pickBest([1, 1, 1], first)));
  });
});

describe('findNode', () => {
  const random = seededRandom(7);
  test('the only fitting node is chosen', () => {
    const cache = clusterOf([makeNode('small', { cpu: '1' }), makeNode('big', { cpu: '8' })]);
    const r = findNode(makePod('p', { cpu: '2' }), cache, { random });
    assert.equal(r.node, 'big');
  });
  test('the emptier node wins on score', () => {
    const cache = clusterOf([makeNode('busy'), makeNode('idle')], [[makePod('x', { cpu: '3', memory: '6Gi' }), 'busy']]);
    for (let i = 0; i < 5; i++) assert.equal(findNode(makePod(`p${i}`, { cpu: '100m' }), cache, { random }).node, 'idle');
  });
  test('preferred node affinity outweighs a little free room', () => {
    const cache = clusterOf([makeNode('plain'), makeNode('ssd', { labels: { disk: 'ssd' } })], [[makePod('x', { cpu: '1' }), 'ssd']]);
    const pod = makePod('p', { affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 50, preference: { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] } }] } } });
    assert.equal(findNode(pod, cache, { random }).node, 'ssd');
  });
  test('nothing fits: message and per-node statuses', () => {
    const cache = clusterOf([makeNode('a', { cpu: '1' }), makeNode('b', { cpu: '1' }), makeNode('c', { labels: { other: 'x' }, taints: [{ key: 'k', effect: 'NoSchedule' }] })]);
    const r = findNode(makePod('p', { cpu: '2' }), cache, { random });
    assert.equal(r.node, undefined);
    if (r.node === undefined) {
      assert.equal(r.message, '0/3 nodes are available: 1 node(s) had untolerated taint {k: }, 2 Insufficient cpu. '
        + 'preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.');
      assert.equal(r.statuses.size, 3);
    }
  });
  test('filtering resumes where the last cycle stopped', () => {
    const nodes = Array.from({ length: 300 }, (_, i) => makeNode(`n${i}`));
    const cache = clusterOf(nodes);
    const r1 = findNode(makePod('p'), cache, { random, start: 0 });
    assert.equal(r1.nextStart, 144); // 48% of 300 nodes
    const r2 = findNode(makePod('p'), cache, { random, start: 250 });
    assert.equal(r2.nextStart, 94);
  });
  test('the same seed picks the same nodes', () => {
    const cache = clusterOf(Array.from({ length: 10 }, (_, i) => makeNode(`n${i}`)));
    const run = (seed: number) => { const rnd = seededRandom(seed); return Array.from({ length: 5 }, (_, i) => findNode(makePod(`p${i}`), cache, { random: rnd }).node); };
    assert.deepEqual(run(3), run(3));
    assert.equal(new Set(run(3)).size > 1, true);
  });
});
