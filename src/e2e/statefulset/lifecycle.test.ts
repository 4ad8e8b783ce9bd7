/**
 * ASTS lifecycle hooks (docs/design/inplace-update.md §9): a preNormal hook keeps a new pod PreparingNormal (and
 * unavailable) until its labels are on the pod; an inPlaceUpdate hook holds an in-place update in
 * PreparingUpdate (markPodNotReady turns KruisePodReady False), the update then runs through
 * Updating to Updated, and the pod is Normal again once the hook label is back.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Pods } from '../../api/resource-type.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import {
  AdvancedStatefulSets, condition, eventually, getSet, IMG2, lifecycleOf, ns, revisionOf, setImage, startStatefulSetEnv, sts, type Pod,
} from './fixtures.js';

const ready = 'ready.example.io/ok';
// OrderedReady on purpose: a pod held in PreparingUpdate must not stall the set (see reconcile.ts).
const hold = 'upd.example.io/hold';

describe('Advanced StatefulSet: lifecycle hooks', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startStatefulSetEnv(); });
  after(() => w.stop());

  const pod = () => w.client.get<Pod>(Pods, ns, 'lh-0');
  const label = (labels: Record<string, string | null>) => w.client.patch(Pods, ns, 'lh-0', 'merge', { metadata: { labels } });
  const inState = (state: string, extra: (p: Pod) => boolean = () => true) =>
    eventually(`lh-0 ${state}`, async () => { const p = await pod(); return lifecycleOf(p) === state && extra(p) ? p : undefined; }, 60_000);

  test('preNormal and inPlaceUpdate hooks', async () => {
    await w.client.create(AdvancedStatefulSets, sts('lh', {
      replicas: 1,
      updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' } },
      lifecycle: { preNormal: { labelsHandler: { [ready]: 'true' } }, inPlaceUpdate: { labelsHandler: { [hold]: 'true' }, markPodNotReady: true } },
    }));
    const created = await inState('PreparingNormal', (p) => condition(p, 'Ready')?.status === 'True');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(lifecycleOf(await pod()), 'PreparingNormal');
    assert.equal((await getSet(w.client, 'lh')).status?.availableReplicas, 0);

    await label({ [ready]: 'true', [hold]: 'true' });
    await inState('Normal');
    await eventually('available', async () => (await getSet(w.client, 'lh')).status?.availableReplicas === 1 || undefined, 60_000);

    const set = await setImage(w.client, 'lh', IMG2);
    const held = await inState('PreparingUpdate');
    assert.equal(held.spec.containers[0]!.image, 'nginx:1.25-alpine');
    assert.notEqual(revisionOf(held), (await getSet(w.client, 'lh')).status?.updateRevision ?? set.status?.updateRevision);
    const notReady = await eventually('KruisePodReady False', async () => {
      const c = condition(await pod(), 'KruisePodReady');
      return c?.status === 'False' ? c : undefined;
    }, 60_000);
    assert.equal(notReady.message, '[{"userAgent":"Lifecycle","key":"preUpdateHook"}]');

    await label({ [hold]: null });
    const updated = await inState('Updated', (p) => p.spec.containers[0]!.image === IMG2);
    assert.equal(updated.metadata.uid, created.metadata.uid);
    await label({ [hold]: 'true' });
    const normal = await inState('Normal');
    assert.equal(normal.metadata.uid, created.metadata.uid);
    assert.equal(revisionOf(normal), (await getSet(w.client, 'lh')).status?.updateRevision);
    assert.deepEqual([condition(updated, 'KruisePodReady')?.status, condition(updated, 'KruisePodReady')?.message], ['True', '[]']);
  });
});
