/**
 * A manager crash mid-rollout (docs/design/workload-common.md §4 expectations; brief: "resumes with no extra pod
 * deleted"): the manager is killed right after each pod deletion (Standard) or each in-place update
 * it starts, and a fresh one with an empty cache takes over. Every old pod is deleted exactly once,
 * no new pod is touched, maxUnavailable holds throughout, and in place means one restart per pod.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AdvancedDaemonSets } from '../../api/kruise/resource-types.js';
import {
  IMG2, IMG3, ads, allNodes, assertNoViolation, condition, createNamespace, isPodReady, livePods, nodeOf, restartsOf, setImage, settled,
  watchPods, crashManager, onPodDelete, startDaemonSetEnv, type Pod,
} from './fixtures.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ADS controller killed mid-rollout', () => {
  let k: WorkloadEnv;
  const deletes = new Map<string, string[]>();
  before(async () => {
    k = await startDaemonSetEnv({ startDelayMs: 300, around: onPodDelete((ns, name) => deletes.set(ns, [...(deletes.get(ns) ?? []), name])) });
  });
  after(async () => { await k?.stop(); });

  const unavailableAtMost = (max: number) => (live: Pod[]) => {
    const ready = new Set(live.filter(isPodReady).map(nodeOf));
    const missing = allNodes.filter((n) => !ready.has(n));
    return missing.length > max ? `nodes without a Ready pod: ${missing.join(',')}` : undefined;
  };

  test('Standard: each old pod is deleted once across restarts, never more than maxUnavailable down', { timeout: 90_000 }, async () => {
    const ns = await createNamespace(k.client, 'restart-standard');
    await k.client.create(AdvancedDaemonSets, ads(ns, 'agent', { updateStrategy: { rollingUpdate: { maxUnavailable: 1 } } }));
    const v1 = await settled(k.client, ns, 'agent', { timeoutMs: 60_000 });
    const oldNames = (await livePods(k.client, ns, 'agent')).map((p) => p.metadata.name!).sort();
    const watch = await watchPods(k.client, ns, 'agent', unavailableAtMost(1));
    const restartsBefore = k.restarts();
    await setImage(k.client, ns, 'agent', IMG2);
    let seen = 0;
    const done = settled(k.client, ns, 'agent', { notRevision: v1.status!.updateRevision, timeoutMs: 80_000 });
    let finished = false;
    void done.then(() => { finished = true; }, () => { finished = true; });
    while (!finished) {
      const now = deletes.get(ns)?.length ?? 0;
      if (now > seen) {
        seen = now;
        await crashManager(k);
      }
      await sleep(10);
    }
    await done;
    watch.stop();
    assertNoViolation(watch);
    assert.ok(k.restarts() - restartsBefore >= 3, `restarted mid-rollout (${k.restarts() - restartsBefore} times)`);
    assert.deepEqual([...(deletes.get(ns) ?? [])].sort(), oldNames, 'exactly the old pods, each once');
  });

  test('InPlaceIfPossible: one in-place restart per pod across restarts, nothing deleted', { timeout: 90_000 }, async () => {
    const ns = await createNamespace(k.client, 'restart-inplace');
    await k.client.create(AdvancedDaemonSets, ads(ns, 'agent', { updateStrategy: { rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 2 } } }));
    const v1 = await settled(k.client, ns, 'agent', { timeoutMs: 60_000 });
    const uids = new Map((await livePods(k.client, ns, 'agent')).map((p) => [p.metadata.name!, p.metadata.uid!]));
    const watch = await watchPods(k.client, ns, 'agent', unavailableAtMost(2));
    const restartsBefore = k.restarts();
    await setImage(k.client, ns, 'agent', IMG3);
    const started = new Set<string>();
    let finished = false;
    const done = settled(k.client, ns, 'agent', { notRevision: v1.status!.updateRevision, timeoutMs: 80_000 });
    void done.then(() => { finished = true; }, () => { finished = true; });
    while (!finished) {
      const fresh = watch.live().filter((p) => condition(p, 'InPlaceUpdateReady')?.status === 'False' && !started.has(p.metadata.uid!));
      if (fresh.length > 0) {
        for (const p of fresh) started.add(p.metadata.uid!);
        await crashManager(k);
      }
      await sleep(10);
    }
    await done;
    watch.stop();
    assertNoViolation(watch);
    assert.ok(k.restarts() - restartsBefore >= 1, 'restarted mid-rollout');
    assert.deepEqual(deletes.get(ns) ?? [], [], 'no pod deleted');
    const pods = await livePods(k.client, ns, 'agent');
    assert.deepEqual(new Map(pods.map((p) => [p.metadata.name!, p.metadata.uid!])), uids);
    for (const p of pods) {
      assert.equal(restartsOf(p), 1, `${p.metadata.name} restarted once`);
      assert.equal(p.spec.containers[0]!.image, IMG3);
    }
  });
});
