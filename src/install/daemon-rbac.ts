/**
 * The kruise-daemon's identity and rights, as OpenKruise's chart grants them (docs/design/container-meta.md §8):
 * ServiceAccount `kruise-daemon`; ClusterRole `kruise-daemon-role` with exactly what the node agent
 * touches (pods and their status, NodeImages, NodePodProbes and ContainerRecreateRequests with their
 * status, events; nodes read only); and secrets readable only in namespace `kruise-daemon-config`
 * (image pull credentials), through a Role there: no cluster-wide secret access.
 */
import type { KObject } from '../api/meta.js';

export const daemonServiceAccount = 'kruise-daemon';
export const daemonConfigNamespace = 'kruise-daemon-config';

const read = ['get', 'list', 'watch'];
const statusWrite = ['get', 'patch', 'update'];

export const daemonClusterRules = [
  { apiGroups: [''], resources: ['nodes'], verbs: read },
  { apiGroups: [''], resources: ['pods'], verbs: [...read, 'patch', 'update'] },
  { apiGroups: [''], resources: ['pods/status'], verbs: statusWrite },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'update', 'patch'] },
  { apiGroups: ['apps.kruise.io'], resources: ['nodeimages'], verbs: [...read, 'patch', 'update'] },
  { apiGroups: ['apps.kruise.io'], resources: ['nodeimages/status'], verbs: statusWrite },
  { apiGroups: ['apps.kruise.io'], resources: ['nodepodprobes'], verbs: read },
  { apiGroups: ['apps.kruise.io'], resources: ['nodepodprobes/status'], verbs: statusWrite },
  { apiGroups: ['apps.kruise.io'], resources: ['containerrecreaterequests'], verbs: read },
  { apiGroups: ['apps.kruise.io'], resources: ['containerrecreaterequests/status'], verbs: statusWrite },
];

export const daemonSecretRules = [{ apiGroups: [''], resources: ['secrets'], verbs: read }];

const rbacApi = 'rbac.authorization.k8s.io/v1';

function bindingTo(kind: 'ClusterRoleBinding' | 'RoleBinding', name: string, role: string, kruiseNamespace: string, namespace?: string): KObject {
  return {
    apiVersion: rbacApi, kind, metadata: { name, ...(namespace ? { namespace } : {}) },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: kind === 'RoleBinding' ? 'Role' : 'ClusterRole', name: role },
    subjects: [{ kind: 'ServiceAccount', name: daemonServiceAccount, namespace: kruiseNamespace }],
  };
}

/** The daemon's objects; its ServiceAccount lives in `kruiseNamespace`. */
export function daemonRbac(kruiseNamespace: string): KObject[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: daemonConfigNamespace } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: daemonServiceAccount, namespace: kruiseNamespace } },
    { apiVersion: rbacApi, kind: 'ClusterRole', metadata: { name: 'kruise-daemon-role' }, rules: daemonClusterRules },
    bindingTo('ClusterRoleBinding', 'kruise-daemon-rolebinding', 'kruise-daemon-role', kruiseNamespace),
    { apiVersion: rbacApi, kind: 'Role', metadata: { name: 'kruise-daemon-secret-role', namespace: daemonConfigNamespace }, rules: daemonSecretRules },
    bindingTo('RoleBinding', 'kruise-daemon-secret-rolebinding', 'kruise-daemon-secret-role', kruiseNamespace, daemonConfigNamespace),
  ];
}
