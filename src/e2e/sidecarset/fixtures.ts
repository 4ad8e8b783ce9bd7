/**
 * Shared pieces of the SidecarSet acceptance tests (docs/design/sidecarset.md §9): the manual's
 * first SidecarSet `log-agent`, pod builders and readers, and a workload env running the
 * SidecarSet, CloneSet and pod-readiness controllers.
 */
import type { Pod } from '../../api/core/index.js';
import type { SidecarSet } from '../../control/sidecarcontrol/index.js';
import { SidecarSets } from '../../api/kruise/resource-types.js';
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { setupCloneSetController } from '../../controllers/cloneset/index.js';
import { setupContainerLaunchPriorityController } from '../../controllers/containerlaunchpriority/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { setupSidecarSetController } from '../../controllers/sidecarset/index.js';
import { startWorkloadEnv, type WorkloadEnv, type WorkloadEnvOptions } from '../../testing/workload-env.js';

export { eventually } from '../../testing/workload-env.js';
export { Pods, SidecarSets, type Pod, type SidecarSet };
export const ns = 'default';
type Obj = Record<string, unknown>;

export function startSidecarEnv(options: Partial<WorkloadEnvOptions> = {}): Promise<WorkloadEnv> {
  return startWorkloadEnv({
    nodes: 2, ...options,
    controllers: (m) => {
      setupSidecarSetController(m); setupCloneSetController(m); setupPodReadinessController(m); setupContainerLaunchPriorityController(m);
    },
  });
}

/** The manual's first SidecarSet, named `name`, selecting `app: <app>`, with spec overrides. */
export function logAgent(name = 'log-agent', app = 'web', spec: Obj = {}, agent: Obj = {}): SidecarSet {
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name },
    spec: {
      selector: { matchLabels: { app } },
      containers: [{ name: 'agent', image: 'busybox:1.35', command: ['sleep', '3600'], volumeMounts: [{ name: 'logs', mountPath: '/var/log/app' }], ...agent }],
      volumes: [{ name: 'logs', emptyDir: {} }],
      ...spec,
    },
  } as SidecarSet;
}

export function appPod(name: string, labels: Record<string, string> = { app: 'web' }, main: Obj = {}, podSpec: Obj = {}, namespace = ns): Pod {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, labels },
    spec: { containers: [{ name: 'main', image: 'nginx:1.25', ...main }], ...podSpec },
  } as Pod;
}

export const createPod = (client: Client, pod: Pod): Promise<Pod> => client.create<Pod>(Pods, pod);
export const getPod = (client: Client, name: string, namespace = ns): Promise<Pod> => client.get<Pod>(Pods, namespace, name);
export const getSet = (client: Client, name: string): Promise<SidecarSet> => client.get<SidecarSet>(SidecarSets, undefined, name);
export const names = (pod: Pod): string[] => pod.spec.containers.map((c) => c.name);
export const container = (pod: Pod, name: string) => pod.spec.containers.find((c) => c.name === name);
export const envOf = (pod: Pod, c: string, env: string) => container(pod, c)?.env?.find((e) => e.name === env);
export const statusOf = (pod: Pod, c: string) => pod.status?.containerStatuses?.find((s) => s.name === c);

/** Deletes every SidecarSet and the pods of `namespace` (tests share one env). */
export async function deleteSidecarSets(client: Client, namespace = ns): Promise<void> {
  for (const p of (await client.list<Pod>(Pods, { namespace })).items) await client.delete(Pods, namespace, p.metadata.name!, { gracePeriodSeconds: 0 }).catch(() => undefined);
  for (const s of (await client.list<SidecarSet>(SidecarSets)).items) await client.delete(SidecarSets, undefined, s.metadata.name!);
}
