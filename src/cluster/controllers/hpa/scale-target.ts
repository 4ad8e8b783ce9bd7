/**
 * The scale subresource of an HPA's target (docs/design/autoscaling.md §2): the kind is mapped to
 * its resource by the built-in table or, for custom kinds (CloneSet, Advanced StatefulSet,
 * UnitedDeployment...), by the CRD that serves it; then `/scale` is read and written through the
 * API server, so any kind with a scale subresource works.
 */
import { CustomResourceDefinitions, type ResourceType } from '../../../api/resource-type.js';
import type { KObject } from '../../../api/meta.js';
import type { Client } from '../../../client/client.js';
import { StatusError } from '../../../machinery/errors.js';
import { retryOnConflict } from '../../../client/retry.js';

const builtinKinds: Record<string, string> = {
  'apps/Deployment': 'deployments', 'apps/ReplicaSet': 'replicasets', 'apps/StatefulSet': 'statefulsets', '/ReplicationController': 'replicationcontrollers',
};

export interface Scale { replicas: number; statusReplicas: number; selector: string }

function splitApiVersion(apiVersion: string): [string, string] {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

export async function resolveTarget(client: Client, apiVersion: string, kind: string): Promise<ResourceType> {
  const [group, version] = splitApiVersion(apiVersion);
  const builtin = builtinKinds[`${group}/${kind}`];
  if (builtin) return { group, version, resource: builtin, kind, namespaced: true };
  const crds = await client.list<KObject & { spec: { group: string; names: { kind: string; plural: string } } }>(CustomResourceDefinitions);
  const crd = crds.items.find((c) => c.spec.group === group && c.spec.names.kind === kind);
  if (!crd) throw new StatusError(404, 'NotFound', `no matches for kind "${kind}" in group "${group}"`);
  return { group, version, resource: crd.spec.names.plural, kind, namespaced: true };
}

export async function getScale(client: Client, type: ResourceType, namespace: string, name: string): Promise<Scale> {
  const scale = await client.get<KObject & { spec?: { replicas?: number }; status?: { replicas?: number; selector?: string } }>(type, namespace, name, { subresource: 'scale' });
  return { replicas: scale.spec?.replicas ?? 0, statusReplicas: scale.status?.replicas ?? 0, selector: scale.status?.selector ?? '' };
}

/** GET and PUT of `/scale`, as kube's HPA controller does (its role grants get and update on scale subresources, not patch). */
export async function setScale(client: Client, type: ResourceType, namespace: string, name: string, replicas: number): Promise<void> {
  await retryOnConflict(async () => {
    const scale = await client.get<KObject & { spec?: { replicas?: number } }>(type, namespace, name, { subresource: 'scale' });
    await client.update(type, { ...scale, spec: { ...scale.spec, replicas } }, { subresource: 'scale' });
  });
}
