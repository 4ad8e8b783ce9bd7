/**
 * The identity of the simulated kubelets' shared caches (docs/design/authorization.md §17). kube's
 * Node mode lets a kubelet list only its own pods and read only the Secrets and ConfigMaps they name,
 * one by one; the simulated kubelets instead share one pod informer and one ConfigMap and Secret
 * informer per namespace across all nodes, and remove the Nodes of an earlier run. That reader is a
 * user of its own, `kruise:simulated-kubelets` (not in `system:nodes`), granted just that by a
 * ClusterRole of the same name. Every write a node makes goes through its own `system:node:<node>`.
 */
import type { ResourceType } from '../api/resource-type.js';
import type { UserInfo } from '../api/request.js';
import type { Client } from '../client/client.js';
import { isAlreadyExists } from '../client/index.js';

export const simulatedKubeletsName = 'kruise:simulated-kubelets';
export const simulatedKubeletsUser: UserInfo = { username: simulatedKubeletsName, groups: ['system:authenticated'] };

const rbac = (resource: string, kind: string): ResourceType => ({ group: 'rbac.authorization.k8s.io', version: 'v1', resource, kind, namespaced: false });
const ClusterRoles = rbac('clusterroles', 'ClusterRole');
const ClusterRoleBindings = rbac('clusterrolebindings', 'ClusterRoleBinding');

const rules = [
  { apiGroups: [''], resources: ['pods', 'configmaps', 'secrets'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'delete'] },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['delete'] },
];

/** Creates (or brings back up to date) the ClusterRole and its binding, as the admin `client`. */
export async function grantSimulatedKubelets(client: Client): Promise<void> {
  const metadata = { name: simulatedKubeletsName, labels: { 'app.kubernetes.io/managed-by': 'kruise-up' } };
  const put = async (type: ResourceType, object: Record<string, unknown>) => {
    try {
      await client.create(type, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: type.kind, metadata, ...object });
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
      await client.patch(type, undefined, simulatedKubeletsName, 'merge', object);
    }
  };
  await put(ClusterRoles, { rules });
  await put(ClusterRoleBindings, {
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: simulatedKubeletsName },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: simulatedKubeletsName }],
  });
}
