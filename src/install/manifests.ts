/**
 * What `kruise install` applies to a cluster: the CRDs, the `kruise-system` namespace, and the
 * manager's ServiceAccount with RBAC (the rules OpenKruise's manager needs, broadly).
 */
import type { KObject } from '../api/meta.js';
import { kruiseCrds } from '../api/kruise/index.js';

export const kruiseNamespace = 'kruise-system';

function rbac(): KObject[] {
  const rules = [
    { apiGroups: ['apps.kruise.io', 'policy.kruise.io'], resources: ['*'], verbs: ['*'] },
    { apiGroups: [''], resources: ['pods', 'pods/status', 'pods/eviction', 'events', 'persistentvolumeclaims', 'configmaps', 'secrets', 'services', 'endpoints', 'namespaces', 'nodes', 'nodes/status'], verbs: ['*'] },
    { apiGroups: ['apps'], resources: ['controllerrevisions', 'deployments', 'replicasets', 'statefulsets', 'daemonsets'], verbs: ['*'] },
    { apiGroups: ['batch'], resources: ['jobs', 'cronjobs'], verbs: ['*'] },
    { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['*'] },
    { apiGroups: ['admissionregistration.k8s.io'], resources: ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], verbs: ['get', 'list', 'watch', 'update', 'patch', 'create'] },
    { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['get', 'list', 'watch', 'update', 'patch'] },
  ];
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'kruise-manager', namespace: kruiseNamespace } },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'kruise-manager-role' }, rules },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'kruise-manager-rolebinding' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'kruise-manager-role' },
      subjects: [{ kind: 'ServiceAccount', name: 'kruise-manager', namespace: kruiseNamespace }],
    },
  ];
}

export function installManifests(): KObject[] {
  return [...kruiseCrds(), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: kruiseNamespace } }, ...rbac()];
}
