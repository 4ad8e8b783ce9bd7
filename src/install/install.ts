/** Applies the install manifests with server-side apply, so re-running `kruise install` upgrades in place. */
import type { KObject } from '../api/meta.js';
import type { ResourceType } from '../api/resource-type.js';
import { CustomResourceDefinitions, Namespaces, ServiceAccounts } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { installManifests } from './manifests.js';

const rbacType = (resource: string, kind: string): ResourceType => ({ group: 'rbac.authorization.k8s.io', version: 'v1', resource, kind, namespaced: false });
const types: Record<string, ResourceType> = {
  CustomResourceDefinition: CustomResourceDefinitions,
  Namespace: Namespaces,
  ServiceAccount: ServiceAccounts,
  ClusterRole: rbacType('clusterroles', 'ClusterRole'),
  ClusterRoleBinding: rbacType('clusterrolebindings', 'ClusterRoleBinding'),
};

export async function installKruise(client: Client, log: (line: string) => void = () => undefined): Promise<KObject[]> {
  const applied: KObject[] = [];
  for (const obj of installManifests()) {
    const type = types[obj.kind!];
    const result = await client.patch(type, obj.metadata.namespace, obj.metadata.name!, 'apply', obj, { fieldManager: 'kruise-install', force: true });
    log(`${obj.kind!.toLowerCase()}/${obj.metadata.name} applied`);
    applied.push(result);
  }
  return applied;
}
