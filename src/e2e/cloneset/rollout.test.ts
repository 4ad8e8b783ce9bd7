/**
 * CloneSet rollouts as a user watches them (docs/design/cloneset.md §13 C6, C7, C10, C11): the in-place grace
 * period, the fall-back to recreate, surge budgets (checked on every pod event), pause and OnDelete.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Pods } from '../../api/resource-type.js';
import { type WorkloadEnv, holds } from '../../testing/workload-env.js';
import {
  cloneSet, CloneSets, condition, eventually, getCloneSet, IMG1, IMG2, isPodReady, lifecycleOf, livePods, ns, patchCloneSet, restartsOf,
  revisionOf, setImage, settled, startCloneSetEnv, statusWhere, uids, watchPods, type Pod,
} from './fixtures.js';

const inPlace = (extra: Record<string, unknown> = {}) => ({ updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', ...extra } } });
const annotation = (pod: Pod, key: string) => pod.metadata.annotations?.[key];

describe('CloneSet rollouts', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startCloneSetEnv(); });
  after(() => w.stop());

  test('C6: with gracePeriodSeconds 10 the pod goes not-ready at once and gets the new image only after the grace period', async () => {
    await w.client.create(CloneSets, cloneSet('grace', {
      replicas: 1, ...inPlace({ inPlaceUpdateStrategy: { gracePeriodSeconds: 10 } }),
    }));
    const before = await settled(w.client, 'grace', 1);
    const [pod0] = await livePods(w.client, 'grace');
    let imageChangedAt: number | undefined;
    const watch = await watchPods(w.client, 'grace', (live) => {
      if (imageChangedAt === undefined && live.some((p) => p.spec.containers[0]!.image === IMG2)) imageChangedAt = Date.now();
      return live.length === 1 && live[0]!.metadata.uid === pod0!.metadata.uid ? undefined : `pod recreated: ${live.map((p) => p.metadata.name).join(',')}`;
    });
    try {
      const patchedAt = Date.now();
      await setImage(w.client, 'grace', IMG2);
      const during = await eventually('grace annotation and InPlaceUpdateReady=False within 3 s', async () => {
        const [pod] = await livePods(w.client, 'grace');
        return pod && annotation(pod, 'apps.kruise.io/inplace-update-grace') && condition(pod, 'InPlaceUpdateReady')?.status === 'False'
          && !isPodReady(pod) ? pod : undefined;
      }, 3_000);
      assert.ok(Date.now() - patchedAt < 3_000);
      assert.equal(condition(during, 'InPlaceUpdateReady')?.reason, 'StartInPlaceUpdate');
      assert.equal(condition(during, 'Ready')?.status, 'False');
      assert.equal(during.spec.containers[0]!.image, IMG1, 'image untouched during the grace period');
      assert.equal(lifecycleOf(during), 'Updating');
      const pending = JSON.parse(annotation(during, 'apps.kruise.io/inplace-update-grace')!) as { revision?: string; graceSeconds?: number };
      const cs = await getCloneSet(w.client, 'grace');
      assert.equal(pending.revision, cs.status!.updateRevision);
      assert.equal(pending.graceSeconds, 10);
      assert.equal(revisionOf(during), cs.status!.updateRevision, 'revision label moves when the update starts');
      assert.equal(cs.status!.readyReplicas, 0);
      assert.equal(cs.status!.updatedReadyReplicas, 0);

      const done = await settled(w.client, 'grace', 1, { notRevision: before.status!.updateRevision, timeoutMs: 25_000 });
      assert.ok(imageChangedAt, 'the image changed');
      // updateTimestamp is RFC3339 (whole seconds), so the grace may end up to 1 s before patch + 10 s.
      assert.ok(imageChangedAt - patchedAt >= 9_000, `image changed ${imageChangedAt - patchedAt} ms after the patch, before the 10 s grace`);
      const [pod] = await livePods(w.client, 'grace');
      assert.equal(pod!.metadata.uid, pod0!.metadata.uid);
      assert.equal(pod!.spec.containers[0]!.image, IMG2);
      assert.equal(annotation(pod!, 'apps.kruise.io/inplace-update-grace'), undefined);
      assert.equal(condition(pod!, 'InPlaceUpdateReady')?.status, 'True');
      assert.equal(restartsOf(pod!), 1);
      assert.equal(lifecycleOf(pod!), 'Normal');
      assert.equal(revisionOf(pod!), done.status!.updateRevision);
      assert.equal(watch.violation(), undefined);
    } finally {
      watch.stop();
    }
  });

  test('C7: an env change recreates every pod; a template label alone is applied in place without a restart', async () => {
    await w.client.create(CloneSets, cloneSet('fallback', inPlace()));
    const first = await settled(w.client, 'fallback', 3);
    const original = await livePods(w.client, 'fallback');
    await patchCloneSet(w.client, 'fallback', { template: { spec: { containers: [{ name: 'web', image: IMG1, env: [{ name: 'FOO', value: 'bar' }] }] } } });
    const second = await settled(w.client, 'fallback', 3, { notRevision: first.status!.updateRevision });
    const recreated = await livePods(w.client, 'fallback');
    const oldNames = new Set(original.map((p) => p.metadata.name));
    assert.deepEqual(recreated.filter((p) => oldNames.has(p.metadata.name)).map((p) => p.metadata.name), [], 'no original pod survives');
    for (const pod of recreated) {
      assert.deepEqual(pod.spec.containers[0]!.env, [{ name: 'FOO', value: 'bar' }]);
      assert.equal(restartsOf(pod), 0);
    }

    await patchCloneSet(w.client, 'fallback', { template: { metadata: { labels: { app: 'fallback', tier: 'front' } } } });
    const third = await settled(w.client, 'fallback', 3, { notRevision: second.status!.updateRevision });
    const relabelled = await livePods(w.client, 'fallback');
    assert.deepEqual(uids(relabelled), uids(recreated), 'same names and UIDs');
    for (const pod of relabelled) {
      assert.equal(pod.metadata.labels?.tier, 'front');
      assert.equal(revisionOf(pod), third.status!.updateRevision);
      assert.equal(pod.metadata.labels?.['pod-template-hash'], third.status!.updateRevision!.slice('fallback-'.length));
      assert.equal(restartsOf(pod), 0, 'a label change restarts nothing');
      assert.equal(condition(pod, 'InPlaceUpdateReady')?.status, 'True');
      assert.equal(lifecycleOf(pod), 'Normal');
    }
  });

  test('C10: maxSurge 1 / maxUnavailable 0 recreates with at most 4 live pods and never fewer than 3 ready', async () => {
    await w.client.create(CloneSets, cloneSet('surge', { updateStrategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } }));
    const first = await settled(w.client, 'surge', 3);
    const oldNames = new Set((await livePods(w.client, 'surge')).map((p) => p.metadata.name));
    let mostLive = 0;
    let fewestReady = 3;
    const watch = await watchPods(w.client, 'surge', (live) => {
      const ready = live.filter(isPodReady).length;
      mostLive = Math.max(mostLive, live.length);
      fewestReady = Math.min(fewestReady, ready);
      if (live.length > 4) return `${live.length} live pods: ${live.map((p) => p.metadata.name).join(', ')}`;
      return ready < 3 ? `only ${ready} ready live pods` : undefined;
    });
    try {
      await setImage(w.client, 'surge', IMG2);
      const done = await settled(w.client, 'surge', 3, { notRevision: first.status!.updateRevision });
      assert.equal(watch.violation(), undefined);
      assert.equal(mostLive, 4, 'the surge pod was used');
      assert.equal(fewestReady, 3);
      const pods = await livePods(w.client, 'surge');
      assert.equal(pods.filter((p) => oldNames.has(p.metadata.name)).length, 0);
      assert.ok(pods.every((p) => revisionOf(p) === done.status!.updateRevision && p.spec.containers[0]!.image === IMG2));
    } finally {
      watch.stop();
    }
  });

  test('C11a: paused holds the update; a scale-up while paused adds one pod on the update revision; unpausing finishes', async () => {
    await w.client.create(CloneSets, cloneSet('paused', { updateStrategy: { rollingUpdate: { paused: true } } }));
    const first = await settled(w.client, 'paused', 3);
    const original = uids(await livePods(w.client, 'paused'));
    await setImage(w.client, 'paused', IMG2);
    const observed = await statusWhere(w.client, 'paused', 'new update revision observed', (cs) => cs.status!.updateRevision !== first.status!.updateRevision);
    await holds('paused: nothing updated', async () => {
      const cs = await getCloneSet(w.client, 'paused');
      const pods = await livePods(w.client, 'paused');
      if (cs.status?.updatedReplicas !== 0) return `updatedReplicas ${cs.status?.updatedReplicas}`;
      if (cs.status.currentRevision !== first.status!.updateRevision) return `currentRevision ${cs.status.currentRevision}`;
      const now = uids(pods);
      if (now.size !== 3 || [...now].some(([n, u]) => original.get(n) !== u)) return `pods changed: ${[...now.keys()].join(',')}`;
      return pods.find((p) => p.spec.containers[0]!.image !== IMG1) ? 'an image changed' : undefined;
    }, 10_000);

    await patchCloneSet(w.client, 'paused', { replicas: 4 });
    const scaled = await statusWhere(w.client, 'paused', '4 pods, 1 updated', (cs, pods) => pods.length === 4 && cs.status?.replicas === 4 && cs.status.updatedReplicas === 1);
    assert.equal(scaled.status!.updateRevision, observed.status!.updateRevision);
    const pods = await livePods(w.client, 'paused');
    const added = pods.filter((p) => !original.has(p.metadata.name!));
    assert.equal(added.length, 1);
    assert.equal(revisionOf(added[0]!), observed.status!.updateRevision);
    assert.equal(added[0]!.spec.containers[0]!.image, IMG2);
    assert.deepEqual(pods.filter((p) => original.has(p.metadata.name!)).map(revisionOf), [1, 2, 3].map(() => first.status!.updateRevision));

    await patchCloneSet(w.client, 'paused', { updateStrategy: { rollingUpdate: { paused: false } } });
    const done = await settled(w.client, 'paused', 4, { notRevision: first.status!.updateRevision });
    assert.equal(done.status!.updateRevision, observed.status!.updateRevision);
    assert.ok((await livePods(w.client, 'paused')).every((p) => p.spec.containers[0]!.image === IMG2));
  });

  test('C11b: OnDelete never touches pods; a deleted pod comes back on the update revision; scale-in removes old pods first', async () => {
    await w.client.create(CloneSets, cloneSet('ondelete', { updateStrategy: { type: 'OnDelete' } }));
    const first = await settled(w.client, 'ondelete', 3);
    assert.equal(first.spec!.updateStrategy?.rollingUpdate, undefined, 'no rollingUpdate defaulted for OnDelete');
    const original = uids(await livePods(w.client, 'ondelete'));
    await setImage(w.client, 'ondelete', IMG2);
    const observed = await statusWhere(w.client, 'ondelete', 'new update revision observed', (cs) => cs.status!.updateRevision !== first.status!.updateRevision);
    assert.equal(observed.status!.updatedReplicas, 0);
    assert.equal(observed.status!.expectedUpdatedReplicas, 3);
    assert.equal(observed.status!.currentRevision, first.status!.updateRevision);
    await holds('OnDelete: no pod changes', async () => {
      const pods = await livePods(w.client, 'ondelete');
      const now = uids(pods);
      if (now.size !== 3 || [...now].some(([n, u]) => original.get(n) !== u)) return `pods changed: ${[...now.keys()].join(',')}`;
      return pods.find((p) => revisionOf(p) !== first.status!.updateRevision || p.spec.containers[0]!.image !== IMG1) ? 'a pod moved revision' : undefined;
    }, 2_000);

    const victim = [...original.keys()][0]!;
    await w.client.delete(Pods, ns, victim);
    const replaced = await statusWhere(w.client, 'ondelete', '3 pods, 1 updated', (cs, pods) =>
      pods.length === 3 && !pods.some((p) => p.metadata.name === victim) && cs.status?.replicas === 3 && cs.status.updatedReplicas === 1);
    const pods = await livePods(w.client, 'ondelete');
    const replacement = pods.find((p) => !original.has(p.metadata.name!))!;
    assert.equal(revisionOf(replacement), replaced.status!.updateRevision);
    assert.equal(replacement.spec.containers[0]!.image, IMG2);

    await patchCloneSet(w.client, 'ondelete', { replicas: 2 });
    await statusWhere(w.client, 'ondelete', '2 pods', (cs, live) => live.length === 2 && cs.status?.replicas === 2);
    const remaining = await livePods(w.client, 'ondelete');
    assert.ok(remaining.some((p) => p.metadata.uid === replacement.metadata.uid), 'the updated pod stays');
    assert.equal(remaining.filter((p) => revisionOf(p) === replaced.status!.updateRevision).length, 1);
    assert.equal((await getCloneSet(w.client, 'ondelete')).status!.updatedReplicas, 1);
  });
});
