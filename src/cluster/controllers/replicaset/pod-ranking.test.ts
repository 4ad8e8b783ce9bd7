import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compareForDeletion, deletionCost, podsToDelete, rankByRelatedPods } from './pod-ranking.js';
import type { Pod } from '../../../api/core/index.js';

const now = Date.parse('2024-01-01T12:00:00Z');
const ago = (s: number) => new Date(now - s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

interface Shape { node?: string; phase?: 'Pending' | 'Running' | 'Unknown'; ready?: boolean; readyFor?: number; age?: number; restarts?: number; cost?: string; uid?: string }

function pod(name: string, s: Shape = {}): Pod {
  return {
    metadata: {
      name, uid: s.uid ?? name, creationTimestamp: ago(s.age ?? 3600),
      annotations: s.cost !== undefined ? { 'controller.kubernetes.io/pod-deletion-cost': s.cost } : undefined,
    },
    spec: { nodeName: s.node ?? 'n1', containers: [] },
    status: {
      phase: s.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: s.ready === false ? 'False' : 'True', lastTransitionTime: ago(s.readyFor ?? 600) }],
      containerStatuses: [{ name: 'c', restartCount: s.restarts ?? 0, image: 'img', imageID: '', ready: true }],
    },
  };
}

/** The name of the pod deleted first out of `a` and `b`, compared both ways round. */
function firstOf(a: Pod, b: Pod, related: Pod[] = [a, b]): string {
  const [ra, rb] = rankByRelatedPods([a, b], related);
  const ab = compareForDeletion(ra, rb, now);
  assert.equal(Math.sign(compareForDeletion(rb, ra, now)), -Math.sign(ab), 'comparison must be antisymmetric');
  return ab < 0 ? a.metadata.name! : b.metadata.name!;
}

describe('deletion ranking', () => {
  const cases: { rule: string; victim: Pod; keeper: Pod; related?: () => Pod[] }[] = [
    { rule: 'unscheduled before scheduled', victim: pod('v', { node: '', phase: 'Running' }), keeper: pod('k', { phase: 'Pending', ready: false }) },
    { rule: 'Pending before Running', victim: pod('v', { phase: 'Pending' }), keeper: pod('k') },
    { rule: 'Unknown before Running', victim: pod('v', { phase: 'Unknown' }), keeper: pod('k') },
    { rule: 'not ready before ready', victim: pod('v', { ready: false, age: 99999 }), keeper: pod('k', { age: 1 }) },
    { rule: 'lower deletion cost first', victim: pod('v', { cost: '-5', age: 99999 }), keeper: pod('k', { cost: '10', age: 1 }) },
    {
      rule: 'doubled up on a node first', victim: pod('v', { node: 'busy', age: 99999 }), keeper: pod('k', { node: 'quiet', age: 1 }),
      related: () => [pod('v', { node: 'busy' }), pod('x', { node: 'busy' }), pod('k', { node: 'quiet' })],
    },
    { rule: 'ready for less time first (log buckets)', victim: pod('v', { readyFor: 10 }), keeper: pod('k', { readyFor: 5000 }) },
    { rule: 'more restarts first', victim: pod('v', { restarts: 3 }), keeper: pod('k') },
    { rule: 'newer first', victim: pod('v', { age: 60 }), keeper: pod('k', { age: 86400 }) },
  ];
  for (const c of cases) {
    test(c.rule, () => assert.equal(firstOf(c.victim, c.keeper, c.related?.() ?? [c.victim, c.keeper]), 'v'));
  }

  test('ages in the same log2 bucket fall back to uid order', () => {
    // 100 s and 101 s old are both in bucket floor(log2(~1e11 ns)) = 36
    assert.equal(firstOf(pod('v', { age: 101, uid: 'a' }), pod('k', { age: 100, uid: 'b' })), 'v');
    assert.equal(firstOf(pod('v', { age: 100, uid: 'a' }), pod('k', { age: 101, uid: 'b' })), 'v');
  });

  test('an unparsable deletion cost counts as 0', () => {
    assert.equal(deletionCost(pod('p', { cost: 'lots' })), 0);
    assert.equal(deletionCost(pod('p', { cost: '99999999999' })), 0);
    assert.equal(deletionCost(pod('p', { cost: '-7' })), -7);
  });

  test('podsToDelete takes the first n in ranking order', () => {
    const pods = [pod('old-ready', { age: 90000 }), pod('pending', { phase: 'Pending' }), pod('unready', { ready: false }), pod('new', { age: 30 })];
    assert.deepEqual(podsToDelete(pods, pods, 3, now).map((p) => p.metadata.name), ['pending', 'unready', 'new']);
    assert.equal(podsToDelete(pods, pods, 9, now).length, 4);
  });
});
