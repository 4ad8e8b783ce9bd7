/**
 * The CloneSet behaviours behind OpenKruise's feature gates (docs/design/cloneset.md §15), end to end
 * through the API: each scenario runs with its gate on and, where the difference is the point, off.
 * The gates are read per pass, so one env toggles them between scenarios.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { PersistentVolumeClaims, Pods } from '../../api/resource-type.js';
import { setupCloneSetController } from '../../controllers/cloneset/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';
import {
  cloneSet, CloneSets, eventually, getCloneSet, IMG2, isPodReady, lifecycleOf, livePods, ns, patchCloneSet, revisionOf, setImage, statusWhere, uids,
} from './fixtures.js';

const on = new Set<string>();
let w: WorkloadEnv;

before(async () => {
  const gates = (g: string) => on.has(g) || g === 'InPlaceUpdateEnvFromMetadata';
  w = await startWorkloadEnv({ nodes: 2, controllers: (m) => { setupCloneSetController(m, { gates }); setupPodReadinessController(m); } });
});
after(() => w.stop());

const inPlace = (extra: Record<string, unknown> = {}) => ({ type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: '100%', ...extra } });
const allReady = (name: string, replicas: number) => statusWhere(w.client, name, `${replicas} ready`, (cs, pods) =>
  cs.status?.readyReplicas === replicas && pods.length === replicas && pods.every(isPodReady));
const bare = (revision: string) => revision.slice(revision.lastIndexOf('-') + 1);

describe('PreparingUpdateAsUpdate', () => {
  // Two replicas, partition 99% (one pod to update) held in PreparingUpdate by the inPlaceUpdate hook; the other pod is deleted.
  async function replacementRevision(name: string): Promise<{ current: string; update: string; replacement: string }> {
    const hold = { 'example.io/hold': 'true' };
    await w.client.create(CloneSets, cloneSet(name, {
      replicas: 2, updateStrategy: inPlace({ partition: '99%' }), lifecycle: { inPlaceUpdate: { labelsHandler: hold } },
    }));
    await allReady(name, 2);
    for (const p of await livePods(w.client, name)) await w.client.patch(Pods, ns, p.metadata.name!, 'merge', { metadata: { labels: hold } });
    await setImage(w.client, name, IMG2);
    const preparing = await eventually('one pod in PreparingUpdate', async () =>
      (await livePods(w.client, name)).find((p) => lifecycleOf(p) === 'PreparingUpdate'));
    const other = (await livePods(w.client, name)).find((p) => p.metadata.name !== preparing.metadata.name)!;
    await w.client.delete(Pods, ns, other.metadata.name!);
    const replacement = await eventually('a replacement pod', async () =>
      (await livePods(w.client, name)).find((p) => p.metadata.name !== preparing.metadata.name && p.metadata.name !== other.metadata.name));
    const cs = await getCloneSet(w.client, name);
    return { current: cs.status!.currentRevision!, update: cs.status!.updateRevision!, replacement: revisionOf(replacement)! };
  }

  test('on: the preparing pod counts as updated, so the replacement comes at the current revision', async () => {
    on.add('PreparingUpdateAsUpdate');
    try {
      const r = await replacementRevision('pua-on');
      assert.notEqual(r.current, r.update);
      assert.equal(r.replacement, r.current);
      const cs = await statusWhere(w.client, 'pua-on', 'two pods', (_cs, pods) => pods.length === 2);
      assert.equal(cs.status?.updatedReplicas, 0);
    } finally {
      on.delete('PreparingUpdateAsUpdate');
    }
  });

  test('off: the replacement comes at the update revision', async () => {
    const r = await replacementRevision('pua-off');
    assert.equal(r.replacement, r.update);
  });
});

describe('RecreatePodWhenChangeVCTInCloneSetGate', () => {
  const claimTemplate = (storage: string) => ({ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } });
  const claims = async (app: string) => (await w.client.list<KObject>(PersistentVolumeClaims, { namespace: ns, labelSelector: `app=${app}` })).items
    .filter((c) => !c.metadata.deletionTimestamp);

  async function imageAndClaimChange(name: string): Promise<{ before: Map<string, string>; after: Map<string, string>; sizes: string[] }> {
    await w.client.create(CloneSets, cloneSet(name, { replicas: 2, updateStrategy: inPlace(), volumeClaimTemplates: [claimTemplate('1Gi')] }));
    await allReady(name, 2);
    const before = uids(await livePods(w.client, name));
    await patchCloneSet(w.client, name, {
      volumeClaimTemplates: [claimTemplate('2Gi')], template: { spec: { containers: [{ name: 'web', image: IMG2 }] } },
    });
    const cs = await statusWhere(w.client, name, 'both pods on the new revision and ready', (c, pods) =>
      c.status?.updatedReadyReplicas === 2 && pods.length === 2 && pods.every((p) => revisionOf(p) === c.status?.updateRevision));
    assert.equal(cs.status?.updatedReplicas, 2);
    const after = uids(await livePods(w.client, name));
    const sizes = await eventually('one claim per pod', async () => {
      const live = await claims(name);
      return live.length === 2 ? live.map((c) => (c as { spec?: { resources?: { requests?: { storage?: string } } } }).spec?.resources?.requests?.storage ?? '') : undefined;
    });
    return { before, after, sizes };
  }

  test('on: an image plus claim-template change recreates the pods with new claims', async () => {
    on.add('RecreatePodWhenChangeVCTInCloneSetGate');
    try {
      const r = await imageAndClaimChange('vct-on');
      for (const name of r.before.keys()) assert.ok(!r.after.has(name), `${name} was kept (updated in place)`);
      assert.deepEqual(r.sizes, ['2Gi', '2Gi']);
    } finally {
      on.delete('RecreatePodWhenChangeVCTInCloneSetGate');
    }
  });

  test('off: the same change updates the pods in place and keeps their claims', async () => {
    const r = await imageAndClaimChange('vct-off');
    assert.deepEqual(r.after, r.before);
    assert.deepEqual(r.sizes, ['1Gi', '1Gi']);
  });
});

describe('CloneSetShortHash', () => {
  test('pods carry the bare hash, and an in-place rollout over them completes', async () => {
    on.add('CloneSetShortHash');
    try {
      await w.client.create(CloneSets, cloneSet('short', { replicas: 2, updateStrategy: inPlace() }));
      const first = await allReady('short', 2);
      const before = await livePods(w.client, 'short');
      assert.deepEqual(before.map(revisionOf), [bare(first.status!.updateRevision!), bare(first.status!.updateRevision!)]);
      await setImage(w.client, 'short', IMG2);
      const cs = await statusWhere(w.client, 'short', 'rolled to the new revision', (c, pods) =>
        c.status?.updatedReadyReplicas === 2 && c.status.currentRevision === c.status.updateRevision && c.status.updateRevision !== first.status!.updateRevision
        && pods.every((p) => revisionOf(p) === bare(c.status!.updateRevision!)));
      assert.deepEqual(uids(await livePods(w.client, 'short')), uids(before), 'updated in place');
      assert.equal(cs.status?.updatedReplicas, 2);
    } finally {
      on.delete('CloneSetShortHash');
    }
  });
});

describe('CloneSetPartitionRollback', () => {
  async function raisePartition(name: string): Promise<{ current: string; revisions: (string | undefined)[] }> {
    await w.client.create(CloneSets, cloneSet(name, { replicas: 4, updateStrategy: inPlace({ partition: 2 }) }));
    await allReady(name, 4);
    await setImage(w.client, name, IMG2);
    const half = await statusWhere(w.client, name, 'two pods updated', (c) => c.status?.updatedReadyReplicas === 2);
    await patchCloneSet(w.client, name, { updateStrategy: inPlace({ partition: 4 }) });
    const current = half.status!.currentRevision!;
    const settledPods = await eventually('pods settle after the partition grew', async () => {
      const cs = await getCloneSet(w.client, name);
      const pods = await livePods(w.client, name);
      const want = on.has('CloneSetPartitionRollback') ? 0 : 2;
      return cs.status?.observedGeneration === cs.metadata.generation && cs.status?.updatedReplicas === want && cs.status?.readyReplicas === 4 ? pods : undefined;
    });
    return { current, revisions: settledPods.map(revisionOf) };
  }

  test('on: raising the partition moves the updated pods back to the current revision', async () => {
    on.add('CloneSetPartitionRollback');
    try {
      const r = await raisePartition('rollback-on');
      assert.deepEqual(r.revisions, [r.current, r.current, r.current, r.current]);
    } finally {
      on.delete('CloneSetPartitionRollback');
    }
  });

  test('off: raising the partition never moves pods back', async () => {
    const r = await raisePartition('rollback-off');
    assert.equal(r.revisions.filter((x) => x !== r.current).length, 2);
  });
});
