/** Legacy discovery documents (/api, /apis, /api/v1, /apis/<g>/<v>), built from the resource table. */
import type { ResourceDefinition } from '../../api/resource.js';
import type { ResourceTable } from '../registry/resource-table.js';
import { compareStrings } from '../../machinery/order.js';

export function apiVersions(serverAddress: string): Record<string, unknown> {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

export function apiGroupList(table: ResourceTable): Record<string, unknown> {
  const groups = [...table.groups()].filter(([g]) => g !== '').sort(([a], [b]) => groupOrder(a) - groupOrder(b) || compareStrings(a, b)).map(([name, versions]) => {
    const vs = [...versions.keys()].map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
    return { name, versions: vs, preferredVersion: vs[0] };
  });
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

/** Built-in groups first, in kube-apiserver's order, so `kubectl api-resources` reads familiar. */
const builtinOrder = ['apps', 'events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'autoscaling', 'batch', 'certificates.k8s.io',
  'networking.k8s.io', 'policy', 'rbac.authorization.k8s.io', 'storage.k8s.io', 'admissionregistration.k8s.io', 'apiextensions.k8s.io',
  'scheduling.k8s.io', 'coordination.k8s.io', 'node.k8s.io', 'discovery.k8s.io'];

function groupOrder(group: string): number {
  const i = builtinOrder.indexOf(group);
  return i === -1 ? builtinOrder.length : i;
}

export function apiResourceList(table: ResourceTable, group: string, version: string): Record<string, unknown> | undefined {
  const resources = table.groups().get(group)?.get(version);
  if (!resources) return undefined;
  const entries: Record<string, unknown>[] = [];
  for (const { definition: d } of resources) {
    entries.push(resourceEntry(d));
    for (const sub of subresourceEntries(d)) entries.push(sub);
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources: entries };
}

function resourceEntry(d: ResourceDefinition): Record<string, unknown> {
  const e: Record<string, unknown> = { name: d.plural, singularName: d.singular, namespaced: d.namespaced, kind: d.kind, verbs: d.verbs };
  if (d.shortNames?.length) e.shortNames = d.shortNames;
  if (d.categories?.length) e.categories = d.categories;
  return e;
}

function subresourceEntries(d: ResourceDefinition): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const base = { singularName: '', namespaced: d.namespaced };
  if (d.subresources?.status) out.push({ ...base, name: `${d.plural}/status`, kind: d.kind, verbs: ['get', 'patch', 'update'] });
  if (d.subresources?.scale) out.push({ ...base, name: `${d.plural}/scale`, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
  for (const extra of d.subresources?.extra ?? []) out.push({ ...base, name: `${d.plural}/${extra}`, ...extraShape(extra) });
  return out;
}

function extraShape(sub: string): Record<string, unknown> {
  switch (sub) {
    case 'binding': return { kind: 'Binding', verbs: ['create'] };
    case 'eviction': return { group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] };
    case 'log': return { kind: 'Pod', verbs: ['get'] };
    case 'exec': return { kind: 'PodExecOptions', verbs: ['create', 'get'] };
    case 'attach': return { kind: 'PodAttachOptions', verbs: ['create', 'get'] };
    case 'portforward': return { kind: 'PodPortForwardOptions', verbs: ['create', 'get'] };
    case 'ephemeralcontainers': return { kind: 'Pod', verbs: ['get', 'patch', 'update'] };
    case 'finalize': return { kind: 'Namespace', verbs: ['update'] };
    case 'approval': return { kind: 'CertificateSigningRequest', verbs: ['get', 'patch', 'update'] };
    case 'token': return { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] };
    default: return { kind: '', verbs: ['get'] };
  }
}
