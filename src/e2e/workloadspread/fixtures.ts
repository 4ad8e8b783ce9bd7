/**
 * Shared pieces of the WorkloadSpread acceptance tests (docs/design/workloadspread.md §10): an
 * env whose nodes carry `zone: a|b|c`, the spec's manifests, and readers of pods and status.
 */
import type { Node, Pod } from '../../api/core/index.js';
import type { WorkloadSpread } from '../../api/kruise/workloads/workload-spread.js';
import { WorkloadSpreads } from '../../api/kruise/resource-types.js';
import type { KObject } from '../../api/meta.js';
import { Namespaces, Nodes, Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { setupCloneSetController } from '../../controllers/cloneset/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { setupWorkloadSpreadController, type WorkloadSpreadControllerOptions } from '../../controllers/workloadspread/index.js';
import { injectedSpreadOf } from '../../control/workloadspread/index.js';
import { eventually, startWorkloadEnv, type WorkloadEnv, type WorkloadEnvOptions } from '../../testing/workload-env.js';

export { eventually, injectedSpreadOf, type Pod, type WorkloadEnv, type WorkloadSpread };
export const ns = 'ws1';
export const zones = ['a', 'b', 'c'];
/** The v1alpha1 endpoint: the spec's manifests use v1alpha1 field names. */
export const WorkloadSpreadsV1alpha1 = { ...WorkloadSpreads, version: 'v1alpha1' };
export const zoneTerm = (zone: string) => ({ matchExpressions: [{ key: 'zone', operator: 'In', values: [zone] }] });

/** Labels node i `zone: <zones[i]>` (the simulated nodes' own zone label stays). */
export async function labelZones(client: Client, zoneNames = zones): Promise<void> {
  const nodes = (await client.list<Node>(Nodes)).items.sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));
  await Promise.all(nodes.map((n, i) => client.patch(Nodes, undefined, n.metadata.name!, 'strategic', { metadata: { labels: { zone: zoneNames[i % zoneNames.length] } } })));
}

export async function startSpreadEnv(options: Partial<WorkloadEnvOptions> & { spread?: WorkloadSpreadControllerOptions; zoneNames?: string[] } = {}): Promise<WorkloadEnv> {
  const w = await startWorkloadEnv({
    nodes: 2, ...options,
    controllers: (m) => { setupCloneSetController(m); setupPodReadinessController(m); setupWorkloadSpreadController(m, options.spread); },
  });
  await labelZones(w.client, options.zoneNames ?? zones);
  await w.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  return w;
}

/** A.7's WorkloadSpread (v1alpha1): za max 2, zb unbounded, targeting `kind/name`. */
export function spread(spec: Record<string, unknown> = {}, name = 'spread'): KObject {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: { name, namespace: ns },
    spec: {
      targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      subsets: [
        { name: 'za', maxReplicas: 2, requiredNodeSelectorTerm: zoneTerm('a') },
        { name: 'zb', requiredNodeSelectorTerm: zoneTerm('b') },
      ],
      ...spec,
    },
  };
}

const podTemplate = (app: string, podSpec: Record<string, unknown> = {}) => ({
  metadata: { labels: { app } }, spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'main', image: 'busybox', command: ['sleep', '3600'] }], ...podSpec },
});

export function deployment(name: string, replicas: number, podSpec: Record<string, unknown> = {}): KObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: ns }, spec: { replicas, selector: { matchLabels: { app: name } }, template: podTemplate(name, podSpec) } };
}

export function cloneSet(name: string, replicas: number): KObject {
  return { apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name, namespace: ns }, spec: { replicas, selector: { matchLabels: { app: name } }, template: podTemplate(name) } };
}

export function statefulSet(name: string, replicas: number): KObject {
  return { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name, namespace: ns }, spec: { replicas, serviceName: name, selector: { matchLabels: { app: name } }, template: podTemplate(name) } };
}

/** Live (not deleting) pods of app `app`. */
export async function livePods(client: Client, app: string): Promise<Pod[]> {
  return (await client.list<Pod>(Pods, { namespace: ns, labelSelector: `app=${app}` })).items.filter((p) => !p.metadata.deletionTimestamp);
}

export const subsetOf = (pod: Pod): string | undefined => injectedSpreadOf(pod)?.subset;
export const costOf = (pod: Pod): string | undefined => pod.metadata.annotations?.['controller.kubernetes.io/pod-deletion-cost'];

/** Subset name → pod count. */
export function countBySubset(pods: Pod[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of pods) out[subsetOf(p) ?? '-'] = (out[subsetOf(p) ?? '-'] ?? 0) + 1;
  return out;
}

export async function getSpread(client: Client, name = 'spread'): Promise<WorkloadSpread> {
  return client.get<WorkloadSpread>(WorkloadSpreads, ns, name);
}

/** The aggregate subset statuses reduced to name → {replicas, missingReplicas}. */
export async function subsetCounts(client: Client, name = 'spread'): Promise<Record<string, { replicas: number; missingReplicas: number }>> {
  const ws = await getSpread(client, name);
  return Object.fromEntries((ws.status?.subsetStatuses ?? []).map((s) => [s.name, { replicas: s.replicas, missingReplicas: s.missingReplicas }]));
}
