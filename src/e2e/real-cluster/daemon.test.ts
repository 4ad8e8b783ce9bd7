/**
 * kruise-daemon as the separate per-node process it is in a cluster, on a REAL kube-apiserver
 * (scripts/real-control-plane.sh): `kruise install`, `kruise manager`, our scheduler, `kruise nodes
 * --cri-dir` serving each simulated node's runtime on a CRI socket, and one `kruise daemon
 * --socket-file` per node, reaching its runtime over gRPC exactly as it reaches containerd. Skipped,
 * with the reason, when the binaries are not cached.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { realControlPlaneAvailable } from '../../testing/real-control-plane.js';
import { realKruiseForSuite } from '../../testing/real-kruise-suite.js';
import { eventually } from '../../testing/workload-env.js';

type Obj = Record<string, any>;  

const availability = realControlPlaneAvailable();
const nodes = ['dsim-0', 'dsim-1'];

describe('kruise-daemon processes on a real kube-apiserver', { skip: availability.available ? false : availability.reason, timeout: 300_000 }, () => {
  const k = realKruiseForSuite({
    name: 'kruise-real-daemon', gates: ['ImagePullJobGate=true', 'PreDownloadImageForInPlaceUpdate=true'], daemons: true,
    nodes: { count: 2, prefix: 'dsim-', extraArgs: ['--pull-delay-ms', '200'] },
  });
  const { json, pods, apply } = k;

  test('a ContainerRecreateRequest restarts the named container through the node\'s daemon: same pod UID and IP, restartCount 1', async () => {
    await apply({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'recreate-me', namespace: 'default' },
      spec: { containers: [{ name: 'app', image: 'nginx:1.25-alpine' }, { name: 'side', image: 'redis:7.2' }] },
    });
    let last: Obj | undefined;
    const running = await eventually('pod running', async () => {
      const pod = (last = await json(['get', 'pod', 'recreate-me']));
      return pod.status?.containerStatuses?.every((c: Obj) => c.ready) ? pod : undefined;
    }, 60_000).catch((err: Error) => assert.fail(`${err.message}: ${JSON.stringify(last?.status)} on ${last?.spec?.nodeName}`));
    await apply({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ContainerRecreateRequest', metadata: { name: 'crr', namespace: 'default' },
      spec: { podName: 'recreate-me', containers: [{ name: 'app' }], strategy: { failurePolicy: 'Fail', minStartedSeconds: 1 }, ttlSecondsAfterFinished: 600 },
    });
    const done = await eventually('CRR completed', async () => {
      const crr = await json(['get', 'containerrecreaterequests.v1alpha1.apps.kruise.io', 'crr']);
      return crr.status?.phase === 'Completed' ? crr : undefined;
    }, 90_000);
    assert.deepEqual(done.status.containerRecreateStates.map((s: Obj) => `${s.name}:${s.phase}`), ['app:Succeeded']);
    assert.equal(done.metadata.labels['crr.apps.kruise.io/node-name'], running.spec.nodeName);
    const after = await json(['get', 'pod', 'recreate-me']);
    assert.equal(after.metadata.uid, running.metadata.uid);
    assert.equal(after.status.podIP, running.status.podIP);
    const restarts = Object.fromEntries(after.status.containerStatuses.map((c: Obj) => [c.name, c.restartCount]));
    assert.deepEqual(restarts, { app: 1, side: 0 });
  });

  test('an ImagePullJob reaches every node through its daemon and completes', async () => {
    await eventually('a NodeImage per node', async () => {
      const list = await json(['get', 'nodeimages.apps.kruise.io']);
      const names = (list.items as Obj[]).map((n) => n.metadata.name).sort();
      return names.join() === nodes.join() ? names : undefined;
    }, 90_000);
    await apply({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', metadata: { name: 'pull-redis', namespace: 'default' },
      spec: { image: 'redis:7.2', parallelism: 2, completionPolicy: { type: 'Always' } },
    });
    const job = await eventually('job complete', async () => {
      const j = await json(['get', 'imagepulljobs.apps.kruise.io', 'pull-redis']);
      return j.status?.completionTime ? j : undefined;
    }, 120_000);
    assert.equal(job.status.desired, 2);
    assert.equal(job.status.succeeded, 2);
    assert.equal(job.status.failed ?? 0, 0);
    for (const node of nodes) {
      const ni = await json(['get', 'nodeimages.apps.kruise.io', node]);
      const tags = ni.status.imageStatuses.redis.tags as Obj[];
      assert.deepEqual(tags.map((t) => `${t.tag}:${t.phase}`), ['7.2:Succeeded'], node);
      assert.match(tags[0]!.imageID, /redis/);
    }
  });

  test('InPlaceUpdateEnvFromMetadata: an annotation read by env restarts the container in place through the daemon', async () => {
    await apply({
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: 'envmeta', namespace: 'default' },
      spec: {
        replicas: 1, selector: { matchLabels: { app: 'envmeta' } }, updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' } },
        template: {
          metadata: { labels: { app: 'envmeta' }, annotations: { x: 'v1' } },
          spec: { containers: [{ name: 'app', image: 'nginx:1.25-alpine', env: [{ name: 'X', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['x']" } } }] }] },
        },
      },
    });
    const readyPod = (restarts: number) => eventually(`envmeta ready with ${restarts} restarts`, async () => {
      const [pod] = await pods('envmeta');
      const ready = pod?.status?.conditions?.some((c: Obj) => c.type === 'Ready' && c.status === 'True');
      return ready && pod!.status.containerStatuses?.[0]?.restartCount === restarts && pod!.metadata.annotations?.['apps.kruise.io/runtime-containers-meta'] ? pod : undefined;
    }, 60_000);
    const before = await readyPod(0);
    await json(['patch', 'clonesets.v1beta1.apps.kruise.io', 'envmeta', '--type', 'merge', '-p', JSON.stringify({ spec: { template: { metadata: { annotations: { x: 'v2' } } } } })]);
    const after = await readyPod(1);
    assert.equal(after.metadata.uid, before.metadata.uid);
    assert.equal(after.metadata.annotations.x, 'v2');
    assert.equal(JSON.parse(after.metadata.annotations['apps.kruise.io/inplace-update-state']).updateEnvFromMetadata, true);
  });

  test('PreDownloadImageForInPlaceUpdate: an in-place rollout of 4 pods gets an ImagePullJob for the new image', async () => {
    await apply({
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: 'predl', namespace: 'default' },
      spec: {
        replicas: 4, selector: { matchLabels: { app: 'predl' } }, updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 1 } },
        template: { metadata: { labels: { app: 'predl' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } },
      },
    });
    await eventually('predl ready', async () => (await json(['get', 'clonesets.v1beta1.apps.kruise.io', 'predl'])).status?.readyReplicas === 4, 60_000);
    await json(['patch', 'clonesets.v1beta1.apps.kruise.io', 'predl', '--type', 'merge', '-p', JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } } } })]);
    const job = await eventually('the pre-download job', async () =>
      ((await json(['get', 'imagepulljobs.v1beta1.apps.kruise.io'])).items as Obj[]).find((j) => j.spec.image === 'nginx:1.27'), 60_000);
    const cs = await json(['get', 'clonesets.v1beta1.apps.kruise.io', 'predl']);
    assert.equal(job.metadata.name, `${cs.status.updateRevision}-main`);
    assert.equal(job.metadata.ownerReferences[0].uid, cs.metadata.uid);
  });
});
