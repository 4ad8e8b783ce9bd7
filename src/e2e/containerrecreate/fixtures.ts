/**
 * Shared pieces of the ContainerRecreateRequest end-to-end tests: a cluster with kruise-daemons on
 * its simulated nodes and the manager's CRR controller (plus pod readiness), running pods, requests
 * and what a user reads back from them (docs/design/container-recreate.md §6).
 */
import type { Pod } from '../../api/core/index.js';
import { ContainerRecreateRequests } from '../../api/kruise/resource-types.js';
import type { ContainerRecreateRequest } from '../../api/kruise/ops/index.js';
import type { KObject } from '../../api/meta.js';
import { Pods } from '../../api/resource-type.js';
import { setupContainerRecreateRequestController } from '../../controllers/containerrecreaterequest/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { connectCri } from '../../daemon/cri/grpc/client.js';
import { eventually, startWorkloadEnv, type WorkloadEnv, type WorkloadEnvOptions } from '../../testing/workload-env.js';

export type CRR = ContainerRecreateRequest & KObject;
export const ns = 'default';

export function startCRREnv(o: Partial<WorkloadEnvOptions> = {}): Promise<WorkloadEnv> {
  return startWorkloadEnv({
    nodes: 1, daemons: true, ...o,
    controllers: o.controllers ?? ((m) => { setupContainerRecreateRequestController(m); setupPodReadinessController(m); }),
  });
}

export const containerStatus = (pod: Pod, name: string) => pod.status?.containerStatuses?.find((s) => s.name === name);
export const restarts = (pod: Pod, name: string): number => containerStatus(pod, name)?.restartCount ?? -1;
export const getPod = (w: WorkloadEnv, name: string) => w.client.get<Pod>(Pods, ns, name);
export const getCRR = (w: WorkloadEnv, name: string) => w.client.get<CRR>(ContainerRecreateRequests, ns, name);
export const stateOf = (crr: CRR, name: string) => crr.status?.containerRecreateStates?.find((s) => s.name === name);

const allReady = (pod: Pod) => pod.status?.phase === 'Running' && (pod.status.containerStatuses ?? []).every((s) => s.ready && s.containerID);

/** A pod with containers `app` and `side` (servers: they run until stopped), running and ready. */
export async function runningPod(w: WorkloadEnv, name: string, edit: (p: Pod) => void = () => undefined): Promise<Pod> {
  const pod: Pod = {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns },
    spec: { terminationGracePeriodSeconds: 5, containers: [{ name: 'app', image: 'nginx:1.25' }, { name: 'side', image: 'redis:7' }] },
  };
  edit(pod);
  await w.client.create(Pods, pod);
  return eventually(`pod ${name} running and ready`, async () => {
    const current = await getPod(w, name);
    return allReady(current) ? current : undefined;
  });
}

export function crr(name: string, podName: string, spec: Partial<NonNullable<CRR['spec']>> = {}): CRR {
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'ContainerRecreateRequest', metadata: { name, namespace: ns },
    spec: { podName, containers: [{ name: 'app' }], ...spec },
  };
}

export const createCRR = (w: WorkloadEnv, obj: CRR) => w.client.create<CRR>(ContainerRecreateRequests, obj);

export function completed(w: WorkloadEnv, name: string, timeoutMs = 20_000): Promise<CRR> {
  return eventually(`CRR ${name} completed`, async () => {
    const current = await getCRR(w, name);
    return current.status?.phase === 'Completed' ? current : undefined;
  }, timeoutMs);
}

/** Every version of one request's status seen on a watch, in order. */
export function recordStatuses(w: WorkloadEnv, name: string): { seen: CRR[]; stop(): void } {
  const seen: CRR[] = [];
  const handle = w.client.watch<CRR>(ContainerRecreateRequests, { namespace: ns, fieldSelector: `metadata.name=${name}` }, {
    onEvent: (e) => { if (e.type !== 'BOOKMARK' && e.type !== 'ERROR') seen.push(e.object); },
    onClose: () => undefined,
  });
  return { seen, stop: () => handle.stop() };
}

/** Stops a container behind the daemon's back, over the node's CRI socket (as `crictl stop` would). */
export async function crashContainer(w: WorkloadEnv, pod: Pod, name: string): Promise<void> {
  const cri = connectCri(w.nodes().criSocket(pod.spec!.nodeName!)!);
  try {
    await cri.stopContainer(containerStatus(pod, name)!.containerID!.split('://')[1]!, 0);
  } finally {
    cri.close();
  }
}

/** The global resourceVersion order of the API server: a before b. */
export const writtenBefore = (a: KObject, b: KObject): boolean => BigInt(a.metadata.resourceVersion!) < BigInt(b.metadata.resourceVersion!);
