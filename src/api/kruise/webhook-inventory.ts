/**
 * Every admission webhook the Kruise manager serves (docs/design/webhooks.md §3): 12 mutating and 25
 * validating entries with their paths, legacy path aliases (docs/design/webhooks.md §3), rules, policies and the
 * handler key that serves them. Pure data: `kruise install` renders the webhook configurations from
 * it and the manager registers handlers by it.
 */
import { kruiseKinds } from './index.js';

export type WebhookType = 'mutating' | 'validating';
export type WebhookOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface LabelSelectorRequirement { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }
export interface WebhookLabelSelector { matchLabels?: Record<string, string>; matchExpressions?: LabelSelectorRequirement[] }

export interface WebhookRule {
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
  operations: WebhookOperation[];
}

export interface WebhookInventoryEntry {
  type: WebhookType;
  name: string;
  path: string;
  /** The `…-kruise-io-v1alpha1-<kind>` path older charts reference; served by the same handler. */
  legacyPath?: string;
  rule: WebhookRule;
  failurePolicy: 'Fail' | 'Ignore';
  namespaceSelector?: WebhookLabelSelector;
  objectSelector?: WebhookLabelSelector;
  /** Key of the handler module serving this entry (a Kruise kind, `Pod`, `Namespace`, ...). */
  handler: string;
  /** Registered only while this feature gate is on. */
  gate?: string;
  /** Registered only when this CRD exists (upstream discovers it before registering the pod webhooks). */
  requiresCrd?: string;
}

export const webhookServiceName = 'kruise-webhook-service';
export const webhookSecretName = 'kruise-webhook-certs';
export const mutatingConfigurationName = 'kruise-mutating-webhook-configuration';
export const validatingConfigurationName = 'kruise-validating-webhook-configuration';
/** The manager keeps the chart's webhook list here (JSON) and rebuilds `webhooks` from it. */
export const templateAnnotation = 'template';

export const deleteProtectionLabel = 'policy.kruise.io/delete-protection';
export const webhookTimeoutSeconds = 30;
export const webhookAdmissionReviewVersions = ['v1', 'v1beta1'];

/** Pod webhooks never see Kruise's own pods nor kube-system's. */
const podNamespaceSelector: WebhookLabelSelector = {
  matchExpressions: [
    { key: 'control-plane', operator: 'NotIn', values: ['openkruise'] },
    { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] },
  ],
};
const protectionNamespaceSelector: WebhookLabelSelector = {
  matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }],
};
const protectionObjectSelector: WebhookLabelSelector = {
  matchExpressions: [{ key: deleteProtectionLabel, operator: 'Exists' }],
};

const ops = { cu: ['CREATE', 'UPDATE'], cud: ['CREATE', 'UPDATE', 'DELETE'], d: ['DELETE'] } satisfies Record<string, WebhookOperation[]>;

/** An entry for a Kruise kind: rule over every served version, legacy `-v1alpha1-` alias. */
function kruise(type: WebhookType, name: string, plural: string, operations: WebhookOperation[], path?: string): WebhookInventoryEntry {
  const def = kruiseKinds.find((k) => k.plural === plural);
  if (!def) throw new Error(`webhook inventory: unknown Kruise resource ${plural}`);
  const prefix = `/${type === 'mutating' ? 'mutate' : 'validate'}-${def.group.replace(/\./g, '-')}`;
  const current = path ?? `${prefix}-${def.kind.toLowerCase()}`;
  const legacy = `${prefix}-v1alpha1-${def.kind.toLowerCase()}`;
  return {
    type, name, path: current, ...(legacy !== current ? { legacyPath: legacy } : {}),
    rule: { apiGroups: [def.group], apiVersions: def.versions.filter((v) => v.served).map((v) => v.name), resources: [plural], operations },
    failurePolicy: 'Fail', handler: def.kind,
  };
}

function pod(type: WebhookType, name: string, path: string, resource: string, operations: WebhookOperation[], requiresCrd: string): WebhookInventoryEntry {
  return {
    type, name, path, rule: { apiGroups: [''], apiVersions: ['v1'], resources: [resource], operations },
    failurePolicy: 'Fail', namespaceSelector: podNamespaceSelector, handler: 'Pod', gate: 'PodWebhook', requiresCrd,
  };
}

/** A deletion-protection entry (docs/design/webhooks.md §12): Ignore on failure, kube-system and unlabelled objects never sent. */
function protection(name: string, path: string, group: string, versions: string[], resource: string, handler: string, gate?: string): WebhookInventoryEntry {
  return {
    type: 'validating', name, path, rule: { apiGroups: [group], apiVersions: versions, resources: [resource], operations: ops.d },
    failurePolicy: 'Ignore', namespaceSelector: protectionNamespaceSelector, objectSelector: protectionObjectSelector, handler,
    ...(gate ? { gate } : {}),
  };
}

