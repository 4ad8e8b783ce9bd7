/** The CloneSet controller end to end: webhooks, scheduler, simulated nodes and pod-readiness. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { Pods } from '../../api/resource-type.js';
import { startCluster, type Cluster } from '../../cluster/cluster.js';
import { setRootLogger } from '../../machinery/log.js';
import { Manager } from '../../runtime/manager.js';
import { startKruiseTestEnv, type KruiseTestEnv } from '../../testing/kruise-env.js';
import { eventually } from '../../testing/workload-env.js';
import { kruiseControllers } from '../index.js';
import { setupPodReadinessController } from '../podreadiness/index.js';
import { CloneSets, setupCloneSetController } from './index.js';
import type { CloneSet } from './pods.js';
import type { Pod } from '../../api/core/index.js';

const ns = 'default';

const cloneSet = (name: string, replicas: number, rollingUpdate: Record<string, unknown> = {}) => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name, namespace: ns },
  spec: {
    replicas, selector: { matchLabels: { app: name } },
    updateStrategy: { rollingUpdate },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25-alpine' }] } },
  },
});

describe('CloneSet controller', () => {
  let env: KruiseTestEnv;
  let cluster: Cluster;
  let mgr: Manager;
  before(async () => {
    if (!process.env.TEST_LOG) setRootLogger(pino({ level: 'silent' }));
    env = await startKruiseTestEnv();
    cluster = await startCluster({ client: env.client, nodes: 3, controllers: true });
    mgr = new Manager({ client: env.client, health: false, leaderElection: false });
    setupCloneSetController(mgr);
    setupPodReadinessController(mgr);
    await mgr.start();
  });
  after(async () => {
    await mgr.stop();
    await cluster.stop();
    await env.stop();
  });

  const livePods = async (app: string) =>
    (await env.client.list<Pod>(Pods, { namespace: ns, labelSelector: `app=${app}` })).items.filter((p) => !p.metadata.deletionTimestamp);
  const get = (name: string) => env.client.get<CloneSet>(CloneSets, ns, name);
  const isSettled = async (name: string, replicas: number) => {
    const cs = await get(name);
    const s = cs.status;
    return s && s.observedGeneration === cs.metadata.generation && s.replicas === replicas && s.updatedAvailableReplicas === replicas
      && s.availableReplicas === replicas && s.currentRevision === s.updateRevision && (await livePods(name)).length === replicas ? cs : undefined;
  };
  const settled = (name: string, replicas: number) => eventually(`${name} settled at ${replicas}`, () => isSettled(name, replicas));

  test('C1: creates named, labelled pods, reports status, then scales down', async () => {
    await env.client.create(CloneSets, cloneSet('demo', 3));
    const cs = await settled('demo', 3);
    const status = cs.status!;
    assert.match(status.updateRevision ?? '', /^demo-[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.deepEqual({ ...status, conditions: undefined, collisionCount: undefined }, {
      observedGeneration: cs.metadata.generation, replicas: 3, readyReplicas: 3, availableReplicas: 3,
      updatedReplicas: 3, updatedReadyReplicas: 3, updatedAvailableReplicas: 3, expectedUpdatedReplicas: 3,
      updateRevision: status.updateRevision, currentRevision: status.updateRevision, labelSelector: 'app=demo',
      conditions: undefined, collisionCount: undefined,
    });
    const pods = await livePods('demo');
    for (const pod of pods) {
      const m = /^demo-([bcdfghjklmnpqrstvwxz2456789]{5})$/.exec(pod.metadata.name!);
      assert.ok(m, pod.metadata.name);
      const labels = pod.metadata.labels!;
      assert.equal(labels['apps.kruise.io/cloneset-instance-id'], m[1]);
      assert.equal(labels['controller-revision-hash'], status.updateRevision);
      assert.equal(labels['pod-template-hash'], status.updateRevision!.slice('demo-'.length));
      assert.equal(labels['lifecycle.apps.kruise.io/state'], 'Normal');
      assert.ok(pod.spec.readinessGates?.some((g) => g.conditionType === 'InPlaceUpdateReady'));
      assert.deepEqual(pod.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.controller]), [['CloneSet', 'demo', true]]);
    }
    await env.client.patch(CloneSets, ns, 'demo', 'merge', { spec: { replicas: 1 } });
    await settled('demo', 1);
  });

  test('C5: an image change under InPlaceIfPossible keeps pod names and UIDs and restarts the container once', async () => {
    await env.client.create(CloneSets, cloneSet('inplace', 2, { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 1 }));
    const before = await settled('inplace', 2);
    const uids = new Map((await livePods('inplace')).map((p) => [p.metadata.name, p.metadata.uid]));
    const oldImageIds = new Map((await livePods('inplace')).map((p) => [p.metadata.name, p.status?.containerStatuses?.[0]?.imageID]));
    await env.client.patch(CloneSets, ns, 'inplace', 'merge', { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26-alpine' }] } } } });
    const after = await eventually('rolled in place', async () => {
      const cs = await isSettled('inplace', 2);
      return cs && cs.status!.updateRevision !== before.status!.updateRevision ? cs : undefined;
    }, 20_000);
    const pods = await livePods('inplace');
    assert.deepEqual(new Map(pods.map((p) => [p.metadata.name, p.metadata.uid])), uids);
    for (const pod of pods) {
      assert.equal(pod.spec.containers[0]!.image, 'nginx:1.26-alpine');
      assert.equal(pod.status?.containerStatuses?.[0]?.restartCount, 1);
      assert.equal(pod.metadata.labels?.['controller-revision-hash'], after.status!.updateRevision);
      assert.equal(pod.metadata.labels?.['lifecycle.apps.kruise.io/state'], 'Normal');
      const state = JSON.parse(pod.metadata.annotations?.['apps.kruise.io/inplace-update-state'] ?? '{}') as
        { revision?: string; lastContainerStatuses?: Record<string, { imageID?: string }> };
      assert.equal(state.revision, after.status!.updateRevision);
      assert.ok(oldImageIds.get(pod.metadata.name));
      assert.equal(state.lastContainerStatuses?.web?.imageID, oldImageIds.get(pod.metadata.name));
      assert.equal(pod.status?.conditions?.find((c) => c.type === 'InPlaceUpdateReady')?.status, 'True');
    }
  });

  test('C4: ReCreate replaces every pod with new names on the new revision', async () => {
    await env.client.create(CloneSets, cloneSet('recreate', 3, { maxUnavailable: 1 }));
    const before = await settled('recreate', 3);
    const oldNames = new Set((await livePods('recreate')).map((p) => p.metadata.name));
    await env.client.patch(CloneSets, ns, 'recreate', 'merge', { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26-alpine' }] } } } });
    let mostLive = 0;
    let fewestReady = 3;
    const after = await eventually('recreated', async () => {
      const live = await livePods('recreate');
      mostLive = Math.max(mostLive, live.length);
      fewestReady = Math.min(fewestReady, live.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length);
      const cs = await isSettled('recreate', 3);
      return cs && cs.status!.updateRevision !== before.status!.updateRevision ? cs : undefined;
    }, 20_000);
    assert.ok(mostLive <= 3, `never more than 3 live pods (saw ${mostLive})`);
    assert.ok(fewestReady >= 2, `never fewer than 2 ready pods with maxUnavailable 1 (saw ${fewestReady})`);
    const pods = await livePods('recreate');
    assert.equal(pods.filter((p) => oldNames.has(p.metadata.name)).length, 0);
    assert.ok(pods.every((p) => p.metadata.labels?.['controller-revision-hash'] === after.status!.updateRevision));
  });

  test('is registered in kruiseControllers as cloneset-controller, always enabled', () => {
    const reg = kruiseControllers.find((c) => c.name === 'cloneset-controller');
    assert.ok(reg);
    assert.equal(reg.enabled(() => false), true);
  });
});
