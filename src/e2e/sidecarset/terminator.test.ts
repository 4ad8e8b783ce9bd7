/**
 * The job sidecar terminator through the API with kruise-daemons on the simulated nodes
 * (docs/design/sidecarset.md §9 T1-T6): Job pods whose main container finishes get their
 * terminator sidecars stopped by a ContainerRecreateRequest, the pod phase following the exit codes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from '../../api/core/index.js';
import { ContainerRecreateRequests } from '../../api/kruise/resource-types.js';
import type { ContainerRecreateRequest } from '../../api/kruise/ops/index.js';
import { Jobs, Nodes } from '../../api/resource-type.js';
import { setupContainerRecreateRequestController } from '../../controllers/containerrecreaterequest/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { setupSidecarTerminatorController } from '../../controllers/sidecarterminator/index.js';
import { isNotFound } from '../../machinery/errors.js';
import { startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';
import { container, eventually, ns, Pods, statusOf, type Pod } from './fixtures.js';

type Obj = Record<string, unknown>;
const terminate = { name: 'KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT', value: 'true' };

function job(name: string, sideEnv: Obj[], podExtra: { annotations?: Record<string, string>; restartPolicy?: string; nodeName?: string; backoffLimit?: number } = {}) {
  return {
    apiVersion: 'batch/v1', kind: 'Job', metadata: { name, namespace: ns },
    spec: {
      backoffLimit: podExtra.backoffLimit ?? 0,
      template: {
        metadata: { labels: { job: name }, annotations: { 'kruise-ts.io/simulate-run-seconds.main': '2', 'kruise-ts.io/simulate-exit-code.main': '0', ...podExtra.annotations } },
        spec: {
          restartPolicy: podExtra.restartPolicy ?? 'Never', terminationGracePeriodSeconds: 2, ...(podExtra.nodeName ? { nodeName: podExtra.nodeName } : {}),
          containers: [{ name: 'main', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 2'] }, { name: 'side', image: 'redis:7', env: sideEnv }],
        },
      },
    },
  };
}

const jobPod = async (w: WorkloadEnv, name: string): Promise<Pod> => eventually(`pod of job ${name}`, async () =>
  (await w.client.list<Pod>(Pods, { namespace: ns, labelSelector: `job=${name}` })).items[0]);
const crr = (w: WorkloadEnv, name: string) => w.client.get<ContainerRecreateRequest & { metadata: { name: string } }>(ContainerRecreateRequests, ns, name);
const phaseIs = (w: WorkloadEnv, name: string, phase: string, timeoutMs = 20_000) => eventually(`pod ${name} ${phase}`, async () => {
  const p = await w.client.get<Pod>(Pods, ns, name);
  return p.status?.phase === phase ? p : undefined;
}, timeoutMs);

describe('job sidecar terminator', () => {
  let w: WorkloadEnv;
  before(async () => {
    w = await startWorkloadEnv({
      nodes: 2, daemons: true, gates: 'SidecarTerminator=true',
      controllers: (m) => { setupSidecarTerminatorController(m); setupContainerRecreateRequestController(m); setupPodReadinessController(m); },
    });
  });
  after(() => w.stop());

  test('T1: after main exits, CRR sidecar-termination-<uid> stops side (forceRecreate, Ignore); side not restarted; pod Succeeded', async () => {
    await w.client.create(Jobs, job('t1', [terminate]));
    const pod = await jobPod(w, 't1');
    const done = await phaseIs(w, pod.metadata.name!, 'Succeeded');
    const request = await crr(w, `sidecar-termination-${pod.metadata.uid}`);
    assert.deepEqual(request.spec?.containers?.map((c) => c.name), ['side']);
    assert.equal(request.spec?.strategy?.forceRecreate, true);
    assert.equal(request.spec?.strategy?.failurePolicy, 'Ignore');
    assert.deepEqual(request.metadata.ownerReferences?.map((r) => [r.kind, r.uid, r.controller]), [['Pod', pod.metadata.uid, true]]);
    assert.equal(statusOf(done, 'side')?.restartCount, 0);
    assert.equal(statusOf(done, 'side')?.state?.terminated?.exitCode, 0);
    assert.equal(statusOf(done, 'main')?.state?.terminated?.exitCode, 0);
  });

  test('T2: a side that outlives the grace period is killed with a non-zero code: pod Failed', async () => {
    await w.client.create(Jobs, job('t2', [terminate], { annotations: { 'kruise-ts.io/simulate-termination-seconds.side': '30' } }));
    const pod = await jobPod(w, 't2');
    const failed = await phaseIs(w, pod.metadata.name!, 'Failed');
    assert.notEqual(statusOf(failed, 'side')?.state?.terminated?.exitCode, 0);
    assert.equal(failed.status?.conditions?.find((c) => c.type === 'SidecarTerminated'), undefined);
  });

  test('T3: with IGNORE_EXIT_CODE the pod is set Succeeded with SidecarTerminated before side is stopped, and stays Succeeded', async () => {
    await w.client.create(Jobs, job('t3', [terminate, { name: 'KRUISE_TERMINATE_SIDECAR_IGNORE_EXIT_CODE', value: 'true' }],
      { annotations: { 'kruise-ts.io/simulate-termination-seconds.side': '30' } }));
    const pod = await jobPod(w, 't3');
    const done = await phaseIs(w, pod.metadata.name!, 'Succeeded');
    const condition = done.status?.conditions?.find((c) => c.type === 'SidecarTerminated');
    assert.equal(condition?.status, 'True');
    assert.equal(condition?.message, 'Terminated by Sidecar Terminator');
    await eventually('side stopped', async () => statusOf(await w.client.get<Pod>(Pods, ns, pod.metadata.name!), 'side')?.state?.terminated, 20_000);
    assert.equal((await w.client.get<Pod>(Pods, ns, pod.metadata.name!)).status?.phase, 'Succeeded');
  });

  test('T5: OnFailure and main exits 1: nothing happens', async () => {
    await w.client.create(Jobs, job('t5', [terminate], { restartPolicy: 'OnFailure', backoffLimit: 20, annotations: { 'kruise-ts.io/simulate-exit-code.main': '1' } }));
    const pod = await jobPod(w, 't5');
    await eventually('main exited 1 at least once', async () => {
      const p = await w.client.get<Pod>(Pods, ns, pod.metadata.name!);
      return (statusOf(p, 'main')?.lastState?.terminated?.exitCode ?? statusOf(p, 'main')?.state?.terminated?.exitCode) === 1;
    }, 20_000);
    await new Promise((r) => setTimeout(r, 1_000));
    await assert.rejects(crr(w, `sidecar-termination-${pod.metadata.uid}`), (e: unknown) => isNotFound(e));
    assert.ok(statusOf(await w.client.get<Pod>(Pods, ns, pod.metadata.name!), 'side')?.state?.running);
  });

  test('T4: on a virtual-kubelet node the WITH_IMAGE sidecar gets that image in place, no CRR', async () => {
    const nodes = (await w.client.list<Node>(Nodes)).items;
    const node = nodes[nodes.length - 1]!.metadata.name!;
    await w.client.patch(Nodes, undefined, node, 'merge', { metadata: { labels: { type: 'virtual-kubelet' } } });
    await w.client.create(Jobs, job('t4', [{ name: 'KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT_WITH_IMAGE', value: 'quick-exit:1' }], { nodeName: node }));
    const pod = await jobPod(w, 't4');
    const replaced = await eventually('side image replaced', async () => {
      const p = await w.client.get<Pod>(Pods, ns, pod.metadata.name!);
      return container(p, 'side')?.image === 'quick-exit:1' ? p : undefined;
    }, 20_000);
    assert.equal(replaced.metadata.uid, pod.metadata.uid);
    await assert.rejects(crr(w, `sidecar-termination-${pod.metadata.uid}`), (e: unknown) => isNotFound(e));
  });
});

describe('job sidecar terminator with the gate off', () => {
  test('T6: no CRR, the pod keeps running', async () => {
    const w = await startWorkloadEnv({ nodes: 1, daemons: true, controllers: (m) => { setupContainerRecreateRequestController(m); } });
    try {
      await w.client.create(Jobs, job('t6', [terminate]));
      const pod = await jobPod(w, 't6');
      await eventually('main exited', async () => statusOf(await w.client.get<Pod>(Pods, ns, pod.metadata.name!), 'main')?.state?.terminated, 20_000);
      await new Promise((r) => setTimeout(r, 1_000));
      const p = await w.client.get<Pod>(Pods, ns, pod.metadata.name!);
      assert.equal(p.status?.phase, 'Running');
      assert.ok(statusOf(p, 'side')?.state?.running);
    } finally {
      await w.stop();
    }
  });
});
