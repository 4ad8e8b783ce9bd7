/**
 * What Kruise puts into a cluster, one description for the Helm chart and `kruise install`
 * (docs/design/install.md §1): the CRDs, the `kruise-system` namespace, the manager's
 * ServiceAccount with RBAC (manager-rbac.ts, explicit verbs), the daemon's ServiceAccount with its
 * narrow RBAC (daemon-rbac.ts), the webhook Service and certificate Secret, the two admission webhook
 * configurations, the manager Deployment and daemon DaemonSet (chart/workloads.ts) and the
 * pre-delete hook (chart/uninstall-hook.ts).
 */
import type { KObject } from '../api/meta.js';
import { kruiseCrds, kruiseKinds } from '../api/kruise/index.js';
import { mutatingConfigurationName, validatingConfigurationName } from '../api/kruise/webhook-inventory.js';
import { daemonRbac } from './daemon-rbac.js';
import { managerRbac } from './manager-rbac.js';
import { webhookConfigurations, webhookSecret, webhookService } from './webhook-configurations.js';
import { concreteReader, unlessGate, valueIsTrue, type ChartFile, type ValueReader } from './chart/render.js';
import { defaultChartValues, type ChartValues } from './chart/values.js';
import { daemonDaemonSet, managerDeployment } from './chart/workloads.js';
import { uninstallHook } from './chart/uninstall-hook.js';

export const kruiseNamespace = 'kruise-system';

const binding = (kind: 'ClusterRoleBinding' | 'RoleBinding', name: string, role: string, namespace: string, bindingNamespace?: string): KObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: { name, ...(bindingNamespace ? { namespace: bindingNamespace } : {}) },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: kind === 'RoleBinding' ? 'Role' : 'ClusterRole', name: role },
  subjects: [{ kind: 'ServiceAccount', name: 'kruise-manager', namespace }],
});

/** The certificate controller's rights (chart kruise-certs-role and kruise-webhook-role), named objects only. */
function certsRbac(namespace: string): KObject[] {
  const converted = kruiseKinds.filter((k) => k.versions.length > 1).map((k) => `${k.plural}.${k.group}`);
  const certsRules = [
    { apiGroups: ['admissionregistration.k8s.io'], resources: ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], resourceNames: [mutatingConfigurationName, validatingConfigurationName], verbs: ['get', 'patch', 'update'] },
    { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], resourceNames: converted, verbs: ['get', 'patch', 'update', 'watch'] },
  ];
  const secretRules = [{ apiGroups: [''], resources: ['secrets'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] }];
  return [
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'kruise-certs-role' }, rules: certsRules },
    binding('ClusterRoleBinding', 'kruise-certs-rolebinding', 'kruise-certs-role', namespace),
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'kruise-webhook-role', namespace }, rules: secretRules },
    binding('RoleBinding', 'kruise-webhook-rolebinding', 'kruise-webhook-role', namespace, namespace),
  ];
}

/** CRDs whose conversion webhook points at the Service in the installation namespace. */
function crdsIn(namespace: string): KObject[] {
  return kruiseCrds().map((crd) => {
    const service = (crd.spec as { conversion?: { webhook: { clientConfig: { service: { namespace: string } } } } }).conversion?.webhook.clientConfig.service;
    if (service) service.namespace = namespace;
    return crd;
  });
}

/** The chart's files in apply order; `r` reads the values (concrete for `kruise install`, placeholders for the chart). */
export function chartFiles(r: ValueReader): ChartFile[] {
  const ns = r.text('installation.namespace');
  const webhookValues = {
    podFailurePolicy: r.value('webhookConfiguration.failurePolicy.pods'), timeoutSeconds: r.value<number>('webhookConfiguration.timeoutSeconds'),
    annotations: r.mapEntries('externalCerts.annotations'),
  };
  return [
    ...crdsIn(ns).map((crd) => ({ name: `crds/${crd.metadata.name}.yaml`, when: valueIsTrue('crds.managed'), objects: [crd] })),
    // `control-plane: openkruise` keeps Kruise's own pods out of the pod webhooks.
    { name: 'namespace.yaml', when: valueIsTrue('installation.createNamespace'), objects: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { 'control-plane': 'openkruise' } } }] },
    { name: 'manager-rbac.yaml', objects: [...managerRbac(ns), ...certsRbac(ns)] },
    { name: 'daemon-rbac.yaml', objects: daemonRbac(ns) },
    { name: 'webhook-service.yaml', objects: [webhookService(ns, r.value<number>('manager.webhook.port'))] },
    { name: 'webhook-secret.yaml', when: unlessGate('EnableExternalCerts=true'), objects: [webhookSecret(ns)] },
    { name: 'webhook-configurations.yaml', objects: webhookConfigurations(ns, webhookValues) },
    { name: 'manager.yaml', objects: [managerDeployment(r)] },
    { name: 'daemon.yaml', when: unlessGate('KruiseDaemon=false'), objects: [daemonDaemonSet(r)] },
    { name: 'uninstall-hook.yaml', objects: uninstallHook(r) },
  ];
}

/** Every object the chart renders with these values, hooks included (`kruise install --dry-run -o yaml`). */
export function chartObjects(values: ChartValues = defaultChartValues): KObject[] {
  return chartFiles(concreteReader(values)).filter((f) => !f.when || f.when.holds(values)).flatMap((f) => f.objects as KObject[]);
}

export const isHelmHook = (obj: KObject) => Boolean(obj.metadata.annotations?.['helm.sh/hook']);
export const isKruiseWorkload = (obj: KObject) => obj.kind === 'Deployment' || obj.kind === 'DaemonSet';

/** The cluster configuration alone, for a manager and daemons run outside the cluster (`kruise up`, `kruise install --no-workloads`). */
export function installManifests(values: ChartValues = defaultChartValues): KObject[] {
  return chartObjects(values).filter((o) => !isHelmHook(o) && !isKruiseWorkload(o));
}
