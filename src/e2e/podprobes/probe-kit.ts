/**
 * Shared pieces of the PodProbeMarker end-to-end tests: a workload env with one kruise-daemon per
 * node and the two manager controllers, the idle marker of the acceptance scenarios, pods of the
 * game, and reads of NodePodProbes and pods (docs/design/pod-probes.md §8).
 */
import type { Pod } from '../../api/core/index.js';
import type { NodePodProbe } from '../../api/kruise/ops/nodepodprobe.js';
import type { PodProbeMarker } from '../../api/kruise/ops/podprobemarker.js';
import { NodePodProbes, PodProbeMarkers } from '../../api/kruise/resource-types.js';
import { Namespaces, Pods } from '../../api/resource-type.js';
import { setupNodePodProbeController } from '../../controllers/nodepodprobe/index.js';
import { setupPodProbeMarkerController } from '../../controllers/podprobemarker/index.js';
import { kruiseFeatureGates } from '../../features/kruise.js';
import { isNotFound } from '../../machinery/errors.js';
import { eventually, startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';

export const ns = 't';

export async function startProbeEnv(gates = ''): Promise<WorkloadEnv> {
  const g = kruiseFeatureGates(gates);
  const w = await startWorkloadEnv({
    nodes: 2, daemons: true, gates,
    controllers: (m) => { setupPodProbeMarkerController(m, { gate: (x) => g.enabled(x) }); setupNodePodProbeController(m); },
  });
  await w.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }).catch(() => undefined);
  return w;
}

type Probe = NonNullable<PodProbeMarker['spec']>['probes'][number];

/** The acceptance scenarios' marker, named `name`, selecting `app`, with `probes` (default: idle). */
export function idleMarker(name = 'idle', app = 'game', probes?: Probe[]): PodProbeMarker {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker', metadata: { name, namespace: ns },
    spec: {
      selector: { matchLabels: { app } },
      probes: probes ?? [{
        name: 'idle', containerName: 'main', probe: { exec: { command: ['cat', '/tmp/idle'] }, periodSeconds: 1 },
        podConditionType: 'game.io/idle',
        markerPolicy: [
          { state: 'Succeeded', labels: { idle: 'true' } },
          { state: 'Failed', annotations: { 'controller.kubernetes.io/pod-deletion-cost': '10' } },
        ],
      }],
    },
  };
}

export function gamePod(name: string, app = 'game', extra: { annotations?: Record<string, string>; nodeName?: string; ports?: { name: string; containerPort: number }[] } = {}): Pod {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns, labels: { app }, annotations: extra.annotations },
    spec: { nodeName: extra.nodeName, containers: [{ name: 'main', image: 'nginx:1.25', ports: extra.ports }] },
  };
}

export const getPod = (w: WorkloadEnv, name: string) => w.client.get<Pod>(Pods, ns, name);
export const getMarker = (w: WorkloadEnv, name: string) => w.client.get<PodProbeMarker>(PodProbeMarkers, ns, name);
export const getNodeProbes = (w: WorkloadEnv, node: string) => w.client.get<NodePodProbe>(NodePodProbes, undefined, node);
export const condition = (pod: Pod, type: string) => pod.status?.conditions?.find((c) => c.type === type);

/** The running pod, once it is running on a node. */
export async function runningPod(w: WorkloadEnv, name: string): Promise<Pod> {
  return eventually(`${name} running`, async () => {
    const p = await getPod(w, name);
    return p.status?.phase === 'Running' && p.status.podIP ? p : undefined;
  }, 30_000);
}

/** The NodePodProbe entry of the pod (on its node). */
export async function entryOf(w: WorkloadEnv, pod: Pod) {
  const npp = await getNodeProbes(w, pod.spec.nodeName!);
  return npp.spec?.podProbes?.find((e) => e.uid === pod.metadata.uid);
}

/** The pod's probe state `probe` in its node's NodePodProbe status. */
export async function stateOf(w: WorkloadEnv, pod: Pod, probe: string) {
  const npp = await getNodeProbes(w, pod.spec.nodeName!);
  return npp.status?.podProbeStatuses?.find((s) => s.uid === pod.metadata.uid)?.probeStates?.find((s) => s.name === probe);
}

export async function gone(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return false;
  } catch (e) {
    if (isNotFound(e)) return true;
    throw e;
  }
}
