/** The ReplicaSet controller against an embedded control plane, pods made ready by the test. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Pods, ReplicaSets } from '../../../api/resource-type.js';
import { startTestControlPlane } from '../../../testing/control-plane.js';
import { activePods, eventually, listPods, markPodReady, podFinalizer, readyAllPods, startControllerTestEnv, type ControllerTestEnv } from '../../../testing/controller-env.js';
import { setupReplicaSetController } from './index.js';
import type { Pod, ReplicaSet } from '../../../api/core/index.js';

const ns = 'default';

function replicaSet(name: string, replicas: number): ReplicaSet {
  return {
    apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name, namespace: ns },
    spec: {
      replicas, selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
}

describe('ReplicaSet controller', () => {
  let env: ControllerTestEnv;
  let finalizer: { stop(): void };
  let counter: { stop(): void };
  const created = new Map<string, number>(); // app label -> pods ever created
  before(async () => {
    env = await startControllerTestEnv(await startTestControlPlane(), (mgr) => setupReplicaSetController(mgr));
    finalizer = podFinalizer(env.client, ns);
    counter = env.client.watch<Pod>(Pods, { namespace: ns }, {
      onEvent: (ev) => { if (ev.type === 'ADDED') created.set(ev.object.metadata.labels?.app ?? '', (created.get(ev.object.metadata.labels?.app ?? '') ?? 0) + 1); },
      onClose: () => undefined,
    });
  });
  after(async () => {
    finalizer.stop();
    counter.stop();
    await env.stop();
  });

  const pods = async (app: string) => activePods(await listPods(env.client, ns, `app=${app}`));
  const rsStatus = async (name: string) => (await env.client.get<ReplicaSet>(ReplicaSets, ns, name)).status ?? { replicas: 0 };

  test('creates owned pods from the template, then reports them ready and available', async () => {
    const rs = await env.client.create(ReplicaSets, replicaSet('web', 3));
    const owned = await eventually('3 pods', async () => ((await pods('web')).length === 3 ? pods('web') : undefined));
    for (const p of owned) {
      assert.match(p.metadata.name!, /^web-[a-z0-9]{5}$/);
      assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    }
    await eventually('status replicas 3', async () => (await rsStatus('web')).replicas === 3);
    await readyAllPods(env.client, ns, 'app=web');
    const status = await eventually('all available', async () => { const s = await rsStatus('web'); return s.availableReplicas === 3 ? s : undefined; });
    assert.deepEqual(status, { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 });
    assert.equal(created.get('web'), 3, 'no pod was created twice');
  });

  test('scales down deleting not-ready pods first, and up again without double creates', async () => {
    const before = await pods('web');
    const unready = await markPodReady(env.client, before[1], { ready: false });
    await env.client.patch(ReplicaSets, ns, 'web', 'merge', { spec: { replicas: 2 } });
    await eventually('2 pods', async () => (await pods('web')).length === 2);
    assert.ok(!(await pods('web')).some((p) => p.metadata.uid === unready.metadata.uid), 'the not-ready pod went first');
    await env.client.patch(ReplicaSets, ns, 'web', 'merge', { spec: { replicas: 9 } });
    await eventually('9 pods', async () => (await pods('web')).length === 9);
    await eventually('status 9', async () => (await rsStatus('web')).replicas === 9);
    assert.equal(created.get('web'), 10, '3 + 7 creates, nothing more');
    assert.equal((await pods('web')).length, 9);
  });

  test('adopts a matching orphan instead of creating a pod, and releases a pod whose labels stop matching', async () => {
    const orphan = await env.client.create<Pod>(Pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'stray', namespace: ns, labels: { app: 'api' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    const rs = await env.client.create(ReplicaSets, replicaSet('api', 2));
    await eventually('2 api pods', async () => (await pods('api')).length === 2);
    const adopted = await env.client.get<Pod>(Pods, ns, 'stray');
    assert.equal(adopted.metadata.uid, orphan.metadata.uid);
    assert.equal(adopted.metadata.ownerReferences?.[0]?.uid, rs.metadata.uid);
    assert.equal(created.get('api'), 2, 'the orphan plus one new pod');

    await env.client.patch(Pods, ns, 'stray', 'merge', { metadata: { labels: { app: 'api-debug' } } });
    await eventually('stray released', async () => ((await env.client.get<Pod>(Pods, ns, 'stray')).metadata.ownerReferences ?? []).length === 0);
    await eventually('a replacement', async () => (await pods('api')).length === 2 && created.get('api') === 3);
  });

  test('minReadySeconds: ready pods count as available only once they have been ready that long', async () => {
    const rs = replicaSet('slow', 1);
    rs.spec!.minReadySeconds = 1;
    await env.client.create(ReplicaSets, rs);
    await eventually('1 pod', async () => (await pods('slow')).length === 1);
    // Stamped at the next whole second (the API keeps seconds), so availability is a full second away.
    const readyAt = Math.ceil(Date.now() / 1000) * 1000;
    await markPodReady(env.client, (await pods('slow'))[0], { at: readyAt });
    const early = await eventually('ready', async () => { const s = await rsStatus('slow'); return s.readyReplicas === 1 ? s : undefined; });
    assert.equal(early.availableReplicas, undefined, 'not yet available');
    await eventually('available after a second', async () => (await rsStatus('slow')).availableReplicas === 1, 5000);
    assert.ok(Date.now() > readyAt + 1000, 'not before minReadySeconds');
  });

  test('a ReplicaSet scaled to zero removes every pod and says so in its status', async () => {
    await env.client.patch(ReplicaSets, ns, 'api', 'merge', { spec: { replicas: 0 } });
    await eventually('no api pods', async () => (await pods('api')).length === 0);
    await eventually('status 0', async () => { const s = await rsStatus('api'); return s.replicas === 0 && s.observedGeneration === 2; });
  });
});
