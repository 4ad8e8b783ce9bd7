/**
 * Shared pieces of the PodUnavailableBudget acceptance tests (docs/design/podunavailablebudget.md §9):
 * an env running the PUB, CloneSet, Advanced StatefulSet and pod-readiness controllers, manifests, readers, and a watch
 * that keeps every PUB status version (the webhook's short-lived entries included).
 */
import type { Pod } from '../../api/core/index.js';
import { PodUnavailableBudgets } from '../../api/kruise/resource-types.js';
import { Namespaces, Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { setupCloneSetController } from '../../controllers/cloneset/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { setupPodUnavailableBudgetController } from '../../controllers/podunavailablebudget/index.js';
import { setupAdvancedStatefulSetController } from '../../controllers/statefulset/index.js';
import type { PodUnavailableBudget } from '../../control/pubcontrol/index.js';
import { kruiseFeatureGates } from '../../features/kruise.js';
import { eventually, startWorkloadEnv, type WorkloadEnv, type WorkloadEnvOptions } from '../../testing/workload-env.js';

export { eventually, type Pod, type PodUnavailableBudget };

export function startPubEnv(options: Partial<WorkloadEnvOptions> = {}): Promise<WorkloadEnv> {
  const gates = kruiseFeatureGates(options.gates ?? '');
  return startWorkloadEnv({
    nodes: 2, ...options,
    controllers: (m) => {
      setupPodUnavailableBudgetController(m);
      setupCloneSetController(m, { gates: (g) => gates.enabled(g) });
      setupAdvancedStatefulSetController(m, { gates: (g) => gates.enabled(g) });
      setupPodReadinessController(m);
    },
  });
}

export const namespace = (client: Client, name: string) => client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

export const deployment = (ns: string, name: string, replicas: number, app = name) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: ns },
  spec: {
    replicas, selector: { matchLabels: { app } },
    template: { metadata: { labels: { app } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25-alpine' }] } },
  },
});

export const barePod = (ns: string, name: string, labels: Record<string, string>): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns, labels },
  spec: { containers: [{ name: 'main', image: 'nginx:1.25-alpine' }] },
});

export const pubV1alpha1 = (ns: string, name: string, spec: Record<string, unknown>, annotations?: Record<string, string>) => ({
  apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: { name, namespace: ns, ...(annotations && { annotations }) }, spec,
});

/** The v1alpha1 endpoint, for manifests that carry the v1alpha1 annotations. */
export const PubsV1alpha1 = { ...PodUnavailableBudgets, version: 'v1alpha1' };

export const getPub = (client: Client, ns: string, name: string) => client.get<PodUnavailableBudget>(PodUnavailableBudgets, ns, name);

export const isReady = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

export async function livePods(client: Client, ns: string, app: string): Promise<Pod[]> {
  return (await client.list<Pod>(Pods, { namespace: ns, labelSelector: `app=${app}` })).items.filter((p) => !p.metadata.deletionTimestamp);
}

/** Waits for the four counters (the maps may hold anything). */
export function pubCounters(client: Client, ns: string, name: string, want: { total: number; desired: number; current: number; allowed: number }, timeoutMs = 20_000) {
  return eventually(`${name} status ${JSON.stringify(want)}`, async () => {
    const s = (await getPub(client, ns, name)).status;
    return s && s.totalReplicas === want.total && s.desiredAvailable === want.desired && s.currentAvailable === want.current
      && s.unavailableAllowed === want.allowed ? s : undefined;
  }, timeoutMs);
}

/** Every status version of the PUBs of `ns` seen from now on. */
export function recordPubStatuses(client: Client, ns: string): { versions: PodUnavailableBudget[]; stop(): void } {
  const versions: PodUnavailableBudget[] = [];
  const handle = client.watch<PodUnavailableBudget>(PodUnavailableBudgets, { namespace: ns }, {
    onEvent: (e) => { if (e.type !== 'BOOKMARK' && e.type !== 'ERROR') versions.push(e.object); },
    onClose: () => undefined,
  });
  return { versions, stop: () => handle.stop() };
}

export function readyPods(client: Client, ns: string, app: string, count: number, timeoutMs = 20_000): Promise<Pod[]> {
  return eventually(`${count} ready ${app} pods`, async () => {
    const pods = await livePods(client, ns, app);
    return pods.length === count && pods.every(isReady) ? pods : undefined;
  }, timeoutMs);
}
