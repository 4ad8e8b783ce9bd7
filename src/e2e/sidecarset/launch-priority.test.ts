/**
 * Container launch priority through the API (docs/design/sidecarset.md §9 L1-L7): the webhook's
 * barrier env, the `<pod>-barrier` ConfigMap and its controller, and the simulated kubelet holding
 * each container in CreateContainerConfigError until the containers above it are ready.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConfigMap } from '../../api/core/index.js';
import { ConfigMaps } from '../../api/resource-type.js';
import { isNotFound } from '../../machinery/errors.js';
import { watchPods } from '../../testing/pod-watch.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import {
  appPod, createPod, deleteSidecarSets, envOf, eventually, getPod, logAgent, names, ns, Pods, SidecarSets, startSidecarEnv, statusOf, type Pod,
} from './fixtures.js';

const barrierOf = (pod: Pod, c: string) => envOf(pod, c, 'KRUISE_CONTAINER_BARRIER')?.valueFrom?.configMapKeyRef;
const c = (name: string, priority?: string) => ({ name, image: 'nginx:1.25', ...(priority ? { env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: priority }] } : {}) });
const multi = (name: string, containers: object[], annotations: Record<string, string> = {}) =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { ...(name.endsWith('-') ? { generateName: name } : { name }), namespace: ns, labels: { app: 'lp' }, annotations }, spec: { containers } }) as Pod;

describe('container launch priority', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startSidecarEnv({ startDelayMs: 200 }); });
  after(() => w.stop());
  afterEach(() => deleteSidecarSets(w.client));

  test('L1: Ordered a, b, c: named at admission, barriers p_0/p_-1/p_-2, each starts only after the one before is ready; completed', async () => {
    const readyAt = new Map<string, number>();
    const startedWhileWaiting: string[] = [];
    const waitedInConfigError = new Set<string>();
    const watch = await watchPods(w.client, ns, 'lp', ({ event }) => {
      for (const s of event.pod.status?.containerStatuses ?? []) {
        if (s.ready && !readyAt.has(s.name)) readyAt.set(s.name, readyAt.size);
        if (s.state?.waiting?.reason === 'CreateContainerConfigError') waitedInConfigError.add(s.name);
        const before = { a: undefined, b: 'a', c: 'b' }[s.name as 'a' | 'b' | 'c'];
        if (s.state?.running && before && !readyAt.has(before)) startedWhileWaiting.push(`${s.name} ran before ${before} was ready`);
      }
      return undefined;
    });
    try {
      const pod = await createPod(w.client, multi('lp-', [c('a'), c('b'), c('c')], { 'apps.kruise.io/container-launch-priority': 'Ordered' }));
      assert.match(pod.metadata.name!, /^lp-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      assert.deepEqual(['a', 'b', 'c'].map((x) => barrierOf(pod, x)), [0, -1, -2].map((p) => ({ name: `${pod.metadata.name}-barrier`, key: `p_${p}` })));
      const done = await eventually('all ready and completed', async () => {
        const p = await getPod(w.client, pod.metadata.name!);
        return p.metadata.annotations?.['apps.kruise.io/container-launch-priority-completed'] === 'true' && ['a', 'b', 'c'].every((x) => statusOf(p, x)?.ready) ? p : undefined;
      }, 20_000);
      assert.deepEqual([...readyAt.keys()], ['a', 'b', 'c']);
      assert.deepEqual(startedWhileWaiting, []);
      assert.ok(waitedInConfigError.has('b') && waitedInConfigError.has('c'), `b and c waited in CreateContainerConfigError (${[...waitedInConfigError].join(',')})`);
      const cm = await w.client.get<ConfigMap>(ConfigMaps, ns, `${pod.metadata.name}-barrier`);
      assert.deepEqual(cm.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.uid]), [['Pod', pod.metadata.name, done.metadata.uid]]);
      assert.deepEqual(cm.data, { p_0: 'true', 'p_-1': 'true', 'p_-2': 'true' });
      await w.client.delete(Pods, ns, pod.metadata.name!, { gracePeriodSeconds: 0 });
      await eventually('L7: the barrier ConfigMap is garbage-collected with the pod', async () => {
        try { await w.client.get(ConfigMaps, ns, `${pod.metadata.name}-barrier`); return false; } catch (e) { return isNotFound(e); }
      }, 20_000);
    } finally {
      watch.stop();
    }
  });

  test('L2: env priorities main=5, side=10: side is released first', async () => {
    const pod = await createPod(w.client, multi('l2', [c('main', '5'), c('side', '10')]));
    assert.equal(barrierOf(pod, 'main')?.key, 'p_5');
    assert.equal(barrierOf(pod, 'side')?.key, 'p_10');
    const order: string[] = [];
    await eventually('both ready', async () => {
      const p = await getPod(w.client, 'l2');
      for (const s of p.status?.containerStatuses ?? []) if (s.ready && !order.includes(s.name)) order.push(s.name);
      return order.length === 2;
    }, 20_000);
    assert.equal(order[0], 'side');
    assert.deepEqual((await w.client.get<ConfigMap>(ConfigMaps, ns, 'l2-barrier')).data, { p_10: 'true', p_5: 'true' });
  });

  test('L3-L5: equal priorities, a single container: untouched; "abc" refuses the pod', async () => {
    const same = await createPod(w.client, multi('l3', [c('a', '3'), c('b', '3')]));
    assert.ok(same.spec.containers.every((x) => !barrierOf(same, x.name)));
    const single = await createPod(w.client, multi('l5', [c('a')], { 'apps.kruise.io/container-launch-priority': 'Ordered' }));
    assert.equal(barrierOf(single, 'a'), undefined);
    await assert.rejects(createPod(w.client, multi('l4', [c('a', 'abc'), c('b')])), /strconv\.Atoi: parsing "abc": invalid syntax/);
    await assert.rejects(w.client.get(Pods, ns, 'l4'), (e: unknown) => isNotFound(e));
  });

  test('L6: a SidecarSet-injected container is first under Ordered and gets p_0', async () => {
    await w.client.create(SidecarSets, logAgent());
    const pod = await createPod(w.client, { ...appPod('l6'), metadata: { name: 'l6', namespace: ns, labels: { app: 'web' }, annotations: { 'apps.kruise.io/container-launch-priority': 'Ordered' } } });
    assert.deepEqual(names(pod), ['agent', 'main']);
    assert.equal(barrierOf(pod, 'agent')?.key, 'p_0');
    assert.equal(barrierOf(pod, 'main')?.key, 'p_-1');
    await eventually('both ready', async () => {
      const p = await getPod(w.client, 'l6');
      return statusOf(p, 'agent')?.ready && statusOf(p, 'main')?.ready;
    }, 20_000);
  });
});
