/**
 * In-place update of two containers with launch priorities (docs/design/inplace-update.md §7,
 * OpenKruise's CloneSet e2e): `redis` carries priority 10 and a 2 s postStart hook, `nginx` none; the
 * launch-priority pod step gives both a barrier, so an update of both images restarts `redis` first
 * and `nginx` only once the new `redis` is ready, recorded as two batches in the pod's in-place
 * update state. When the new `redis` cannot start, `nginx` is not touched.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/core/index.js';
import { setupCloneSetController } from '../../controllers/cloneset/index.js';
import { setupContainerLaunchPriorityController } from '../../controllers/containerlaunchpriority/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';
import { cloneSet, CloneSets, eventually, getCloneSet, IMG1, IMG2, isPodReady, livePods, patchCloneSet, statusWhere } from './fixtures.js';

const REDIS1 = 'redis:7.2-alpine';
const REDIS2 = 'redis:7.4-alpine';
const BROKEN = 'registry.invalid/redis:none';
let w: WorkloadEnv;

before(async () => {
  w = await startWorkloadEnv({
    nodes: 1,
    pullError: (image) => (image === BROKEN ? 'dial tcp: lookup registry.invalid: no such host' : undefined),
    controllers: (m) => { setupCloneSetController(m); setupPodReadinessController(m); setupContainerLaunchPriorityController(m); },
  });
});
after(() => w.stop());

const containers = (nginx: string, redis: string) => [
  { name: 'nginx', image: nginx },
  {
    name: 'redis', image: redis, env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '10' }],
    lifecycle: { postStart: { exec: { command: ['sleep', '2'] } } },
  },
];
const twoContainers = (name: string) => cloneSet(name, {
  replicas: 1, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' } },
}, { terminationGracePeriodSeconds: 3, containers: containers(IMG1, REDIS1) });

const status = (pod: Pod, c: string) => pod.status?.containerStatuses?.find((s) => s.name === c);
const batches = (pod: Pod): string[][] =>
  (JSON.parse(pod.metadata.annotations?.['apps.kruise.io/inplace-update-state'] ?? '{}').containerBatchesRecord ?? [])
    .map((b: { containers: string[] }) => b.containers);
const setImages = (name: string, nginx: string, redis: string) =>
  patchCloneSet(w.client, name, { template: { spec: { containers: containers(nginx, redis) } } });

async function readyPod(name: string): Promise<Pod> {
  await statusWhere(w.client, name, '1 ready', (cs, pods) => cs.status?.readyReplicas === 1 && pods.length === 1 && pods.every(isPodReady));
  return (await livePods(w.client, name))[0]!;
}

describe('CloneSet in-place update with container launch priorities', () => {
  test('redis (priority 10) is updated first, nginx after the new redis is ready: two batches', async () => {
    await w.client.create(CloneSets, twoContainers('prio'));
    const before = await readyPod('prio');
    await setImages('prio', IMG2, REDIS2);
    await statusWhere(w.client, 'prio', 'updated and ready', (cs, pods) => cs.status?.updatedReadyReplicas === 1 && pods.length === 1
      && status(pods[0]!, 'nginx')?.image === `docker.io/library/${IMG2}` && status(pods[0]!, 'redis')?.image === `docker.io/library/${REDIS2}` && isPodReady(pods[0]!));
    const pod = (await livePods(w.client, 'prio'))[0]!;
    assert.deepEqual([pod.metadata.name, pod.metadata.uid], [before.metadata.name, before.metadata.uid]);
    assert.deepEqual(['nginx', 'redis'].map((c) => status(pod, c)?.restartCount), [1, 1]);
    assert.deepEqual(batches(pod), [['redis'], ['nginx']]);
    // nginx was stopped only after the new redis had started and finished its 2 s postStart hook
    const nginxStopped = Date.parse(status(pod, 'nginx')!.lastState!.terminated!.finishedAt!);
    const redisStarted = Date.parse(status(pod, 'redis')!.state!.running!.startedAt!);
    assert.ok(nginxStopped - redisStarted >= 2000, `nginx stopped at ${nginxStopped}, redis started at ${redisStarted}`);
  });

  test('when the new redis cannot start, nginx keeps its old image and waits in the next batch', async () => {
    await w.client.create(CloneSets, twoContainers('prio-fail'));
    const before = await readyPod('prio-fail');
    await setImages('prio-fail', IMG2, BROKEN);
    const pod = await eventually('redis failing to pull its new image', async () => {
      const p = (await livePods(w.client, 'prio-fail'))[0];
      return p && /ErrImagePull|ImagePullBackOff/.test(status(p, 'redis')?.state?.waiting?.reason ?? '') ? p : undefined;
    }, 30_000);
    assert.equal(pod.metadata.uid, before.metadata.uid);
    assert.deepEqual(pod.spec.containers.map((c) => c.image), [IMG1, BROKEN]);
    const state = JSON.parse(pod.metadata.annotations!['apps.kruise.io/inplace-update-state']!);
    assert.deepEqual(state.nextContainerImages, { nginx: IMG2 });
    assert.deepEqual(state.preCheckBeforeNext, { containersRequiredReady: ['redis'] });
    assert.deepEqual(batches(pod), [['redis']]);
    assert.equal(status(pod, 'nginx')?.restartCount, 0);
    const cs = await getCloneSet(w.client, 'prio-fail');
    assert.deepEqual([cs.status?.updatedReplicas, cs.status?.updatedReadyReplicas], [1, 0]);
  });
});
