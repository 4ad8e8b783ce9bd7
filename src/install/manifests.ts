/**
 * What `kruise install` applies to a cluster: the CRDs, the `kruise-system` namespace, the
 * manager's ServiceAccount with RBAC (manager-rbac.ts, explicit verbs, no wildcards), the daemon's
 * ServiceAccount with its narrow RBAC (daemon-rbac.ts), the webhook Service and certificate Secret,
 * and the two admission webhook configurations.
 */
import type { KObject } from '../api/meta.js';
import { kruiseCrds, kruiseKinds } from '../api/kruise/index.js';
import { mutatingConfigurationName, validatingConfigurationName } from '../api/kruise/webhook-inventory.js';
import { daemonRbac } from './daemon-rbac.js';
import { managerRbac } from './manager-rbac.js';
import { webhookConfigurations, webhookServiceAndSecret } from './webhook-configurations.js';

export const kruiseNamespace = 'kruise-system';

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

export function installManifests(): KObject[] {
  return [
    ...kruiseCrds(), kruiseNamespaceObject, ...managerRbac(kruiseNamespace), ...certsRbac(), ...daemonRbac(kruiseNamespace),
    ...webhookServiceAndSecret(kruiseNamespace), ...webhookConfigurations(kruiseNamespace),
  ];
}

