import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { filterPodAffinity, prepareAffinityFilter, REASON_AFFINITY, REASON_ANTI_AFFINITY, REASON_EXISTING_ANTI_AFFINITY } from './pod-affinity-filter.js';
import { normalizeMinMax, prepareAffinityScore, rawAffinityScore } from './pod-affinity-score.js';
import { podInfo } from './pod-info.js';
import { clusterOf, makeNode, makePod } from './test-objects.js';
import type { Pod, PodAffinityTerm } from '../../api/core/index.js';

const zoneNodes = [
  makeNode('a1', { labels: { zone: 'a' } }),
  makeNode('a2', { labels: { zone: 'a' } }),
  makeNode('b1', { labels: { zone: 'b' } }),
  makeNode('x1'), // no zone label
];
const term = (app: string, topologyKey = 'zone', extra: Partial<PodAffinityTerm> = {}): PodAffinityTerm =>
  ({ labelSelector: { matchLabels: { app } }, topologyKey, ...extra });
const antiPod = (name: string, labels: Record<string, string>, ...terms: PodAffinityTerm[]) =>
  makePod(name, { labels, affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: terms } } });
const affinityPod = (name: string, labels: Record<string, string>, ...terms: PodAffinityTerm[]) =>
  makePod(name, { labels, affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: terms } } });

/** Node name -> failure reason (or 'ok') for `pod` with `bound` pods in place. */
function verdicts(pod: Pod, bound: [Pod, string][], nsLabels: Record<string, Record<string, string>> = {}): Record<string, string> {
  const cache = clusterOf(zoneNodes, bound);
  const ns = (n: string) => nsLabels[n];
  const state = prepareAffinityFilter(podInfo(pod), cache.nodes, ns);
  const out: Record<string, string> = {};
  for (const n of cache.nodes) out[n.name] = (state && filterPodAffinity(state, podInfo(pod), n)?.reasons[0]) || 'ok';
  return out;
}

describe('InterPodAffinity filter', () => {
  test('required anti-affinity keeps the pod out of the zone of a matching pod', () => {
    const v = verdicts(antiPod('p', { app: 'web' }, term('web')), [[makePod('w', { labels: { app: 'web' } }), 'a1']]);
    assert.deepEqual(v, { a1: REASON_ANTI_AFFINITY, a2: REASON_ANTI_AFFINITY, b1: 'ok', x1: 'ok' });
  });
  test('anti-affinity by hostname only excludes that node', () => {
    const v = verdicts(antiPod('p', { app: 'web' }, term('web', 'kubernetes.io/hostname')), [[makePod('w', { labels: { app: 'web' } }), 'a1']]);
    assert.deepEqual(v, { a1: REASON_ANTI_AFFINITY, a2: 'ok', b1: 'ok', x1: 'ok' });
  });
  test('an existing pod\'s anti-affinity keeps a matching pod away', () => {
    const v = verdicts(makePod('p', { labels: { app: 'db' } }), [[antiPod('w', { app: 'web' }, term('db')), 'b1']]);
    assert.deepEqual(v, { a1: 'ok', a2: 'ok', b1: REASON_EXISTING_ANTI_AFFINITY, x1: 'ok' });
  });
  test('anti-affinity only looks at the pod\'s namespace by default', () => {
    const v = verdicts(antiPod('p', { app: 'web' }, term('web')), [[makePod('w', { labels: { app: 'web' }, namespace: 'other' }), 'a1']]);
    assert.deepEqual(v, { a1: 'ok', a2: 'ok', b1: 'ok', x1: 'ok' });
  });
  test('namespaceSelector widens the namespaces', () => {
    const p = antiPod('p', { app: 'web' }, term('web', 'zone', { namespaceSelector: { matchLabels: { team: 'x' } } }));
    const v = verdicts(p, [[makePod('w', { labels: { app: 'web' }, namespace: 'other' }), 'a1']], { other: { team: 'x' } });
    assert.equal(v.a1, REASON_ANTI_AFFINITY);
  });
  test('required affinity goes to the zone of a matching pod; nodes without the key are unresolvable', () => {
    const v = verdicts(affinityPod('p', {}, term('cache')), [[makePod('c', { labels: { app: 'cache' } }), 'b1']]);
    assert.deepEqual(v, { a1: REASON_AFFINITY, a2: REASON_AFFINITY, b1: 'ok', x1: REASON_AFFINITY });
  });
  test('the first pod of a self-affine group may go to any node with the key', () => {
    const v = verdicts(affinityPod('p', { app: 'cache' }, term('cache')), []);
    assert.deepEqual(v, { a1: 'ok', a2: 'ok', b1: 'ok', x1: REASON_AFFINITY });
  });
  test('affinity to pods that do not exist (and not to itself) fits nowhere', () => {
    const v = verdicts(affinityPod('p', { app: 'x' }, term('cache')), []);
    assert.deepEqual(Object.values(v), [REASON_AFFINITY, REASON_AFFINITY, REASON_AFFINITY, REASON_AFFINITY]);
  });
  test('matchLabelKeys narrows the selector to the pod\'s own value', () => {
    const p = antiPod('p', { app: 'web', rev: '2' }, term('web', 'zone', { matchLabelKeys: ['rev'] }));
    const v = verdicts(p, [[makePod('old', { labels: { app: 'web', rev: '1' } }), 'a1'], [makePod('new', { labels: { app: 'web', rev: '2' } }), 'b1']]);
    assert.deepEqual(v, { a1: 'ok', a2: 'ok', b1: REASON_ANTI_AFFINITY, x1: 'ok' });
  });
  test('nothing to prepare without terms anywhere', () => {
    assert.equal(prepareAffinityFilter(podInfo(makePod('p')), clusterOf(zoneNodes).nodes, () => undefined, false), undefined);
  });
});

describe('InterPodAffinity score', () => {
  const preferring = makePod('p', {
    labels: { app: 'web' },
    affinity: {
      podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, podAffinityTerm: term('cache') }] },
      podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 5, podAffinityTerm: term('web', 'kubernetes.io/hostname') }] },
    },
  });
  test('preferred affinity and anti-affinity add and subtract per domain', () => {
    const cache = clusterOf(zoneNodes, [[makePod('c', { labels: { app: 'cache' } }), 'a2'], [makePod('w', { labels: { app: 'web' } }), 'a1']]);
    const state = prepareAffinityScore(podInfo(preferring), cache.nodes, () => undefined)!;
    const raw = cache.nodes.map((n) => rawAffinityScore(state, n));
    assert.deepEqual(raw, [5, 10, 0, 0]);
    assert.deepEqual(normalizeMinMax(raw), [50, 100, 0, 0]);
  });
  test('existing pods\' preferences towards the incoming pod count too', () => {
    const fan = makePod('f', { labels: { app: 'fan' }, affinity: { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 20, podAffinityTerm: term('star') }] } } });
    const cache = clusterOf(zoneNodes, [[fan, 'b1']]);
    const state = prepareAffinityScore(podInfo(makePod('s', { labels: { app: 'star' } })), cache.nodes, () => undefined)!;
    assert.deepEqual(cache.nodes.map((n) => rawAffinityScore(state, n)), [0, 0, 20, 0]);
  });
  test('equal sums normalise to 0', () => assert.deepEqual(normalizeMinMax([3, 3]), [0, 0]));
});