export const mutatingWebhookInventory: WebhookInventoryEntry[] = [
  pod('mutating', 'mpod.kb.io', '/mutate-pod', 'pods', ['CREATE'], 'sidecarsets.apps.kruise.io'),
  kruise('mutating', 'madvancedcronjob.kb.io', 'advancedcronjobs', ops.cu),
  kruise('mutating', 'mbroadcastjob.kb.io', 'broadcastjobs', ops.cu),
  kruise('mutating', 'mcloneset.kb.io', 'clonesets', ops.cu),
  kruise('mutating', 'mcontainerrecreaterequest.kb.io', 'containerrecreaterequests', ops.cu),
  kruise('mutating', 'mdaemonset.kb.io', 'daemonsets', ops.cu),
  kruise('mutating', 'mimagepulljob-v1beta1.kb.io', 'imagepulljobs', ops.cu),
  kruise('mutating', 'mimagelistpulljob-v1beta1.kb.io', 'imagelistpulljobs', ops.cu),
  kruise('mutating', 'mnodeimage.kb.io', 'nodeimages', ops.cu),
  kruise('mutating', 'msidecarset.kb.io', 'sidecarsets', ops.cu),
  kruise('mutating', 'mstatefulset.kb.io', 'statefulsets', ops.cu),
  kruise('mutating', 'muniteddeployment.kb.io', 'uniteddeployments', ops.cu),
];

export const validatingWebhookInventory: WebhookInventoryEntry[] = [
  pod('validating', 'vpod.kb.io', '/validate-pod', 'pods', ['UPDATE', 'DELETE'], 'podunavailablebudgets.policy.kruise.io'),
  pod('validating', 'vpodeviction.kb.io', '/validate-pod', 'pods/eviction', ['CREATE'], 'podunavailablebudgets.policy.kruise.io'),
  kruise('validating', 'vresourcedistribution.kb.io', 'resourcedistributions', ops.cu),
  kruise('validating', 'vworkloadspread.kb.io', 'workloadspreads', ops.cu),
  kruise('validating', 'vuniteddeployment.kb.io', 'uniteddeployments', ops.cud),
  kruise('validating', 'vpodunavailablebudget.kb.io', 'podunavailablebudgets', ops.cu),
  kruise('validating', 'vpersistentpodstate.kb.io', 'persistentpodstates', ops.cu),
  kruise('validating', 'vcloneset.kb.io', 'clonesets', ops.cud),
  kruise('validating', 'vstatefulset.kb.io', 'statefulsets', ops.cud),
  protection('vbuiltindeployment.kb.io', '/validate-apps-deployment', 'apps', ['v1'], 'deployments', 'Deployment'),
  protection('vbuiltinreplicaset.kb.io', '/validate-apps-replicaset', 'apps', ['v1'], 'replicasets', 'ReplicaSet'),
  protection('vbuiltinstatefulset.kb.io', '/validate-apps-statefulset', 'apps', ['v1'], 'statefulsets', 'BuiltinStatefulSet'),
  protection('vnamespace.kb.io', '/validate-namespace', '', ['v1'], 'namespaces', 'Namespace'),
  protection('vcustomresourcedefinition.kb.io', '/validate-customresourcedefinition', 'apiextensions.k8s.io', ['v1', 'v1beta1'], 'customresourcedefinitions', 'CustomResourceDefinition'),
  protection('vservice.kb.io', '/validate-service', '', ['v1'], 'services', 'Service', 'ResourcesDeletionProtection'),
  protection('vingress.kb.io', '/validate-ingress', 'networking.k8s.io', ['v1', 'v1beta1'], 'ingresses', 'Ingress', 'ResourcesDeletionProtection'),
  kruise('validating', 'vadvancedcronjob.kb.io', 'advancedcronjobs', ops.cu),
  kruise('validating', 'vbroadcastjob.kb.io', 'broadcastjobs', ops.cu),
  kruise('validating', 'vdaemonset.kb.io', 'daemonsets', ops.cu),
  kruise('validating', 'vimagepulljob-v1beta1.kb.io', 'imagepulljobs', ops.cu),
  kruise('validating', 'vimagelistpulljob-v1beta1.kb.io', 'imagelistpulljobs', ops.cu),
  kruise('validating', 'vnodeimage.kb.io', 'nodeimages', ops.cu),
  kruise('validating', 'vsidecarset.kb.io', 'sidecarsets', ops.cu),
  kruise('validating', 'vpodprobemarker.kb.io', 'podprobemarkers', ops.cu),
  kruise('validating', 'vephemeraljobs.kb.io', 'ephemeraljobs', ops.cu, '/validate-apps-kruise-io-v1alpha1-ephemeraljob'),
];

export const webhookInventory: WebhookInventoryEntry[] = [...mutatingWebhookInventory, ...validatingWebhookInventory];

/** Every path an entry is served under: its current path and its legacy alias. */
export function webhookPaths(entry: WebhookInventoryEntry): string[] {
  return entry.legacyPath ? [entry.path, entry.legacyPath] : [entry.path];
}
