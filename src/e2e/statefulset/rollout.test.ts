/**
 * ASTS acceptance S4, S5, S8, S14 (docs/design/advanced-statefulset.md §12): ordered ReCreate rollout, partition,
 * Parallel with maxUnavailable 2, and unordered update with a weight priority.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Pods } from '../../api/resource-type.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import {
  AdvancedStatefulSets, assertNoViolation, getSet, IMG2, isLive, isPodReady, livePods, names, ns, patchSpec, revisionOf, settled,
  setImage, startStatefulSetEnv, statusWhere, sts, uids, watchPods, type Pod,
} from './fixtures.js';

/** Names in the order their pods first got a deletionTimestamp. */
function deletionOrder(history: { type: string; pod: Pod }[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const { pod } of history) {
    if (!pod.metadata.deletionTimestamp || seen.has(pod.metadata.uid!)) continue;
    seen.add(pod.metadata.uid!);
    out.push(pod.metadata.name!);
  }
  return out;
}

const notReady = (all: Pod[]) => all.filter((p) => !isLive(p) || !isPodReady(p)).length;

describe('Advanced StatefulSet: rolling updates', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startStatefulSetEnv(); });
  after(() => w.stop());

  test('S4: ordered ReCreate update replaces web-2, web-1, web-0 one at a time', async () => {
    await w.client.create(AdvancedStatefulSets, sts('s4', {}, { readinessGates: [] }));
    const before = uids(await (await settled(w.client, 's4', 3), livePods(w.client, 's4')));
    const watch = await watchPods(w.client, 's4', (all) => (notReady(all) > 1 ? `${notReady(all)} pods not Ready at once` : undefined));
    const old = (await getSet(w.client, 's4')).status!.updateRevision;
    await setImage(w.client, 's4', IMG2);
    const set = await settled(w.client, 's4', 3);
    watch.stop();
    assertNoViolation(watch);
    assert.notEqual(set.status!.updateRevision, old);
    assert.equal(set.status!.currentRevision, set.status!.updateRevision);
    assert.deepEqual(deletionOrder(watch.history()), ['s4-2', 's4-1', 's4-0']);
    const after = await livePods(w.client, 's4');
    assert.deepEqual(names(after), ['s4-0', 's4-1', 's4-2']);
    for (const pod of after) assert.notEqual(pod.metadata.uid, before.get(pod.metadata.name!));
  });

  test('S5: partition keeps the lowest ordinals on the old revision until lowered', async () => {
    await w.client.create(AdvancedStatefulSets, sts('s5', { replicas: 5, updateStrategy: { rollingUpdate: { partition: 3 } } }));
    const old = (await settled(w.client, 's5', 5)).status!.updateRevision;
    await setImage(w.client, 's5', IMG2);
    const set = await statusWhere(w.client, 's5', '2 updated, 3 current', (s, pods) => s.status?.updatedReplicas === 2
      && s.status.currentReplicas === 3 && s.status.readyReplicas === 5 && pods.length === 5 && pods.every(isPodReady));
    const s = set.status!;
    assert.equal(s.currentRevision, old);
    assert.notEqual(s.updateRevision, old);
    const pods = await livePods(w.client, 's5');
    assert.deepEqual(pods.map(revisionOf), [old, old, old, s.updateRevision, s.updateRevision]);
    await patchSpec(w.client, 's5', { updateStrategy: { rollingUpdate: { partition: 0 } } });
    const done = await settled(w.client, 's5', 5);
    assert.equal(done.status!.currentRevision, s.updateRevision);
  });

  test('S8: Parallel with maxUnavailable 2 replaces web-3 and web-2 together, then web-1 and web-0', async () => {
    await w.client.create(AdvancedStatefulSets, sts('s8', {
      replicas: 4, podManagementPolicy: 'Parallel', updateStrategy: { rollingUpdate: { maxUnavailable: 2 } },
    }));
    await settled(w.client, 's8', 4);
    const watch = await watchPods(w.client, 's8', (all) => (notReady(all) > 2 ? `${notReady(all)} pods not Ready at once` : undefined));
    await setImage(w.client, 's8', IMG2);
    await settled(w.client, 's8', 4);
    watch.stop();
    assertNoViolation(watch);
    const order = deletionOrder(watch.history());
    assert.equal(order.length, 4);
    assert.deepEqual(order.slice(0, 2).sort(), ['s8-2', 's8-3']);
    assert.deepEqual(order.slice(2).sort(), ['s8-0', 's8-1']);
    // simultaneously: the second of the pair was deleted before the first replacement was Ready
    const history = watch.history();
    const secondDeleted = history.findIndex((e) => e.pod.metadata.name === order[1] && e.pod.metadata.deletionTimestamp);
    const firstReady = history.findIndex((e) => e.pod.metadata.name === order[0] && !e.pod.metadata.deletionTimestamp
      && isPodReady(e.pod) && revisionOf(e.pod) !== revisionOf(history[0]!.pod));
    assert.ok(secondDeleted < firstReady, `${order[1]} deleted (event ${secondDeleted}) after ${order[0]} was back (event ${firstReady})`);
  });

  test('S14: unordered update with a weight priority updates the canary first', async () => {
    await w.client.create(AdvancedStatefulSets, sts('s14', {
      podManagementPolicy: 'Parallel',
      updateStrategy: { rollingUpdate: { maxUnavailable: 1, unorderedUpdate: { priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: { matchLabels: { canary: 'true' } } }] } } } },
    }));
    await settled(w.client, 's14', 3);
    await w.client.patch(Pods, ns, 's14-0', 'merge', { metadata: { labels: { canary: 'true' } } });
    const watch = await watchPods(w.client, 's14');
    await setImage(w.client, 's14', IMG2);
    await settled(w.client, 's14', 3);
    watch.stop();
    const order = deletionOrder(watch.history());
    assert.equal(order[0], 's14-0');
    assert.deepEqual([...order].sort(), ['s14-0', 's14-1', 's14-2']);
  });
});
