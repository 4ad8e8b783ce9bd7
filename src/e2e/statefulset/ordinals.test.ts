/**
 * ASTS acceptance S9 and S10 without the gate (docs/design/advanced-statefulset.md §12): reserved ordinals (ints and
 * ranges) move pods to other ordinals; `ordinals.start` is ignored while StatefulSetStartOrdinal
 * is off (the default). Also docs/design/advanced-statefulset.md §6: a pod with an empty phase counts as not created.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Pods } from '../../api/resource-type.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import {
  AdvancedStatefulSets, assertNoViolation, IMG1, livePods, names, ns, patchSpec, settled, startStatefulSetEnv, statusWhere, sts, uids,
  watchPods, type Pod,
} from './fixtures.js';

describe('Advanced StatefulSet: ordinals', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startStatefulSetEnv(); });
  after(() => w.stop());

  test('S9: reserveOrdinals skip ordinals; changing them moves pods', async () => {
    await w.client.create(AdvancedStatefulSets, sts('web', { reserveOrdinals: [1] }));
    await settled(w.client, 'web', 3, { names: ['web-0', 'web-2', 'web-3'] });
    const first = uids(await livePods(w.client, 'web'));
    const watch = await watchPods(w.client, 'web', (_all, e) =>
      (e.type === 'ADDED' && e.pod.metadata.name === 'web-1' ? 'web-1 (reserved) was created' : undefined));

    await patchSpec(w.client, 'web', { reserveOrdinals: [1, 2] });
    await settled(w.client, 'web', 3, { names: ['web-0', 'web-3', 'web-4'] });
    const second = uids(await livePods(w.client, 'web'));
    assert.equal(second.get('web-0'), first.get('web-0'));
    assert.equal(second.get('web-3'), first.get('web-3'));

    await patchSpec(w.client, 'web', { reserveOrdinals: [1, '3-4'] });
    await settled(w.client, 'web', 3, { names: ['web-0', 'web-2', 'web-5'] });
    const third = uids(await livePods(w.client, 'web'));
    assert.equal(third.get('web-0'), first.get('web-0'));
    assert.notEqual(third.get('web-2'), first.get('web-2'), 'web-2 was deleted and created again');
    watch.stop();
    assertNoViolation(watch);
  });

  test('a pod with an empty status.phase is treated as not created: its ordinal is created again (and fails)', async () => {
    const orphan = await w.client.create<Pod>(Pods, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ep-0', namespace: ns, labels: { app: 'ep' } },
      spec: { schedulerName: 'nobody', containers: [{ name: 'app', image: IMG1 }] },
    });
    await w.client.updateStatus(Pods, { ...orphan, status: { phase: '' } });
    await w.client.create(AdvancedStatefulSets, sts('ep', { replicas: 1 }));
    const set = await statusWhere(w.client, 'ep', 'FailedCreatePod', (s) => s.status?.conditions?.some((c) => c.type === 'FailedCreatePod') ?? false);
    assert.equal(set.status?.replicas, 0);
    assert.match(set.status!.conditions!.find((c) => c.type === 'FailedCreatePod')!.message ?? '', /pods "ep-0" already exists/);
    const adopted = await w.client.get<Pod>(Pods, ns, 'ep-0');
    assert.equal(adopted.metadata.ownerReferences?.[0]?.name, 'ep');
  });

  test('S10 (gate off): ordinals.start is ignored', async () => {
    await w.client.create(AdvancedStatefulSets, sts('s10', { ordinals: { start: 10 } }));
    await settled(w.client, 's10', 3, { names: ['s10-0', 's10-1', 's10-2'] });
    assert.deepEqual(names(await livePods(w.client, 's10')), ['s10-0', 's10-1', 's10-2']);
  });
});
