/**
 * Partitioned rollouts and template rollback (docs/design/cloneset.md §13 C8 and the revision part of C15):
 * a partition keeps exactly that many pods on the old revision (checked on every pod event),
 * percents round up, raising the partition never moves pods back (CloneSetPartitionRollback off),
 * and going back to an old template reuses its ControllerRevision.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ControllerRevisions } from '../../api/resource-type.js';
import { type WorkloadEnv, holds } from '../../testing/workload-env.js';
import {
  cloneSet, CloneSets, getCloneSet, IMG1, IMG2, livePods, ns, patchCloneSet, revisionNames, revisionOf, setImage, settled, startCloneSetEnv,
  statusWhere, uids, watchPods, type CloneSet, type Pod,
} from './fixtures.js';
import type { ControllerRevision } from '../../api/core/index.js';

const partitioned = (partition: number | string, podUpdatePolicy = 'InPlaceIfPossible') =>
  ({ updateStrategy: { rollingUpdate: { podUpdatePolicy, partition } } });

describe('CloneSet partition', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startCloneSetEnv(); });
  after(() => w.stop());

  /** Waits until exactly `updated` pods are on the update revision and available, with the expected count in status. */
  const partitionStep = (name: string, replicas: number, updated: number) =>
    statusWhere(w.client, name, `${updated} of ${replicas} pods updated and available`, (cs, pods) => {
      const s = cs.status!;
      return s.replicas === replicas && s.updatedReplicas === updated && s.updatedAvailableReplicas === updated && s.availableReplicas === replicas
        && s.expectedUpdatedReplicas === updated && pods.length === replicas && pods.filter((p) => revisionOf(p) === s.updateRevision).length === updated;
    });
  const noProgressing = (cs: CloneSet) => assert.ok(!cs.status!.conditions?.some((c) => c.type === 'Progressing'), 'no Progressing condition without a deadline');
  const onRevision = (pods: Pod[], revision: string) => pods.filter((p) => revisionOf(p) === revision).length;

  test('C8: partition 3 of 5 updates exactly 2 pods, "40%" exactly 3, raising it moves none back, 0 finishes the rollout', async () => {
    await w.client.create(CloneSets, cloneSet('part', { replicas: 5, ...partitioned(3) }));
    const first = await settled(w.client, 'part', 5);
    const oldRevision = first.status!.updateRevision!;
    const original = uids(await livePods(w.client, 'part'));
    let limit = 2;
    let mostUpdated = 0;
    const watch = await watchPods(w.client, 'part', (live) => {
      const updated = live.length - onRevision(live, oldRevision);
      mostUpdated = Math.max(mostUpdated, updated);
      return updated > limit ? `${updated} pods left ${oldRevision} while only ${limit} may` : undefined;
    });
    try {
      await setImage(w.client, 'part', IMG2);
      const two = await partitionStep('part', 5, 2);
      assert.notEqual(two.status!.updateRevision, oldRevision);
      assert.equal(two.status!.currentRevision, oldRevision, 'currentRevision stays until every pod is updated');
      noProgressing(two);
      const stepTwo = await livePods(w.client, 'part');
      assert.deepEqual(uids(stepTwo), original, 'in place: same names and UIDs');
      assert.equal(stepTwo.filter((p) => p.spec.containers[0]!.image === IMG2).length, 2);

      limit = 3;
      await patchCloneSet(w.client, 'part', partitioned('40%'));
      const three = await partitionStep('part', 5, 3);
      assert.equal(three.status!.currentRevision, oldRevision);
      noProgressing(three);
      const updatedNames = (await livePods(w.client, 'part')).filter((p) => revisionOf(p) === three.status!.updateRevision).map((p) => p.metadata.name);
      assert.ok(stepTwo.filter((p) => revisionOf(p) !== oldRevision).every((p) => updatedNames.includes(p.metadata.name)), 'the first two stay updated');

      // Partition 4 wants only 1 updated pod, but pods never go back to the current revision.
      await patchCloneSet(w.client, 'part', partitioned(4));
      await statusWhere(w.client, 'part', 'expectedUpdatedReplicas 1', (cs) => cs.status?.expectedUpdatedReplicas === 1);
      await holds('raised partition: the 3 updated pods stay', async () => {
        const cs = await getCloneSet(w.client, 'part');
        const pods = await livePods(w.client, 'part');
        const names = pods.filter((p) => revisionOf(p) === three.status!.updateRevision).map((p) => p.metadata.name);
        if (cs.status?.updatedReplicas !== 3) return `updatedReplicas ${cs.status?.updatedReplicas}`;
        return names.length === 3 && names.every((n) => updatedNames.includes(n)) ? undefined : `updated pods now ${names.join(',')}`;
      }, 2_000);

      limit = 5;
      await patchCloneSet(w.client, 'part', partitioned(0));
      const all = await settled(w.client, 'part', 5);
      assert.equal(all.status!.updateRevision, three.status!.updateRevision);
      assert.equal(all.status!.currentRevision, all.status!.updateRevision);
      assert.equal(all.status!.expectedUpdatedReplicas, 5);
      assert.deepEqual(uids(await livePods(w.client, 'part')), original);
      assert.equal(mostUpdated, 5);
      assert.equal(watch.violation(), undefined);

      await patchCloneSet(w.client, 'part', partitioned(3));
      await statusWhere(w.client, 'part', 'expectedUpdatedReplicas 2', (cs) => cs.status?.expectedUpdatedReplicas === 2);
      await holds('partition raised after the rollout: every pod stays updated', async () => {
        const cs = await getCloneSet(w.client, 'part');
        return cs.status?.updatedReplicas === 5 && cs.status.currentRevision === all.status!.updateRevision ? undefined : JSON.stringify(cs.status);
      }, 1_000);
      assert.equal(watch.violation(), undefined);
    } finally {
      watch.stop();
    }
  });

  test('C8: partition "99%" of 4 still updates exactly 1 pod (a percent never holds back every pod)', async () => {
    await w.client.create(CloneSets, cloneSet('part99', { replicas: 4, ...partitioned('99%', 'ReCreate') }));
    const first = await settled(w.client, 'part99', 4);
    assert.equal(first.status!.expectedUpdatedReplicas, 1);
    const oldRevision = first.status!.updateRevision!;
    const watch = await watchPods(w.client, 'part99', (live) => {
      const moved = live.length - onRevision(live, oldRevision);
      return moved > 1 ? `${moved} pods on the new revision` : live.length > 4 ? `${live.length} live pods` : undefined;
    });
    try {
      await setImage(w.client, 'part99', IMG2);
      const one = await partitionStep('part99', 4, 1);
      assert.equal(one.status!.currentRevision, oldRevision);
      noProgressing(one);
      await holds('exactly 1 pod updated', async () => {
        const pods = await livePods(w.client, 'part99');
        return onRevision(pods, one.status!.updateRevision!) === 1 && pods.length === 4 ? undefined : `${pods.map((p) => `${p.metadata.name}@${revisionOf(p)}`).join(' ')}`;
      }, 1_500);
      const pods = await livePods(w.client, 'part99');
      assert.deepEqual(pods.map((p) => p.spec.containers[0]!.image).sort(), [IMG1, IMG1, IMG1, IMG2]);
      assert.equal(watch.violation(), undefined);
    } finally {
      watch.stop();
    }
  });

  test('C15: going back to the first template reuses its ControllerRevision name; 2 revisions remain', async () => {
    await w.client.create(CloneSets, cloneSet('rollback'));
    const first = await settled(w.client, 'rollback', 3);
    const rev1 = first.status!.updateRevision!;
    assert.deepEqual(await revisionNames(w.client, 'rollback'), [rev1]);

    await setImage(w.client, 'rollback', IMG2);
    const second = await settled(w.client, 'rollback', 3, { notRevision: rev1 });
    const rev2 = second.status!.updateRevision!;
    assert.deepEqual(await revisionNames(w.client, 'rollback'), [rev1, rev2].sort());

    await setImage(w.client, 'rollback', IMG1);
    const back = await settled(w.client, 'rollback', 3, { notRevision: rev2 });
    assert.equal(back.status!.updateRevision, rev1);
    assert.equal(back.status!.currentRevision, rev1);
    assert.deepEqual(await revisionNames(w.client, 'rollback'), [rev1, rev2].sort());
    const listed = (await w.client.list<ControllerRevision>(ControllerRevisions, { namespace: ns })).items;
    const numbers = new Map(listed.filter((r) => r.metadata.name === rev1 || r.metadata.name === rev2).map((r) => [r.metadata.name!, r.revision]));
    assert.ok(numbers.get(rev1)! > numbers.get(rev2)!, `the reused revision gets the newest revision number: ${JSON.stringify([...numbers])}`);
    const pods = await livePods(w.client, 'rollback');
    assert.ok(pods.every((p) => revisionOf(p) === rev1 && p.spec.containers[0]!.image === IMG1));
  });
});
