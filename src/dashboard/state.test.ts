import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DashboardState, type Delta } from './state.js';
import { podRow, workloadRow } from './summaries.js';
import type { KObject } from '../api/meta.js';

const pod = (name: string, ready: boolean, extra: Partial<KObject['metadata']> = {}): KObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid: `uid-${name}`, labels: { 'controller-revision-hash': 'web-abc' }, ...extra },
  spec: { nodeName: 'n1' }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }], containerStatuses: [{ restartCount: 2 }] },
} as KObject);

const nextDelta = (state: DashboardState) => new Promise<Delta>((resolve) => { const off = state.subscribe((d) => { off(); resolve(d); }); });

test('a pod row carries phase, readiness, restarts, revision and the in-place mark', () => {
  assert.deepEqual(podRow(pod('a', true, { annotations: { 'apps.kruise.io/inplace-update-state': '{}' }, ownerReferences: [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', name: 'web', uid: 'u', controller: true }] })), {
    ns: 'default', name: 'a', uid: 'uid-a', node: 'n1', phase: 'Running', ready: true, restarts: 2, owner: 'CloneSet/web', revision: 'web-abc', inPlace: true, deleting: false,
  });
});

test('unchanged rows send nothing; changes of one interval leave as one delta', async () => {
  const state = new DashboardState(5);
  state.upsert('pods', podRow(pod('a', false)));
  const delta = nextDelta(state);
  state.upsert('pods', podRow(pod('a', false))); // same row: no change
  state.upsert('pods', podRow(pod('a', true)));
  state.upsert('pods', podRow(pod('b', true)));
  state.delete('pods', podRow(pod('a', true)));
  const d = await delta;
  assert.deepEqual((d.upserts.pods as { name: string }[]).map((p) => p.name), ['a', 'b']);
  assert.deepEqual(d.deletes.pods, ['default/a']);
  assert.deepEqual(state.snapshot().rows.pods.map((p) => (p as { name: string }).name), ['b']);
  state.stop();
});

test('a workload row change appends a timeline point; an unchanged progress does not', async () => {
  let t = 1000;
  const state = new DashboardState(1, () => t);
  const cs = (updated: number, generation = 1): KObject => ({
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: 'web', namespace: 'default', generation },
    spec: { replicas: 3, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', partition: 1, paused: false } } },
    status: { observedGeneration: 1, updatedReplicas: updated, readyReplicas: 3, updateRevision: 'web-2', currentRevision: 'web-1' },
  } as KObject);
  assert.equal(workloadRow(cs(1)).partition, '1');
  assert.equal(workloadRow(cs(1)).strategy, 'RollingUpdate InPlaceIfPossible');
  state.upsert('workloads', workloadRow(cs(1)));
  t = 2000;
  state.upsert('workloads', workloadRow(cs(1, 2))); // observed changed, progress did not
  t = 3000;
  state.upsert('workloads', workloadRow(cs(3, 2)));
  assert.deepEqual(state.snapshot().timelines['CloneSet/default/web']!.map((p) => [p.t, p.updated]), [[1000, 1], [3000, 3]]);
  state.stop();
});
