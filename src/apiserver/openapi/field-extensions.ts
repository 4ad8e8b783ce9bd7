/**
 * Facts about built-in fields that client models do not carry: strategic-merge and list-type
 * markers of the well-known lists (`+patchMergeKey`, `+listType` in the Go types) and which maps
 * and fields hold resource quantities. Keyed by `<ModelClass>.<jsonName>`.
 */

export interface ListExtensions {
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
}

/** A list merged by key: `merge` strategy, and a map-type list when the keys are unique. */
function byKey(keys: string[], strategy = 'merge', unique = true): ListExtensions {
  const ext: ListExtensions = { 'x-kubernetes-patch-merge-key': keys[0], 'x-kubernetes-patch-strategy': strategy };
  if (unique) {
    ext['x-kubernetes-list-type'] = 'map';
    ext['x-kubernetes-list-map-keys'] = keys;
  }
  return ext;
}

const set: ListExtensions = { 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'set' };
const atomic: ListExtensions = { 'x-kubernetes-list-type': 'atomic' };

function containerLists(cls: string): Record<string, ListExtensions> {
  return {
    [`${cls}.ports`]: byKey(['containerPort', 'protocol']),
    [`${cls}.env`]: byKey(['name'], 'merge', false),
    [`${cls}.volumeMounts`]: byKey(['mountPath'], 'merge', false),
    [`${cls}.volumeDevices`]: byKey(['devicePath'], 'merge', false),
    [`${cls}.resizePolicy`]: atomic,
  };
}

const conditionLists = [
  'V1PodStatus', 'V1NodeStatus', 'V1NamespaceStatus', 'V1PersistentVolumeClaimStatus', 'V1ServiceStatus',
  'V1DeploymentStatus', 'V1ReplicaSetStatus', 'V1StatefulSetStatus', 'V1DaemonSetStatus',
  'V1PodDisruptionBudgetStatus', 'V2HorizontalPodAutoscalerStatus', 'V1CustomResourceDefinitionStatus',
  'V1ReplicationControllerStatus',
];

export const listExtensions: Record<string, ListExtensions> = {
  'V1ObjectMeta.finalizers': set,
  'V1ObjectMeta.ownerReferences': byKey(['uid']),
  'V1PodSpec.containers': byKey(['name']),
  'V1PodSpec.initContainers': byKey(['name']),
  'V1PodSpec.ephemeralContainers': byKey(['name']),
  'V1PodSpec.volumes': byKey(['name'], 'merge,retainKeys'),
  'V1PodSpec.imagePullSecrets': byKey(['name'], 'merge', false),
  'V1PodSpec.hostAliases': byKey(['ip']),
  'V1PodSpec.topologySpreadConstraints': byKey(['topologyKey', 'whenUnsatisfiable']),
  'V1PodSpec.resourceClaims': byKey(['name'], 'merge,retainKeys'),
  'V1PodSpec.schedulingGates': byKey(['name']),
  'V1PodStatus.podIPs': byKey(['ip'], 'merge', false),
  'V1PodStatus.hostIPs': byKey(['ip'], 'merge', false),
  'V1NodeStatus.addresses': byKey(['type'], 'merge', false),
  'V1NodeSpec.podCIDRs': set,
  'V1ServiceSpec.ports': byKey(['port', 'protocol']),
  'V1ServiceAccount.secrets': byKey(['name'], 'merge', false),
  'V1ResourceRequirements.claims': { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] },
  'V1JobStatus.conditions': atomic,
  ...containerLists('V1Container'),
  ...containerLists('V1EphemeralContainer'),
  ...Object.fromEntries(conditionLists.map((cls) => [`${cls}.conditions`, byKey(['type'])])),
};

/** Fields whose values are resource.Quantity (a map of them, or a single one). */
export const quantityFields = new Set([
  'V1ResourceRequirements.limits', 'V1ResourceRequirements.requests',
  'V1VolumeResourceRequirements.limits', 'V1VolumeResourceRequirements.requests',
  'V1NodeStatus.allocatable', 'V1NodeStatus.capacity',
  'V1PersistentVolumeSpec.capacity',
  'V1PersistentVolumeClaimStatus.capacity', 'V1PersistentVolumeClaimStatus.allocatedResources',
  'V1ResourceQuotaSpec.hard', 'V1ResourceQuotaStatus.hard', 'V1ResourceQuotaStatus.used',
  'V1LimitRangeItem.default', 'V1LimitRangeItem.defaultRequest', 'V1LimitRangeItem.max', 'V1LimitRangeItem.min',
  'V1LimitRangeItem.maxLimitRequestRatio',
  'V1PodSpec.overhead', 'V1Overhead.podFixed', 'V1ContainerStatus.allocatedResources',
  'V1EmptyDirVolumeSource.sizeLimit', 'V1ResourceFieldSelector.divisor',
  'V1CSIStorageCapacity.capacity', 'V1CSIStorageCapacity.maximumVolumeSize',
  'V2MetricTarget.value', 'V2MetricTarget.averageValue', 'V2MetricValueStatus.value', 'V2MetricValueStatus.averageValue',
]);
