/**
 * Shared pieces of the UnitedDeployment acceptance tests (docs/design/uniteddeployment.md §7): an
 * env with three nodes labelled `zone: a|b|c` running the UnitedDeployment, CloneSet and Advanced
 * StatefulSet controllers, and B.7's manifest.
 */
import { UnitedDeployments } from '../../api/kruise/resource-types.js';
import type { UnitedDeployment } from '../../api/kruise/workloads/united-deployment.js';
import type { KObject } from '../../api/meta.js';
import { Namespaces } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { setupCloneSetController } from '../../controllers/cloneset/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { setupAdvancedStatefulSetController } from '../../controllers/statefulset/index.js';
import { setupUnitedDeploymentController } from '../../controllers/uniteddeployment/index.js';
import { eventually, startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';
import { labelZones } from '../workloadspread/fixtures.js';

export { eventually, type UnitedDeployment, type WorkloadEnv };
export const ns = 'ud1';
export const UnitedDeploymentsV1alpha1 = { ...UnitedDeployments, version: 'v1alpha1' };
export const zoneTerm = (zone: string) => ({ matchExpressions: [{ key: 'zone', operator: 'In', values: [zone] }] });
export const podTemplate = (image = 'busybox') => ({
  metadata: { labels: { app: 'demo' } },
  spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'c', image, command: ['sleep', '3600'] }] },
});

export async function startUdEnv(): Promise<WorkloadEnv> {
  const w = await startWorkloadEnv({
    nodes: 3,
    controllers: (m) => { setupCloneSetController(m); setupAdvancedStatefulSetController(m); setupPodReadinessController(m); setupUnitedDeploymentController(m); },
  });
  await labelZones(w.client);
  await w.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  return w;
}

/** B.7's UnitedDeployment (v1alpha1) with a CloneSet template over zones a, b, c. */
export function demo(spec: Record<string, unknown> = {}, name = 'demo'): KObject {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'UnitedDeployment', metadata: { name, namespace: ns },
    spec: {
      replicas: 5, selector: { matchLabels: { app: 'demo' } },
      template: { cloneSetTemplate: { metadata: { labels: { app: 'demo' } }, spec: { selector: { matchLabels: { app: 'demo' } }, template: podTemplate() } } },
      topology: { subsets: ['a', 'b', 'c'].map((z) => ({ name: z, nodeSelectorTerm: zoneTerm(z) })) },
      ...spec,
    },
  };
}

export async function getUd(client: Client, name = 'demo'): Promise<UnitedDeployment> {
  return client.get<UnitedDeployment>(UnitedDeployments, ns, name);
}

/** Subset name → spec.replicas of its workload. */
export async function subsetReplicas(client: Client, type: Parameters<Client['list']>[0], udName = 'demo'): Promise<Record<string, number>> {
  const list = (await client.list<KObject & { spec?: { replicas?: number } }>(type, { namespace: ns })).items
    .filter((o) => !o.metadata.deletionTimestamp && o.metadata.ownerReferences?.some((r) => r.kind === 'UnitedDeployment' && r.name === udName));
  return Object.fromEntries(list.map((o) => [o.metadata.labels!['apps.kruise.io/subset-name'], o.spec?.replicas ?? 0]));
}
