/**
 * A resource a client talks to, named statically (no discovery round trip): group, version,
 * plural and kind. Controllers use the well-known constants below or define their own.
 */
export interface ResourceType {
  group: string;
  version: string;
  /** Plural resource name used in URLs. */
  resource: string;
  kind: string;
  namespaced: boolean;
}

export function apiVersionOfType(t: ResourceType): string {
  return t.group ? `${t.group}/${t.version}` : t.version;
}

const core = (resource: string, kind: string, namespaced = true): ResourceType => ({ group: '', version: 'v1', resource, kind, namespaced });
const apps = (resource: string, kind: string): ResourceType => ({ group: 'apps', version: 'v1', resource, kind, namespaced: true });

export const Pods = core('pods', 'Pod');
export const Nodes = core('nodes', 'Node', false);
export const Namespaces = core('namespaces', 'Namespace', false);
export const Services = core('services', 'Service');
export const Endpoints = core('endpoints', 'Endpoints');
export const ConfigMaps = core('configmaps', 'ConfigMap');
export const Secrets = core('secrets', 'Secret');
export const Events = core('events', 'Event');
export const PersistentVolumeClaims = core('persistentvolumeclaims', 'PersistentVolumeClaim');
export const PersistentVolumes = core('persistentvolumes', 'PersistentVolume', false);
export const ServiceAccounts = core('serviceaccounts', 'ServiceAccount');
export const Deployments = apps('deployments', 'Deployment');
export const ReplicaSets = apps('replicasets', 'ReplicaSet');
export const StatefulSets = apps('statefulsets', 'StatefulSet');
export const DaemonSets = apps('daemonsets', 'DaemonSet');
export const ControllerRevisions = apps('controllerrevisions', 'ControllerRevision');
export const Jobs: ResourceType = { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', namespaced: true };
export const CronJobs: ResourceType = { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob', namespaced: true };
export const PodDisruptionBudgets: ResourceType = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', namespaced: true };
export const Leases: ResourceType = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', kind: 'Lease', namespaced: true };
export const CustomResourceDefinitions: ResourceType = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false };
export const MutatingWebhookConfigurations: ResourceType = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', namespaced: false };
export const ValidatingWebhookConfigurations: ResourceType = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false };
const storage = (resource: string, kind: string, namespaced = false): ResourceType => ({ group: 'storage.k8s.io', version: 'v1', resource, kind, namespaced });
export const StorageClasses = storage('storageclasses', 'StorageClass');
export const CSIDrivers = storage('csidrivers', 'CSIDriver');
export const CSINodes = storage('csinodes', 'CSINode');
export const VolumeAttachments = storage('volumeattachments', 'VolumeAttachment');
export const HorizontalPodAutoscalers: ResourceType = { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true };
