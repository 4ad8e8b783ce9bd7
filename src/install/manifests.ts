/**
 * What `kruise install` applies to a cluster: the CRDs, the `kruise-system` namespace, the
 * manager's ServiceAccount with RBAC (the rules OpenKruise's manager needs, broadly), the webhook
 * Service and certificate Secret, and the two admission webhook configurations.
 */
import type { KObject } from '../api/meta.js';
import { kruiseCrds, kruiseKinds } from '../api/kruise/index.js';
import { mutatingConfigurationName, validatingConfigurationName } from '../api/kruise/webhook-inventory.js';
import { webhookConfigurations, webhookServiceAndSecret } from './webhook-configurations.js';

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

const binding = (kind: 'ClusterRoleBinding' | 'RoleBinding', name: string, role: string, namespace?: string): KObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: { name, ...(namespace ? { namespace } : {}) },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: kind === 'RoleBinding' ? 'Role' : 'ClusterRole', name: role },
  subjects: [{ kind: 'ServiceAccount', name: 'kruise-manager', namespace: kruiseNamespace }],
});

/** The certificate controller's rights (chart kruise-certs-role and kruise-webhook-role), named objects only. */
function certsRbac(): KObject[] {
  const converted = kruiseKinds.filter((k) => k.versions.length > 1).map((k) => `${k.plural}.${k.group}`);
  const certsRules = [
    { apiGroups: ['admissionregistration.k8s.io'], resources: ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], resourceNames: [mutatingConfigurationName, validatingConfigurationName], verbs: ['get', 'patch', 'update'] },
    { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], resourceNames: converted, verbs: ['get', 'patch', 'update', 'watch'] },
  ];
  const secretRules = [{ apiGroups: [''], resources: ['secrets'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] }];
  return [
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'kruise-certs-role' }, rules: certsRules },
    binding('ClusterRoleBinding', 'kruise-certs-rolebinding', 'kruise-certs-role'),
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'kruise-webhook-role', namespace: kruiseNamespace }, rules: secretRules },
    binding('RoleBinding', 'kruise-webhook-rolebinding', 'kruise-webhook-role', kruiseNamespace),
  ];
}

/** `control-plane: openkruise` keeps Kruise's own pods out of the pod webhooks. */
const kruiseNamespaceObject: KObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: kruiseNamespace, labels: { 'control-plane': 'openkruise' } } };

/**
 * Where ImagePullJobs' pull secrets are copied for the daemons, whose Role reads Secrets here and
 * nowhere else (docs/design/image-pulling.md §4.2).
 */
export const daemonConfigNamespace = 'kruise-daemon-config';

function daemonConfig(): KObject[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: daemonConfigNamespace } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'kruise-daemon-secret-role', namespace: daemonConfigNamespace },
      rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] }],
    },
  ];
}

export function installManifests(): KObject[] {
  return [
    ...kruiseCrds(), kruiseNamespaceObject, ...daemonConfig(), ...rbac(), ...certsRbac(),
    ...webhookServiceAndSecret(kruiseNamespace), ...webhookConfigurations(kruiseNamespace),
  ];
}

