/**
 * A manager restart in the middle of a rollout resumes it with no extra pod deleted: an ordered
 * ReCreate rollout deletes each old pod exactly once, and an in-place rollout restarted during
 * its grace period updates every pod once without deleting any.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import { DeleteRecorder } from './delete-recorder.js';
import {
  AdvancedStatefulSets, eventually, IMG1, IMG2, livePods, readyAfterSeconds, revisionOf, settled, setImage, startStatefulSetEnv,
  statusWhere, sts, uids, watchPods, type Pod,
} from './fixtures.js';

describe('Advanced StatefulSet: manager restart mid-rollout', () => {
  let w: WorkloadEnv;
  const recorder = new DeleteRecorder();
  before(async () => { w = await startStatefulSetEnv({ around: recorder.around }); });
  after(() => w.stop());

  test('ordered ReCreate rollout: every old pod deleted exactly once across a restart', async () => {
    await w.client.create(AdvancedStatefulSets, sts('rc', { replicas: 4 }, { containers: [{ name: 'app', image: IMG1, readinessProbe: readyAfterSeconds(1) }] }));
    const original = uids(await (await settled(w.client, 'rc', 4), livePods(w.client, 'rc')));
    const watch = await watchPods(w.client, 'rc');
    await setImage(w.client, 'rc', IMG2, { readinessProbe: readyAfterSeconds(1) });
    await statusWhere(w.client, 'rc', 'one pod updated', (s) => (s.status?.updatedReplicas ?? 0) >= 1 && s.status?.updateRevision !== s.status?.currentRevision);
    await w.restartManager();
    await settled(w.client, 'rc', 4);
    watch.stop();
    const deletedUids = new Set(watch.history().filter((e) => e.pod.metadata.deletionTimestamp).map((e) => e.pod.metadata.uid!));
    assert.deepEqual([...deletedUids].sort(), [...original.values()].sort());
    assert.deepEqual(recorder.deletedTwice(), []);
    assert.equal(recorder.deletesOf('rc-').length, 4);
  });

  test('in-place rollout restarted during the grace period: same pods, one restart each, nothing deleted', async () => {
    await w.client.create(AdvancedStatefulSets, sts('ip', {
      replicas: 4, podManagementPolicy: 'Parallel',
      updateStrategy: { rollingUpdate: { maxUnavailable: 2, podUpdatePolicy: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: 2 } } },
    }));
    const original = uids(await (await settled(w.client, 'ip', 4), livePods(w.client, 'ip')));
    await setImage(w.client, 'ip', IMG2);
    await eventually('an in-place update in its grace period', async () =>
      (await livePods(w.client, 'ip')).some((p: Pod) => p.metadata.annotations?.['apps.kruise.io/inplace-update-grace']) || undefined);
    await w.restartManager();
    const done = await settled(w.client, 'ip', 4);
    for (const pod of await livePods(w.client, 'ip')) {
      assert.equal(pod.metadata.uid, original.get(pod.metadata.name!));
      assert.equal(pod.status?.containerStatuses?.[0]?.restartCount, 1);
      assert.equal(revisionOf(pod), done.status?.updateRevision);
    }
    assert.equal(recorder.deletesOf('ip-').length, 0);
  });
});
