/**
 * Lifecycle hooks of a CloneSet end to end (docs/design/inplace-update.md §9, docs/design/cloneset.md §13 C12/C13): preDelete holds a pod
 * in PreparingDelete until unhooked, replicas growing back cancel it, excludePreparingDelete lets a
 * replacement start while it waits, markPodNotReady holds the pod
 * not-ready through KruisePodReady, and the inPlaceUpdate hook gates an in-place update
 * (PreparingUpdate → Updating → Updated → Normal).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CloneSets } from '../../api/kruise/resource-types.js';
import type { CloneSet } from '../../api/kruise/workloads/cloneset.js';
import { Pods } from '../../api/resource-type.js';
import { setupCloneSetController } from '../../controllers/cloneset/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { eventually, holds, startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';
import type { Pod } from '../../api/core/index.js';

const ns = 'default';
const STATE = 'lifecycle.apps.kruise.io/state';
const hold = { 'example.io/hold': 'true' };
let w: WorkloadEnv;

before(async () => {
  w = await startWorkloadEnv({ nodes: 2, controllers: (m) => { setupCloneSetController(m); setupPodReadinessController(m); } });
});
after(() => w.stop());

const manifest = (name: string, replicas: number, extra: Record<string, unknown>) => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name, namespace: ns },
  spec: {
    replicas, selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25-alpine' }] } },
    ...extra,
  },
});
const get = (name: string) => w.client.get<CloneSet>(CloneSets, ns, name);
const livePods = async (app: string) =>
  (await w.client.list<Pod>(Pods, { namespace: ns, labelSelector: `app=${app}` })).items.filter((p) => !p.metadata.deletionTimestamp);
const names = async (app: string) => (await livePods(app)).map((p) => p.metadata.name!).sort();
const pod = (name: string) => w.client.get<Pod>(Pods, ns, name);
const stateOf = async (name: string) => (await pod(name)).metadata.labels?.[STATE];
const condition = (p: Pod, type: string) => p.status?.conditions?.find((c) => c.type === type);

async function available(name: string, replicas: number): Promise<CloneSet> {
  return eventually(`${name}: ${replicas} available`, async () => {
    const cs = await get(name);
    const s = cs.status;
    return s && s.observedGeneration === cs.metadata.generation && s.availableReplicas === replicas && s.replicas === replicas
      && (await livePods(name)).length === replicas ? cs : undefined;
  }, 30_000);
}

describe('preDelete hook', () => {
  test('C12: a hooked pod waits in PreparingDelete and goes once unhooked', async () => {
    await w.client.create(CloneSets, manifest('c12', 3, { lifecycle: { preDelete: { labelsHandler: hold } } }));
    await available('c12', 3);
    const before = await names('c12');
    const z = before[0]!;
    await w.client.patch(Pods, ns, z, 'merge', { metadata: { labels: hold } });
    await w.client.patch(CloneSets, ns, 'c12', 'merge', { spec: { replicas: 2, scaleStrategy: { podsToDelete: [z] } } });
    await eventually('Z in PreparingDelete', async () => (await stateOf(z)) === 'PreparingDelete', 20_000);
    await holds('Z stays while hooked', async () => {
      const live = await names('c12');
      const s = (await get('c12')).status;
      return live.join() !== before.join() ? `pods changed: ${live.join()}` : s?.replicas !== 3 ? `status.replicas ${s?.replicas}` : undefined;
    }, 1_500);
    await w.client.patch(Pods, ns, z, 'merge', { metadata: { labels: { 'example.io/hold': null } } });
    await eventually('Z deleted, 2 pods remain', async () => (await names('c12')).join() === before.slice(1).join(), 20_000);
    const cs = await available('c12', 2);
    assert.equal(cs.status?.replicas, 2);
  });

  test('replicas growing back cancel PreparingDelete: the same pod returns to Normal', async () => {
    await w.client.create(CloneSets, manifest('cancel', 3, { lifecycle: { preDelete: { labelsHandler: hold } } }));
    await available('cancel', 3);
    const before = await names('cancel');
    for (const n of before) await w.client.patch(Pods, ns, n, 'merge', { metadata: { labels: hold } });
    await w.client.patch(CloneSets, ns, 'cancel', 'merge', { spec: { replicas: 2 } });
    const held = await eventually('one pod in PreparingDelete', async () => {
      const states = await Promise.all(before.map(async (n) => [n, await stateOf(n)] as const));
      const preparing = states.filter(([, s]) => s === 'PreparingDelete');
      return preparing.length === 1 ? preparing[0]![0] : undefined;
    }, 20_000);
    assert.equal((await get('cancel')).status?.replicas, 3, 'a PreparingDelete pod still counts');
    await w.client.patch(CloneSets, ns, 'cancel', 'merge', { spec: { replicas: 3 } });
    await eventually('back to Normal', async () => (await stateOf(held)) === 'Normal', 20_000);
    await available('cancel', 3);
    assert.deepEqual(await names('cancel'), before, 'no pod was deleted or created');
  });

  test('excludePreparingDelete: a replacement is created while the hooked pod waits', async () => {
    await w.client.create(CloneSets, manifest('exclude', 2, {
      lifecycle: { preDelete: { labelsHandler: hold } }, scaleStrategy: { excludePreparingDelete: true },
    }));
    await available('exclude', 2);
    const before = await names('exclude');
    const z = before[0]!;
    await w.client.patch(Pods, ns, z, 'merge', { metadata: { labels: hold } });
    await w.client.patch(CloneSets, ns, 'exclude', 'merge', { spec: { scaleStrategy: { podsToDelete: [z] } } });
    const during = await eventually('Z waits, a third pod runs', async () => {
      const live = await names('exclude');
      return live.length === 3 && (await stateOf(z)) === 'PreparingDelete' ? live : undefined;
    }, 20_000);
    assert.ok(before.every((n) => during.includes(n)));
    await w.client.patch(Pods, ns, z, 'merge', { metadata: { labels: { 'example.io/hold': null } } });
    await eventually('Z deleted', async () => {
      const live = await names('exclude');
      return live.length === 2 && !live.includes(z) && live.includes(before[1]!);
    }, 20_000);
    await available('exclude', 2);
  });

  test('markPodNotReady: entering PreparingDelete marks KruisePodReady False and the pod not ready', async () => {
    await w.client.create(CloneSets, manifest('notready', 1, { lifecycle: { preDelete: { labelsHandler: hold, markPodNotReady: true } } }));
    await available('notready', 1);
    const [name] = await names('notready');
    await w.client.patch(Pods, ns, name!, 'merge', { metadata: { labels: hold } });
    await w.client.patch(CloneSets, ns, 'notready', 'merge', { spec: { replicas: 0 } });
    const p = await eventually('not ready in PreparingDelete', async () => {
      const got = await pod(name!);
      return got.metadata.labels?.[STATE] === 'PreparingDelete' && condition(got, 'Ready')?.status === 'False' ? got : undefined;
    }, 20_000);
    assert.deepEqual(
      { status: condition(p, 'KruisePodReady')?.status, message: condition(p, 'KruisePodReady')?.message },
      { status: 'False', message: '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]' },
    );
    await w.client.patch(Pods, ns, name!, 'merge', { metadata: { labels: { 'example.io/hold': null } } });
    await eventually('deleted', async () => (await names('notready')).length === 0, 20_000);
  });
});

describe('inPlaceUpdate hook', () => {
  test('C13 (with markPodNotReady): PreparingUpdate while hooked, then Updated (unavailable), then Normal once the hook is back', async () => {
    const gate = 'example.io/gate';
    await w.client.create(CloneSets, manifest('c13', 1, {
      lifecycle: { inPlaceUpdate: { finalizersHandler: [gate], markPodNotReady: true } },
      updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' } },
    }));
    await available('c13', 1);
    const [name] = await names('c13');
    const uid = (await pod(name!)).metadata.uid;
    await w.client.patch(Pods, ns, name!, 'merge', { metadata: { finalizers: [gate] } });
    await w.client.patch(CloneSets, ns, 'c13', 'merge', { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26-alpine' }] } } } });
    const preparing = await eventually('PreparingUpdate, held not ready', async () => {
      const p = await pod(name!);
      return p.metadata.labels?.[STATE] === 'PreparingUpdate' && condition(p, 'Ready')?.status === 'False' ? p : undefined;
    }, 20_000);
    assert.deepEqual([condition(preparing, 'KruisePodReady')?.status, condition(preparing, 'KruisePodReady')?.message],
      ['False', '[{"userAgent":"Lifecycle","key":"preUpdateHook"}]']);
    await holds('image unchanged while hooked', async () => {
      const p = await pod(name!);
      return p.spec.containers[0]!.image !== 'nginx:1.25-alpine' ? 'image changed' : p.metadata.labels?.[STATE] !== 'PreparingUpdate' ? 'state changed' : undefined;
    }, 1_500);
    await w.client.patch(Pods, ns, name!, 'merge', { metadata: { finalizers: null } });
    const updated = await eventually('Updated with the new image', async () => {
      const p = await pod(name!);
      return p.metadata.labels?.[STATE] === 'Updated' && condition(p, 'InPlaceUpdateReady')?.status === 'True' ? p : undefined;
    }, 30_000);
    assert.equal(updated.metadata.uid, uid, 'updated in place');
    assert.equal(updated.spec.containers[0]!.image, 'nginx:1.26-alpine');
    assert.equal(updated.status?.containerStatuses?.[0]?.restartCount, 1);
    assert.deepEqual([condition(updated, 'KruisePodReady')?.status, condition(updated, 'KruisePodReady')?.message], ['True', '[]'], 'Updated releases the hold');
    const cs = await eventually('status counts the Updated pod as not available', async () => {
      const got = await get('c13');
      return got.status?.updatedReplicas === 1 && got.status.readyReplicas === 1 ? got : undefined;
    }, 20_000);
    assert.equal(cs.status?.availableReplicas, 0);
    await w.client.patch(Pods, ns, name!, 'merge', { metadata: { finalizers: [gate] } });
    await eventually('Normal', async () => (await stateOf(name!)) === 'Normal', 20_000);
    await available('c13', 1);
    await w.client.patch(Pods, ns, name!, 'merge', { metadata: { finalizers: null } });
  });
});
