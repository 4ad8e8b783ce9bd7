/**
 * ASTS acceptance S6 and S13 (docs/design/advanced-statefulset.md §12): in-place image update with a grace period
 * [sim-inplace] (and recreate when the change cannot be done in place), specified delete, and the
 * preDelete hook holding a scaled-in pod in PreparingDelete.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Pods } from '../../api/resource-type.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import {
  AdvancedStatefulSets, condition, eventually, getSet, IMG1, IMG2, isPodReady, lifecycleOf, livePods, names, ns, patchSpec,
  revisionOf, settled, setImage, startStatefulSetEnv, sts, uids, watchPods, type Pod,
} from './fixtures.js';

const restarts = (pod: Pod) => pod.status?.containerStatuses?.[0]?.restartCount;

describe('Advanced StatefulSet: in-place update, specified delete, preDelete hook', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startStatefulSetEnv(); });
  after(() => w.stop());

  test('S6: InPlaceIfPossible updates images in place after the grace period; an env change recreates', async () => {
    await w.client.create(AdvancedStatefulSets, sts('s6', {
      updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: 2 } } },
    }));
    const before = uids(await (await settled(w.client, 's6', 3), livePods(w.client, 's6')));
    const gate = new Map<string, string[]>();
    const watch = await watchPods(w.client, 's6', (_all, e) => {
      const status = condition(e.pod, 'InPlaceUpdateReady')?.status ?? '-';
      const seen = gate.get(e.pod.metadata.name!) ?? [];
      if (seen[seen.length - 1] !== status) gate.set(e.pod.metadata.name!, [...seen, status]);
      return undefined;
    });
    await setImage(w.client, 's6', IMG2);
    const set = await settled(w.client, 's6', 3);
    watch.stop();
    const update = set.status!.updateRevision!;
    for (const pod of await livePods(w.client, 's6')) {
      const name = pod.metadata.name!;
      assert.equal(pod.metadata.uid, before.get(name), `${name} kept its UID`);
      assert.equal(restarts(pod), 1);
      assert.equal(pod.spec.containers[0]!.image, IMG2);
      assert.equal(revisionOf(pod), update);
      assert.equal(lifecycleOf(pod), 'Normal');
      const state = JSON.parse(pod.metadata.annotations?.['apps.kruise.io/inplace-update-state'] ?? '{}') as { revision?: string };
      assert.equal(state.revision, update);
      assert.equal(pod.metadata.annotations?.['apps.kruise.io/inplace-update-grace'], undefined);
      assert.deepEqual(gate.get(name)?.slice(-2), ['False', 'True'], `${name} InPlaceUpdateReady history ${gate.get(name)?.join(',')}`);
    }
    await setImage(w.client, 's6', IMG2, { env: [{ name: 'MODE', value: 'x' }] });
    await settled(w.client, 's6', 3);
    for (const pod of await livePods(w.client, 's6')) {
      assert.notEqual(pod.metadata.uid, before.get(pod.metadata.name!), `${pod.metadata.name} recreated`);
      assert.deepEqual(pod.spec.containers[0]!.env, [{ name: 'MODE', value: 'x' }]);
    }
  });

  test('S13: specified delete recreates the pod; the preDelete hook holds a scaled-in pod', async () => {
    await w.client.create(AdvancedStatefulSets, sts('s13'));
    const before = uids(await (await settled(w.client, 's13', 3), livePods(w.client, 's13')));
    await w.client.patch(Pods, ns, 's13-1', 'merge', { metadata: { labels: { 'apps.kruise.io/specified-delete': 'true' } } });
    await eventually('s13-1 recreated', async () => {
      const pod = (await livePods(w.client, 's13')).find((p) => p.metadata.name === 's13-1');
      return pod && pod.metadata.uid !== before.get('s13-1') && isPodReady(pod) ? pod : undefined;
    }, 60_000);
    const recreated = (await settled(w.client, 's13', 3)).status!;
    assert.equal(revisionOf((await livePods(w.client, 's13'))[1]!), recreated.updateRevision);
    assert.equal((await livePods(w.client, 's13'))[1]!.metadata.labels?.['apps.kruise.io/specified-delete'], undefined);

    await patchSpec(w.client, 's13', { lifecycle: { preDelete: { labelsHandler: { 'example.io/hold': 'true' } } } });
    await w.client.patch(Pods, ns, 's13-2', 'merge', { metadata: { labels: { 'example.io/hold': 'true' } } });
    await patchSpec(w.client, 's13', { replicas: 2 });
    const held = await eventually('s13-2 PreparingDelete', async () => {
      const pod = await w.client.get<Pod>(Pods, ns, 's13-2');
      return lifecycleOf(pod) === 'PreparingDelete' ? pod : undefined;
    }, 60_000);
    await new Promise((r) => setTimeout(r, 1_500));
    const still = await w.client.get<Pod>(Pods, ns, 's13-2');
    assert.equal(still.metadata.uid, held.metadata.uid);
    assert.equal(still.metadata.deletionTimestamp, undefined);
    assert.equal((await getSet(w.client, 's13')).status?.replicas, 3);
    await w.client.patch(Pods, ns, 's13-2', 'merge', { metadata: { labels: { 'example.io/hold': null } } });
    await settled(w.client, 's13', 2, { names: ['s13-0', 's13-1'] });
    assert.deepEqual(names(await livePods(w.client, 's13')), ['s13-0', 's13-1']);
    assert.equal((await livePods(w.client, 's13'))[0]!.spec.containers[0]!.image, IMG1);
  });
});
