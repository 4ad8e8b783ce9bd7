import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/core/index.js';
import { FakeSubsetName, type Spread } from '../../control/workloadspread/index.js';
import { deletionCosts } from './deletion-cost.js';
import { subsetStatusOf, type StatusPass } from './subset-status.js';

const now = Date.parse('2026-01-01T00:01:00Z');
const ago = (s: number) => new Date(now - s * 1000).toISOString().replace('.000', '');
const pod = (name: string, extra: { ready?: boolean; deleting?: boolean; uid?: string } = {}): Pod => ({
  metadata: { name, creationTimestamp: ago(30), ...(extra.deleting && { deletionTimestamp: ago(1) }),
    ...(extra.uid && { annotations: { 'apps.kruise.io/matched-workloadspread': JSON.stringify({ name: 'ws', subset: 'a', uid: extra.uid }) } }) },
  spec: { containers: [], nodeName: 'n' },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: extra.ready === false ? 'False' : 'True' }] },
}) as Pod;

test('subset status: observed creations dropped, young records kept, expired ones reported', () => {
  const pass: StatusPass = { now, expired: [] };
  const status = subsetStatusOf({ name: 'a', maxReplicas: 4 }, 4, [pod('p1'), pod('p2', { uid: 'g1' }), pod('gone', { deleting: true })], {
    name: 'a', replicas: 0, missingReplicas: 0,
    creatingPods: { p1: ago(1), g1: ago(1), young: ago(5), old: ago(31) },
    deletingPods: { p1: ago(2), p2: ago(16) },
  }, pass);
  assert.deepEqual(status, { name: 'a', replicas: 2, missingReplicas: 2, creatingPods: { young: ago(5) }, deletingPods: { p1: ago(2) } });
  assert.deepEqual(pass.expired, [{ kind: 'DeletePodFailed', pod: 'p2' }, { kind: 'CreatePodFailed', pod: 'old' }]);
  assert.equal(pass.nextCheckMs, 13_001);
});

test('deletion cost: 100·(n−i) within max, −100·(i+1) for the excess (not-ready first), fake bucket −100·(n+1), reversed for old versions', () => {
  const ws = { metadata: { name: 'ws' }, spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'w' }, subsets: [{ name: 'a', maxReplicas: 1 }, { name: 'b' }] } } as Spread;
  const a1 = pod('a1');
  const a2 = pod('a2', { ready: false });
  const b1 = pod('b1');
  const stray = pod('s');
  const bySubset = new Map([['a', [a1, a2]], ['b', [b1]], [FakeSubsetName, [stray]]]);
  const costs = deletionCosts(ws, bySubset, 2, true);
  assert.deepEqual([a1, a2, b1, stray].map((p) => costs.get(p)), [200, -100, 100, -300]);
  const old = deletionCosts(ws, bySubset, 2, false);
  assert.deepEqual([a1, a2, b1].map((p) => old.get(p)), [100, -200, 200]);
});
