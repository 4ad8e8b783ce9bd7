/**
 * ASTS acceptance S11 and S12 (docs/design/advanced-statefulset.md §12): PVC retention on scale-in and on deletion,
 * and the Parallel creation limit `scaleStrategy.maxUnavailable` with slow readiness.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { PersistentVolumeClaims, Pods } from '../../api/resource-type.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import {
  AdvancedStatefulSets, assertNoViolation, eventually, getSet, IMG1, isLive, isPodReady, livePods, names, ns, patchSpec,
  readyAfterSeconds, settled, startStatefulSetEnv, sts, watchPods, type Pod,
} from './fixtures.js';

const dataClaim = { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };

describe('Advanced StatefulSet: claims and scale limits', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startStatefulSetEnv(); });
  after(() => w.stop());

  const claims = async () => (await w.client.list<KObject>(PersistentVolumeClaims, { namespace: ns, labelSelector: 'app=web' })).items
    .filter((c) => !c.metadata.deletionTimestamp)
    .sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));
  const claimNames = async () => (await claims()).map((c) => c.metadata.name!);
  const claimsAre = (want: string[]) => eventually(`claims ${want.join(',')}`, async () => ((await claimNames()).join() === want.join() ? true : undefined), 60_000);

  test('S11: whenScaled Delete removes claims of scaled-in pods; Retain keeps them; whenDeleted Delete removes all', async () => {
    await w.client.create(AdvancedStatefulSets, sts('web', {
      volumeClaimTemplates: [dataClaim], persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete' },
    }));
    await settled(w.client, 'web', 3);
    assert.deepEqual(await claimNames(), ['data-web-0', 'data-web-1', 'data-web-2']);
    for (const c of await claims()) assert.equal(c.metadata.labels?.app, 'web');
    const pod = (await livePods(w.client, 'web'))[0]!;
    assert.deepEqual((pod.spec.volumes as { name: string; persistentVolumeClaim?: { claimName: string } }[])
      .find((v) => v.name === 'data')?.persistentVolumeClaim, { claimName: 'data-web-0' });

    await patchSpec(w.client, 'web', { replicas: 1 });
    await settled(w.client, 'web', 1);
    await claimsAre(['data-web-0']);

    await patchSpec(w.client, 'web', { persistentVolumeClaimRetentionPolicy: { whenScaled: 'Retain' }, replicas: 2 });
    await settled(w.client, 'web', 2);
    const kept = (await claims()).find((c) => c.metadata.name === 'data-web-1')!;
    await patchSpec(w.client, 'web', { replicas: 1 });
    await settled(w.client, 'web', 1);
    await new Promise((r) => setTimeout(r, 1_000));
    assert.deepEqual(await claimNames(), ['data-web-0', 'data-web-1']);
    await patchSpec(w.client, 'web', { replicas: 2 });
    await settled(w.client, 'web', 2);
    assert.equal((await claims()).find((c) => c.metadata.name === 'data-web-1')?.metadata.uid, kept.metadata.uid);

    const set = await patchSpec(w.client, 'web', { persistentVolumeClaimRetentionPolicy: { whenScaled: 'Retain', whenDeleted: 'Delete' } });
    await eventually('claims owned by the set', async () =>
      ((await claims()).every((c) => c.metadata.ownerReferences?.some((r) => r.uid === set.metadata.uid)) ? true : undefined), 60_000);
    await w.client.delete(AdvancedStatefulSets, ns, 'web');
    await claimsAre([]);
    await eventually('pods gone', async () => ((await w.client.list<Pod>(Pods, { namespace: ns, labelSelector: 'app=web' })).items.length === 0 ? true : undefined), 60_000);
  });

  test('S12: Parallel creation keeps at most scaleStrategy.maxUnavailable pods not Ready', async () => {
    let worst = 0;
    const watch = await watchPods(w.client, 's12', (all) => {
      const notReady = all.filter((p) => isLive(p) && !isPodReady(p)).length;
      worst = Math.max(worst, notReady);
      return notReady > 2 ? `${notReady} pods not Ready` : undefined;
    });
    await w.client.create(AdvancedStatefulSets, sts('s12', { replicas: 6, podManagementPolicy: 'Parallel', scaleStrategy: { maxUnavailable: 2 } }, {
      containers: [{ name: 'app', image: IMG1, readinessProbe: readyAfterSeconds(3) }],
    }));
    await settled(w.client, 's12', 6);
    watch.stop();
    assertNoViolation(watch);
    assert.equal(worst, 2);
    assert.deepEqual(names(await livePods(w.client, 's12')), ['s12-0', 's12-1', 's12-2', 's12-3', 's12-4', 's12-5']);
    assert.equal((await getSet(w.client, 's12')).status?.availableReplicas, 6);
  });
});
