/**
 * Objects a v1.32 cluster creates by itself for the resources added for parity
 * (docs/design/apiserver.md §11), created at start when missing and never overwritten:
 * the APF FlowSchemas and PriorityLevelConfigurations (recorded from a real kube-apiserver in
 * bootstrap-flowcontrol.gen.json), one Available APIService per served built-in group version
 * (as kube-aggregator's autoregistration does on start) and the ComponentStatus objects.
 */
import type { KObject } from '../../api/meta.js';
import { componentStatuses } from '../registry/builtin/index.js';
import { systemContext } from '../registry/context.js';
import type { RegistryReader } from '../registry/reader.js';
import type { Registry } from '../registry/registry.js';
import flowcontrol from './bootstrap-flowcontrol.gen.json' with { type: 'json' };

/** kube-aggregator's groupPriorityMinimum per built-in group, and versionPriority where it is not 15. */
const groupPriority: Record<string, number> = {
  '': 18000, apps: 17800, 'events.k8s.io': 17750, 'authentication.k8s.io': 17700, 'authorization.k8s.io': 17600, autoscaling: 17500,
  batch: 17400, 'certificates.k8s.io': 17300, 'networking.k8s.io': 17200, policy: 17100, 'rbac.authorization.k8s.io': 17000,
  'storage.k8s.io': 16800, 'admissionregistration.k8s.io': 16700, 'apiextensions.k8s.io': 16700, 'scheduling.k8s.io': 16600,
  'coordination.k8s.io': 16500, 'node.k8s.io': 16300, 'discovery.k8s.io': 16200, 'flowcontrol.apiserver.k8s.io': 16100,
};
const versionPriority: Record<string, number> = { 'v1.': 1, 'v1.flowcontrol.apiserver.k8s.io': 21, 'v2.autoscaling': 30 };

function apiServices(registry: Registry): KObject[] {
  const versions = new Set(registry.table.all().map((r) => `${r.definition.version}.${r.definition.group}`));
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  return [...versions].flatMap((name) => {
    const [version, group] = [name.slice(0, name.indexOf('.')), name.slice(name.indexOf('.') + 1)];
    if (groupPriority[group] === undefined) return [];
    return [{
      apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService',
      metadata: { name, labels: { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' } },
      spec: { ...(group ? { group } : {}), version, groupPriorityMinimum: groupPriority[group], versionPriority: versionPriority[name] ?? 15 },
      status: { conditions: [{ type: 'Available', status: 'True', reason: 'Local', message: 'Local APIServices are always available', lastTransitionTime: now }] },
    }];
  });
}

export async function createParityObjects(registry: Registry, reader: RegistryReader): Promise<void> {
  const sets: [string, string, KObject[]][] = [
    ['flowcontrol.apiserver.k8s.io', 'prioritylevelconfigurations', flowcontrol.prioritylevelconfigurations.map((o) => ({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', ...o }) as KObject)],
    ['flowcontrol.apiserver.k8s.io', 'flowschemas', flowcontrol.flowschemas.map((o) => ({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', ...o }) as KObject)],
    ['apiregistration.k8s.io', 'apiservices', apiServices(registry)],
    ['', 'componentstatuses', componentStatuses()],
  ];
  for (const [group, plural, objects] of sets) {
    const r = registry.table.lookup(group, 'v1', plural);
    if (!r) continue;
    await Promise.all(objects.filter((o) => !reader.getStored(r, undefined, o.metadata.name!)).map(async (o) => {
      const created = await registry.create(r, undefined, o, systemContext());
      // status is dropped on create for kinds with a status subresource; APIServices are Available from the start
      if (o.status && r.definition.subresources?.status) await registry.callSubresource(r, 'status', undefined, o.metadata.name!, systemContext(), { verb: 'update', body: { ...created, status: o.status } });
    }));
  }
}
