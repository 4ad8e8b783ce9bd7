/**
 * Property test of the rolling sidecar upgrade (docs/design/sidecarset.md §9, "property"): random
 * sequences of image changes, partition / maxUnavailable / paused changes, readiness flaps of the
 * app container and manager crashes. Checked on every pod event: no app container ever restarts;
 * the pods whose sidecar is unavailable (not ready, or not yet running its spec image) never
 * exceed maxUnavailable, except pods the controller took while they were already not ready
 * (upstream always takes those). Finally, with the update unpaused and partition 0, every pod
 * runs the last image. Seed: SIDECAR_PROPERTY_SEED, else random (printed on failure).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '../../cluster/scheduler/rng.js';
import { isPodReady } from '../../control/podutil/index.js';
import { watchPods } from '../../testing/pod-watch.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import { appPod, container, createPod, eventually, getPod, getSet, logAgent, ns, SidecarSets, startSidecarEnv, statusOf, type Pod } from './fixtures.js';

const PODS = 6;
const images = ['busybox:1.35', 'busybox:1.36', 'busybox:1.37'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const runs = (pod: Pod, c: string) => {
  const s = statusOf(pod, c);
  const spec = container(pod, c)?.image ?? '';
  return !!s?.ready && (s.image === spec || s.image.endsWith(`/${spec}`) || s.image.endsWith(`/library/${spec}`));
};
const hashOf = (pod: Pod) => pod.metadata.annotations?.['kruise.io/sidecarset-hash'] ?? '';

describe('SidecarSet rolling upgrade property', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startSidecarEnv({ startDelayMs: 150, nodes: 3 }); });
  after(() => w.stop());

  test('random image / partition / maxUnavailable / pause changes, readiness flaps and manager crashes', async () => {
    const seed = Number(process.env.SIDECAR_PROPERTY_SEED ?? Math.floor(Math.random() * 1e9));
    const random = seededRandom(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const log: string[] = [`seed ${seed}`];
    await w.client.create(SidecarSets, logAgent('log-agent', 'web', { updateStrategy: { maxUnavailable: 1 } }));
    for (let i = 0; i < PODS; i++) await createPod(w.client, appPod(`p-${i}`));
    await eventually('all pods ready', async () => (await Promise.all(Array.from({ length: PODS }, (_, i) => getPod(w.client, `p-${i}`)))).every(isPodReady), 20_000);

    let bound = 1;
    let lowered: number | undefined;
    const flapped = new Set<string>();
    const exempt = new Set<string>();
    const lastHash = new Map<string, string>();
    const watch = await watchPods(w.client, ns, 'web', ({ live, event }) => {
      const p = event.pod;
      const name = p.metadata.name!;
      if (lastHash.has(name) && lastHash.get(name) !== hashOf(p) && (flapped.has(name) || !isPodReady(p) || !runs(p, 'agent'))) exempt.add(name);
      lastHash.set(name, hashOf(p));
      if (exempt.has(name) && runs(p, 'agent')) exempt.delete(name);
      const restarted = live.find((x) => (statusOf(x, 'main')?.restartCount ?? 0) > 0);
      if (restarted) return `main of ${restarted.metadata.name} restarted`;
      const unavailable = live.filter((x) => !runs(x, 'agent') && !exempt.has(x.metadata.name!)).map((x) => x.metadata.name);
      if (lowered !== undefined && unavailable.length <= lowered) { bound = lowered; lowered = undefined; }
      return unavailable.length > bound ? `${unavailable.length} sidecars unavailable (${unavailable.join(',')}) > maxUnavailable ${bound}` : undefined;
    });
    let image = images[0]!;
    const flaps: Promise<void>[] = [];
    try {
      for (let step = 0; step < 24; step++) {
        const kind = pick(['image', 'image', 'partition', 'maxUnavailable', 'pause', 'flap', 'flap', 'restart'] as const);
        if (kind === 'image') {
          image = pick(images.filter((i) => i !== image));
          await w.client.patch(SidecarSets, undefined, 'log-agent', 'merge', { spec: { containers: [{ ...logAgent().spec!.containers![0], image }] } });
          log.push(`image ${image}`);
        } else if (kind === 'partition') {
          const partition = pick([0, 1, 3, '50%']);
          await w.client.patch(SidecarSets, undefined, 'log-agent', 'merge', { spec: { updateStrategy: { partition } } });
          log.push(`partition ${partition}`);
        } else if (kind === 'maxUnavailable') {
          const m = pick([1, 2, 3]);
          if (m >= bound) { bound = m; lowered = undefined; } else lowered = m;
          await w.client.patch(SidecarSets, undefined, 'log-agent', 'merge', { spec: { updateStrategy: { maxUnavailable: m } } });
          log.push(`maxUnavailable ${m}`);
        } else if (kind === 'pause') {
          const paused = random() < 0.5;
          await w.client.patch(SidecarSets, undefined, 'log-agent', 'merge', { spec: { updateStrategy: { paused } } });
          log.push(`paused ${paused}`);
        } else if (kind === 'flap') {
          const name = `p-${Math.floor(random() * PODS)}`;
          if (flapped.has(name)) continue;
          const downMs = 200 + Math.floor(random() * 800);
          flapped.add(name);
          w.nodes().setContainerReady(ns, name, 'main', false);
          log.push(`flap ${name} ${downMs}ms`);
          flaps.push(sleep(downMs).then(() => { w.nodes().setContainerReady(ns, name, 'main', true); flapped.delete(name); }));
        } else {
          await w.restartManager({ crash: true, downMs: Math.floor(random() * 300) });
          log.push('manager crash');
        }
        await sleep(100 + Math.floor(random() * 500));
        assert.equal(watch.violation(), undefined, log.join('; '));
      }
      await Promise.all(flaps);
      await w.client.patch(SidecarSets, undefined, 'log-agent', 'merge', { spec: { updateStrategy: { paused: false, partition: 0 } } });
      log.push('final: unpaused, partition 0');
      await eventually(`every pod on ${image} (${log.join('; ')})`, async () => {
        const set = await getSet(w.client, 'log-agent');
        const s = set.status;
        if (!s || s.observedGeneration !== set.metadata.generation || s.matchedPods !== PODS || s.updatedPods !== PODS || s.updatedReadyPods !== PODS) return false;
        const pods = await Promise.all(Array.from({ length: PODS }, (_, i) => getPod(w.client, `p-${i}`)));
        return pods.every((p) => container(p, 'agent')?.image === image && runs(p, 'agent'));
      }, 40_000);
      assert.equal(watch.violation(), undefined, log.join('; '));
    } finally {
      watch.stop();
    }
  });
});
