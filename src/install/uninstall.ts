/**
 * `kruise uninstall`: refuses while Kruise workloads exist (as the chart's pre-delete hook does),
 * then removes what `kruise install` applied in an order that never leaves the API server calling a
 * webhook that is gone: webhook configurations first, then the manager and daemon, their Service,
 * Secret and RBAC, the CRDs (when `crds.managed`), the namespaces last (docs/design/install.md §3).
 */
import type { KObject } from '../api/meta.js';
import { AdvancedDaemonSets, AdvancedStatefulSets, CloneSets } from '../api/kruise/resource-types.js';
import type { Client } from '../client/client.js';
import { isNotFound } from '../machinery/errors.js';
import { chartTypes } from './install.js';
import { chartObjects } from './manifests.js';
import { defaultChartValues, type ChartValues } from './chart/values.js';

/** `Kind namespace/name` of every CloneSet, Advanced StatefulSet and Advanced DaemonSet (the chart hook's list). */
export async function kruiseWorkloadsLeft(client: Client): Promise<string[]> {
  const left: string[] = [];
  for (const type of [CloneSets, AdvancedStatefulSets, AdvancedDaemonSets]) {
    const items = await client.list(type).then((l) => l.items, (e: unknown) => {
      if (isNotFound(e)) return [] as KObject[]; // the CRD is gone: nothing of that kind is left
      throw e;
    });
    for (const o of items) left.push(`${type.kind} ${o.metadata.namespace}/${o.metadata.name}`);
  }
  return left;
}

export class WorkloadsLeftError extends Error {
  constructor(readonly left: string[]) {
    super(`refusing to uninstall: ${left.length} Kruise workload(s) still exist: ${left.slice(0, 10).join(', ')}${left.length > 10 ? ', ...' : ''}; delete them first`);
  }
}

/** Removal order by kind: nothing that serves a webhook goes before the configurations that call it. */
const removalOrder = [
  'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'DaemonSet', 'Deployment', 'Job', 'Service', 'Secret',
  'RoleBinding', 'Role', 'ClusterRoleBinding', 'ClusterRole', 'ServiceAccount', 'CustomResourceDefinition', 'Namespace',
];

export async function uninstallKruise(client: Client, values: ChartValues = defaultChartValues, log: (line: string) => void = () => undefined): Promise<KObject[]> {
  const left = await kruiseWorkloadsLeft(client);
  if (left.length > 0) throw new WorkloadsLeftError(left);
  const objects = chartObjects(values).sort((a, b) => removalOrder.indexOf(a.kind!) - removalOrder.indexOf(b.kind!));
  const removed: KObject[] = [];
  for (const obj of objects) {
    const gone = await client.delete(chartTypes[obj.kind!], obj.metadata.namespace, obj.metadata.name!, { propagationPolicy: 'Background' }).then(() => true, (e: unknown) => {
      if (isNotFound(e)) return false;
      throw e;
    });
    if (gone) {
      log(`${obj.kind!.toLowerCase()}/${obj.metadata.name} deleted`);
      removed.push(obj);
    }
  }
  return removed;
}
