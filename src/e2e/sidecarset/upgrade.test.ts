/**
 * The rolling in-place sidecar upgrade through the API (docs/design/sidecarset.md §9 S4-S7): an
 * image change restarts only the sidecar; any other change is refused with the pod condition and
 * event; partition and maxUnavailable bound the rollout (checked on every pod event); a paused
 * update still injects the latest version into new pods.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Events } from '../../api/resource-type.js';
import type { Event } from '../../api/core/index.js';
import { isPodReady } from '../../control/podutil/index.js';
import { watchPods } from '../../testing/pod-watch.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import {
  appPod, container, createPod, deleteSidecarSets, eventually, getPod, getSet, logAgent, ns, SidecarSets, startSidecarEnv, statusOf, type Pod,
} from './fixtures.js';

const setImage = (w: WorkloadEnv, image: string, extra: Record<string, unknown> = {}) =>
  w.client.patch(SidecarSets, undefined, 'log-agent', 'merge', { spec: { containers: [{ ...logAgent().spec!.containers![0], image }], ...extra } });
const podHash = (pod: Pod) => (JSON.parse(pod.metadata.annotations?.['kruise.io/sidecarset-hash'] ?? '{}') as Record<string, { hash: string }>)['log-agent']?.hash;

async function runningPods(w: WorkloadEnv, count: number, prefix: string): Promise<Pod[]> {
  for (let i = 0; i < count; i++) await createPod(w.client, appPod(`${prefix}-${i}`));
  return eventually(`${count} ready pods`, async () => {
    const pods = await Promise.all(Array.from({ length: count }, (_, i) => getPod(w.client, `${prefix}-${i}`)));
    return pods.every(isPodReady) ? pods : undefined;
  }, 20_000);
}

describe('SidecarSet in-place upgrade', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startSidecarEnv({ startDelayMs: 300 }); });
  after(() => w.stop());
  afterEach(() => deleteSidecarSets(w.client));

  test('S4: a new image restarts agent in place (restartCount 1), main never restarts; updatedPods=1; the old imageID is recorded', async () => {
    await w.client.create(SidecarSets, logAgent());
    const [before] = await runningPods(w, 1, 's4');
    const oldImageID = statusOf(before!, 'agent')!.imageID;
    await setImage(w, 'busybox:1.36');
    const pod = await eventually('agent restarted on busybox:1.36 and ready', async () => {
      const p = await getPod(w.client, 's4-0');
      return statusOf(p, 'agent')?.restartCount === 1 && statusOf(p, 'agent')?.image.endsWith('busybox:1.36') && isPodReady(p) ? p : undefined;
    }, 20_000);
    assert.equal(pod.metadata.uid, before!.metadata.uid, 'same pod');
    assert.equal(container(pod, 'agent')?.image, 'busybox:1.36');
    assert.equal(statusOf(pod, 'main')?.restartCount, 0);
    assert.notEqual(statusOf(pod, 'agent')?.imageID, oldImageID);
    const state = JSON.parse(pod.metadata.annotations!['kruise.io/sidecarset-inplace-update-state']!) as Record<string, { revision: string; lastContainerStatuses: Record<string, { imageID: string }> }>;
    assert.equal(state['log-agent']?.lastContainerStatuses.agent?.imageID, oldImageID);
    const set = await eventually('status updatedPods=1 readyPods=1', async () => {
      const s = await getSet(w.client, 'log-agent');
      return s.status?.updatedPods === 1 && s.status.updatedReadyPods === 1 && s.status.observedGeneration === s.metadata.generation ? s : undefined;
    });
    assert.equal(state['log-agent']?.revision, set.status!.latestRevision);
    assert.equal(podHash(pod), set.metadata.annotations!['kruise.io/sidecarset-hash']);
  });

  test('S5: changing command is not applied in place: SidecarSetUpgradable=False {"log-agent":false} and event NotUpgradablePods', async () => {
    await w.client.create(SidecarSets, logAgent());
    await runningPods(w, 1, 's5');
    await w.client.patch(SidecarSets, undefined, 'log-agent', 'merge', { spec: { containers: [{ ...logAgent().spec!.containers![0], command: ['sleep', '7200'] }] } });
    const pod = await eventually('condition SidecarSetUpgradable=False', async () => {
      const p = await getPod(w.client, 's5-0');
      return p.status?.conditions?.find((c) => c.type === 'SidecarSetUpgradable')?.status === 'False' ? p : undefined;
    });
    const condition = pod.status!.conditions!.find((c) => c.type === 'SidecarSetUpgradable')!;
    assert.equal(condition.reason, 'UpdateImmutableField');
    assert.equal(condition.message, '{"log-agent":false}');
    assert.deepEqual(container(pod, 'agent')?.command, ['sleep', '3600']);
    assert.equal(statusOf(pod, 'agent')?.restartCount, 0);
    const events = await eventually('event NotUpgradablePods', async () => {
      const list = (await w.client.list<Event>(Events, { namespace: 'default' })).items.filter((e) => e.reason === 'NotUpgradablePods' && e.involvedObject.name === 'log-agent');
      return list.length > 0 ? list : undefined;
    });
    assert.equal(events[0]!.involvedObject.kind, 'SidecarSet');
    const s = (await getSet(w.client, 'log-agent')).status!;
    assert.equal(s.updatedPods, 0);
    assert.equal(s.matchedPods, 1);
  });

  test('S6: 4 pods, partition 2, maxUnavailable 1: never two updated pods unavailable at once; exactly 2 end on the new image', async () => {
    await w.client.create(SidecarSets, logAgent('log-agent', 'web', { updateStrategy: { type: 'RollingUpdate', partition: 2, maxUnavailable: 1, paused: true } }));
    await runningPods(w, 4, 's6');
    await setImage(w, 'busybox:1.36');
    const newHash = (await getSet(w.client, 'log-agent')).metadata.annotations!['kruise.io/sidecarset-hash'];
    let peak = 0;
    const watch = await watchPods(w.client, ns, 'web', ({ live }) => {
      const unavailable = live.filter((p) => podHash(p) === newHash && (!isPodReady(p) || !statusOf(p, 'agent')?.image.endsWith('busybox:1.36'))).length;
      peak = Math.max(peak, unavailable);
      return unavailable > 1 ? `${unavailable} updated pods unavailable at once` : undefined;
    });
    try {
      await w.client.patch(SidecarSets, undefined, 'log-agent', 'merge', { spec: { updateStrategy: { paused: false } } });
      await eventually('updatedPods=2 updatedReadyPods=2', async () => {
        const s = (await getSet(w.client, 'log-agent')).status;
        return s?.updatedPods === 2 && s.updatedReadyPods === 2;
      }, 30_000);
      await new Promise((r) => setTimeout(r, 1_000));
      assert.equal(watch.violation(), undefined);
      assert.equal(peak, 1, 'the rollout did run one pod at a time');
      const pods = await Promise.all([0, 1, 2, 3].map((i) => getPod(w.client, `s6-${i}`)));
      assert.equal(pods.filter((p) => container(p, 'agent')?.image === 'busybox:1.36').length, 2);
      assert.ok(pods.every((p) => statusOf(p, 'main')?.restartCount === 0));
    } finally {
      watch.stop();
    }
  });

  test('S7: with updateStrategy.paused existing pods stay; a new pod gets the latest image', async () => {
    await w.client.create(SidecarSets, logAgent('log-agent', 'web', { updateStrategy: { paused: true } }));
    await runningPods(w, 1, 's7');
    await setImage(w, 'busybox:1.36');
    const fresh = await createPod(w.client, appPod('s7-new'));
    assert.equal(container(fresh, 'agent')?.image, 'busybox:1.36');
    await eventually('status sees 2 matched, 1 updated', async () => {
      const s = (await getSet(w.client, 'log-agent')).status;
      return s?.matchedPods === 2 && s.updatedPods === 1;
    });
    assert.equal(container(await getPod(w.client, 's7-0'), 'agent')?.image, 'busybox:1.35');
  });

  test('S10: hot upgrade: envoy-2 takes the new image and becomes working; envoy-1 is reset to empty:1 after; never zero working copies', async () => {
    const envoy = { name: 'envoy', upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1' } };
    await w.client.create(SidecarSets, logAgent('log-agent', 'web', {}, envoy));
    await runningPods(w, 1, 's10');
    const working = (p: Pod) => (JSON.parse(p.metadata.annotations?.['kruise.io/sidecarset-working-hotupgrade-container'] ?? '{}') as Record<string, string>).envoy;
    const serving = (p: Pod) => ['envoy-1', 'envoy-2'].filter((n) => container(p, n)?.image !== 'empty:1' && statusOf(p, n)?.ready && !statusOf(p, n)?.image.endsWith('empty:1'));
    const watch = await watchPods(w.client, ns, 'web', ({ event }) => (event.pod.status?.phase === 'Running' && serving(event.pod).length === 0
      ? `no working envoy copy: ${JSON.stringify(event.pod.status.containerStatuses?.map((c) => [c.name, c.image, c.ready]))}` : undefined));
    try {
      await w.client.patch(SidecarSets, undefined, 'log-agent', 'merge', { spec: { containers: [{ ...logAgent().spec!.containers![0], ...envoy, image: 'busybox:1.36' }] } });
      const swapped = await eventually('envoy-2 on busybox:1.36 working, envoy-1 reset to empty:1', async () => {
        const p = await getPod(w.client, 's10-0');
        return container(p, 'envoy-2')?.image === 'busybox:1.36' && container(p, 'envoy-1')?.image === 'empty:1' && isPodReady(p)
          && statusOf(p, 'envoy-1')?.image.endsWith('empty:1') ? p : undefined;
      }, 20_000);
      assert.equal(working(swapped), 'envoy-2');
      const a = swapped.metadata.annotations!;
      assert.equal(a['version.sidecarset.kruise.io/envoy-1'], '0');
      assert.equal(a['versionalt.sidecarset.kruise.io/envoy-2'], '0');
      assert.match(a['version.sidecarset.kruise.io/envoy-2']!, /^\d+$/, 'the SidecarSet resourceVersion');
      assert.equal(statusOf(swapped, 'main')?.restartCount, 0);
      await eventually('status updatedReadyPods=1', async () => (await getSet(w.client, 'log-agent')).status?.updatedReadyPods === 1);
      assert.equal(watch.violation(), undefined);
    } finally {
      watch.stop();
    }
  });
});
