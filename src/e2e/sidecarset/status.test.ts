/**
 * SidecarSet status through the API while the controller counts from pod events (docs/design/sidecarset.md
 * §12): pods joining, a pod deleted, a namespace's labels moving it in and out of namespaceSelector,
 * and an image upgrade, each reflected in matchedPods / readyPods / updatedPods / updatedReadyPods.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Namespaces } from '../../api/resource-type.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import { appPod, createPod, deleteSidecarSets, eventually, getSet, logAgent, Pods, SidecarSets, startSidecarEnv } from './fixtures.js';

type Counts = { matchedPods?: number; readyPods?: number; updatedPods?: number; updatedReadyPods?: number };

async function statusIs(w: WorkloadEnv, name: string, want: Counts): Promise<void> {
  let last: unknown;
  await eventually(`status of ${name} ${JSON.stringify(want)} (last ${JSON.stringify(last)})`, async () => {
    const set = await getSet(w.client, name);
    const s: Counts = set.status ?? {};
    last = s;
    const seen = { matchedPods: s.matchedPods, readyPods: s.readyPods, updatedPods: s.updatedPods, updatedReadyPods: s.updatedReadyPods };
    return set.status?.observedGeneration === set.metadata.generation && Object.entries(want).every(([k, v]) => seen[k as keyof Counts] === v);
  }, 30_000);
}

describe('SidecarSet status', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startSidecarEnv({ startDelayMs: 100 }); });
  after(() => w.stop());
  afterEach(async () => {
    await deleteSidecarSets(w.client);
    await deleteSidecarSets(w.client, 'team-a');
  });

  test('counts follow pods joining, a pod deleted and an image upgrade', async () => {
    await w.client.create(SidecarSets, logAgent('agent-s', 'counted', { updateStrategy: { maxUnavailable: '100%' } }));
    await statusIs(w, 'agent-s', { matchedPods: 0, readyPods: 0, updatedPods: 0, updatedReadyPods: 0 });
    for (let i = 0; i < 4; i++) await createPod(w.client, appPod(`counted-${i}`, { app: 'counted' }));
    await createPod(w.client, appPod('other', { app: 'other' }));
    await statusIs(w, 'agent-s', { matchedPods: 4, readyPods: 4, updatedPods: 4, updatedReadyPods: 4 });
    await w.client.delete(Pods, 'default', 'counted-3', { gracePeriodSeconds: 0 });
    await statusIs(w, 'agent-s', { matchedPods: 3, readyPods: 3, updatedPods: 3, updatedReadyPods: 3 });
    await w.client.patch(SidecarSets, undefined, 'agent-s', 'merge', { spec: { containers: [{ ...logAgent().spec!.containers![0], image: 'busybox:1.36' }] } });
    await statusIs(w, 'agent-s', { matchedPods: 3, readyPods: 3, updatedPods: 3, updatedReadyPods: 3 });
    const set = await getSet(w.client, 'agent-s');
    assert.equal(set.status?.latestRevision !== undefined, true);
  });

  test('a namespace label change moves its pods in and out of a namespaceSelector', async () => {
    await w.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { tier: 'gold' } } });
    await w.client.create(SidecarSets, logAgent('agent-ns', 'nsd', { namespaceSelector: { matchLabels: { tier: 'gold' } } }));
    for (let i = 0; i < 2; i++) await createPod(w.client, appPod(`nsd-${i}`, { app: 'nsd' }, {}, {}, 'team-a'));
    await statusIs(w, 'agent-ns', { matchedPods: 2, readyPods: 2 });
    await w.client.patch(Namespaces, undefined, 'team-a', 'merge', { metadata: { labels: { tier: 'bronze' } } });
    // the status is rewritten on the next event of the SidecarSet: a spec change is one
    await w.client.patch(SidecarSets, undefined, 'agent-ns', 'merge', { metadata: { labels: { touched: 'yes' } } });
    await statusIs(w, 'agent-ns', { matchedPods: 0, readyPods: 0 });
  });
});
