/**
 * The manager's ClusterRole: what its controllers and webhooks use, with explicit verbs and no
 * wildcard, as upstream's generated role (docs/design/manager.md §8 has the table of who needs what).
 * Reading nodes and namespaces is all it does with them; it never writes node status.
 */
import type { KObject } from '../api/meta.js';

/** The manager's ServiceAccount in the install namespace (also who the in-process manager of `kruise up` acts as). */
export const managerServiceAccount = 'kruise-manager';
const all = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const read = ['get', 'list', 'watch'];
const status = ['get', 'patch', 'update'];

/** Every Kruise kind and its status; the manager owns them. */
const kruiseGroups = ['apps.kruise.io', 'policy.kruise.io'];

export const managerRules = [
  { apiGroups: kruiseGroups, resources: ['*'], verbs: all },
  { apiGroups: [''], resources: ['pods', 'persistentvolumeclaims', 'configmaps', 'events'], verbs: all },
  { apiGroups: [''], resources: ['pods/status', 'pods/ephemeralcontainers', 'pods/resize'], verbs: status },
  { apiGroups: [''], resources: ['secrets'], verbs: ['create', 'delete', 'get', 'list', 'update', 'watch'] },
  { apiGroups: [''], resources: ['nodes', 'namespaces', 'services', 'endpoints'], verbs: read },
  { apiGroups: ['apps'], resources: ['controllerrevisions', 'statefulsets', 'deployments'], verbs: all },
  { apiGroups: ['apps'], resources: ['statefulsets/status', 'deployments/status'], verbs: status },
  { apiGroups: ['apps'], resources: ['replicasets', 'daemonsets'], verbs: read },
  { apiGroups: ['batch'], resources: ['jobs'], verbs: all },
  { apiGroups: ['batch'], resources: ['cronjobs'], verbs: read },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create', 'get', 'list', 'update', 'watch'] },
  { apiGroups: ['admissionregistration.k8s.io'], resources: ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], verbs: ['create', 'get', 'list', 'patch', 'update', 'watch'] },
  { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['get', 'list', 'patch', 'update', 'watch'] },
  // Deletion protection (Cascading) counts what a namespace or CRD still holds, of any kind.
  { apiGroups: ['*'], resources: ['*'], verbs: ['list'] },
];

export function managerRbac(namespace: string): KObject[] {
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'kruise-manager', namespace } },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'kruise-manager-role' }, rules: managerRules },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'kruise-manager-rolebinding' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'kruise-manager-role' },
      subjects: [{ kind: 'ServiceAccount', name: 'kruise-manager', namespace }],
    },
  ];
}
