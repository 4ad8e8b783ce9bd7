/**
 * Killing the Kruise manager in the middle of a CloneSet rollout and starting a new one (empty
 * cache, no expectations): the rollout resumes and finishes with no pod deleted or created beyond
 * what the rollout needs, and in place with each container restarted exactly once. The manager's
 * client records every pod create/delete (property/recorder.ts) and fails every call once killed;
 * the observer watches all pods from the start and checks the budget invariants meanwhile.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeSpec } from './property/driver.js';
import { startPropertyEnv, type PropertyEnv } from './property/env.js';
import { isAvailable, patchFor, podKeyOf, type Knobs } from './property/model.js';
import type { Watched } from './property/watched.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('CloneSet rollout across a manager restart', () => {
  let penv: PropertyEnv;
  before(async () => {
    // containers take 300 ms to start, so a rollout lasts long enough to be interrupted
    penv = await startPropertyEnv({ nodes: 3, startDelayMs: 300 });
  });
  after(async () => {
    await penv?.stop();
  });

  const settled = async (w: Watched, what: string) => {
    const reason = await w.until(() => w.notSettled(), 30_000);
    assert.equal(reason, undefined, `${what}: not settled: ${reason}`);
  };
  const updated = (w: Watched) => w.live().filter((p) => podKeyOf(p) === w.latest.key);

  /** Starts the rollout; at each threshold of updated pods, kills the manager and starts a new one. */
  async function rollWithRestarts(name: string, k: Knobs, killWhen: ((w: Watched) => boolean)[]) {
    const w = penv.observer.watch(name);
    await writeSpec(penv, w, k, undefined, name);
    await settled(w, 'created');
    const originals = new Map(w.live().map((p) => [p.metadata.name!, p.metadata.uid!]));
    await writeSpec(penv, w, k, patchFor({ kind: 'template', shift: 1, wait: 'settle' }, k), name);
    const atKill: number[] = [];
    for (const when of killWhen) {
      assert.equal(await w.until(() => (when(w) ? undefined : 'waiting'), 30_000), undefined, 'kill point reached');
      await penv.kill();
      atKill.push(updated(w).length);
      const writes = { ...w.stats };
      await sleep(500);
      assert.deepEqual([w.stats.creates, w.stats.deletes], [writes.creates, writes.deletes], 'no pod writes while the manager is down');
      await penv.start();
    }
    await settled(w, 'rolled out');
    assert.deepEqual(w.violations, []);
    return { w, originals, atKill };
  }

  test('ReCreate (8 replicas, maxUnavailable 2): each old pod deleted once, 8 new pods', { timeout: 90_000 }, async () => {
    const k: Knobs = { replicas: 8, policy: 'ReCreate', maxUnavailable: 2, maxSurge: 0, partition: 0, paused: false, template: 0 };
    const { w, originals, atKill } = await rollWithRestarts('restart-recreate', k, [
      (x) => updated(x).length >= 2, (x) => updated(x).length >= 5,
    ]);
    assert.ok(atKill.every((n) => n > 0 && n < 8), `killed mid-rollout (updated pods at each kill: ${atKill})`);
    for (const [name, uid] of originals) {
      assert.equal(w.everSeen.get(name)?.gone, true, `${name} replaced`);
      assert.equal(w.decisions.deletesByUid.get(uid), 1, `${name} deleted exactly once`);
    }
    assert.equal(w.decisions.deletesByUid.size, 8, 'no other pod deleted');
    assert.equal(w.stats.deletes, 8);
    const fresh = [...w.everSeen.keys()].filter((n) => !originals.has(n));
    assert.equal(fresh.length, 8, `pods created for the rollout: ${fresh}`);
    assert.equal(w.stats.creates, 16);
    const live = w.live();
    assert.deepEqual(live.map((p) => p.metadata.name).sort(), fresh.sort());
    assert.ok(live.every((p) => podKeyOf(p) === w.latest.key && isAvailable(p)));
  });

  test('InPlaceIfPossible (6 replicas, maxUnavailable 2): no pod deleted, each restarted exactly once', { timeout: 90_000 }, async () => {
    const k: Knobs = { replicas: 6, policy: 'InPlaceIfPossible', maxUnavailable: 2, maxSurge: 0, partition: 0, paused: false, template: 0 };
    const midUpdate = (at: number) => (x: Watched) => updated(x).length >= at && x.live().some((p) => !isAvailable(p));
    const { w, originals, atKill } = await rollWithRestarts('restart-inplace', k, [midUpdate(1), midUpdate(3)]);
    assert.ok(atKill.every((n) => n > 0 && n < 6), `killed mid-rollout (updated pods at each kill: ${atKill})`);
    assert.equal(w.stats.deletes, 0, 'no pod deleted');
    assert.equal(w.stats.creates, 6, 'no pod created after the first 6');
    const live = w.live();
    assert.deepEqual(new Map(live.map((p) => [p.metadata.name!, p.metadata.uid!])), originals, 'same names and UIDs');
    for (const pod of live) {
      assert.equal(pod.spec.containers[0]?.image, 'nginx:1.26-alpine');
      assert.equal(pod.status?.containerStatuses?.[0]?.restartCount, 1, `${pod.metadata.name} restarted once`);
      assert.equal(pod.metadata.labels?.['controller-revision-hash'], w.status?.updateRevision);
    }
  });
});
