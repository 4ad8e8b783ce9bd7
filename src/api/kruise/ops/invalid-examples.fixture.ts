/**
 * Test data: manifests the CRD schemas must refuse or prune, with what the apiserver reports:
 * the pruned (unknown) field paths and the [error type, field] pairs of the validation.
 */

export interface InvalidExample { name: string; yaml: string; unknown?: string[]; errors?: [string, string][] }

export const invalidExamples: InvalidExample[] = [
  { name: 'AdvancedCronJob concurrencyPolicy outside its enum', errors: [['FieldValueNotSupported', 'spec.concurrencyPolicy']],
    yaml: 'apiVersion: apps.kruise.io/v1beta1\nkind: AdvancedCronJob\nmetadata: {name: a}\nspec: {schedule: "* * * * *", concurrencyPolicy: Sometimes, template: {}}\n' },
  { name: 'AdvancedCronJob v1alpha1 has no imageListPullJobTemplate', unknown: ['spec.template.imageListPullJobTemplate'],
    yaml: 'apiVersion: apps.kruise.io/v1alpha1\nkind: AdvancedCronJob\nmetadata: {name: a}\nspec: {schedule: "* * * * *", template: {imageListPullJobTemplate: {spec: {images: [x]}}}}\n' },
  { name: 'BroadcastJob without template', errors: [['FieldValueRequired', 'spec.template']],
    yaml: 'apiVersion: apps.kruise.io/v1beta1\nkind: BroadcastJob\nmetadata: {name: b}\nspec: {parallelism: 1}\n' },
  { name: 'SidecarSet v1beta1 has no spec.namespace', unknown: ['spec.namespace'],
    yaml: 'apiVersion: apps.kruise.io/v1beta1\nkind: SidecarSet\nmetadata: {name: s}\nspec: {namespace: ns-a, selector: {matchLabels: {a: b}}}\n' },
  { name: 'SidecarSet v1alpha1 has no spec.customVersion', unknown: ['spec.customVersion'],
    yaml: 'apiVersion: apps.kruise.io/v1alpha1\nkind: SidecarSet\nmetadata: {name: s}\nspec: {customVersion: v1}\n' },
  { name: 'SidecarSet revision policy outside its enum, container without name',
    errors: [['FieldValueRequired', 'spec.containers[0].name'], ['FieldValueNotSupported', 'spec.injectionStrategy.revision.policy']],
    yaml: 'apiVersion: apps.kruise.io/v1beta1\nkind: SidecarSet\nmetadata: {name: s}\nspec: {containers: [{image: x}], injectionStrategy: {revision: {policy: Sometimes}}}\n' },
  { name: 'ContainerRecreateRequest without podName; status without phase', errors: [['FieldValueRequired', 'spec.podName'], ['FieldValueRequired', 'status.phase']],
    yaml: 'apiVersion: apps.kruise.io/v1beta1\nkind: ContainerRecreateRequest\nmetadata: {name: c}\nspec: {containers: [{name: app}]}\nstatus: {message: x}\n' },
  { name: 'ContainerRecreateRequest v1alpha1 has no containerStatusSnapshot', unknown: ['status.containerStatusSnapshot'],
    yaml: 'apiVersion: apps.kruise.io/v1alpha1\nkind: ContainerRecreateRequest\nmetadata: {name: c}\nspec: {podName: p, containers: [{name: app}]}\nstatus: {phase: Pending, containerStatusSnapshot: []}\n' },
  { name: 'ImagePullJob without image or completionPolicy', errors: [['FieldValueRequired', 'spec.completionPolicy'], ['FieldValueRequired', 'spec.image']],
    yaml: 'apiVersion: apps.kruise.io/v1beta1\nkind: ImagePullJob\nmetadata: {name: i}\nspec: {parallelism: 1}\n' },
  { name: 'NodeImage v1alpha1 has no pullSecrets mode', unknown: ['spec.images.nginx.pullSecrets[0].mode'],
    yaml: 'apiVersion: apps.kruise.io/v1alpha1\nkind: NodeImage\nmetadata: {name: n1}\nspec: {images: {nginx: {pullSecrets: [{name: s, mode: batch}], tags: [{tag: "1"}]}}}\n' },
  { name: 'NodePodProbe entry without IP', errors: [['FieldValueRequired', 'spec.podProbes[0].IP']],
    yaml: 'apiVersion: apps.kruise.io/v1alpha1\nkind: NodePodProbe\nmetadata: {name: n1}\nspec: {podProbes: [{name: p, namespace: t, uid: u, ip: 1.2.3.4}]}\n', unknown: ['spec.podProbes[0].ip'] },
  { name: 'PodUnavailableBudget operation outside its enum and zero total replicas',
    errors: [['FieldValueNotSupported', 'spec.protectOperations[0]'], ['FieldValueInvalid', 'spec.protectTotalReplicas']],
    yaml: 'apiVersion: policy.kruise.io/v1beta1\nkind: PodUnavailableBudget\nmetadata: {name: p}\nspec: {protectOperations: [KILL], protectTotalReplicas: 0}\n' },
  { name: 'PodUnavailableBudget v1alpha1 has no protectOperations', unknown: ['spec.protectOperations'],
    yaml: 'apiVersion: policy.kruise.io/v1alpha1\nkind: PodUnavailableBudget\nmetadata: {name: p}\nspec: {protectOperations: [EVICT]}\n' },
  { name: 'PersistentPodState v1beta1 with the v1alpha1 key name', unknown: ['spec.requiredPersistentTopology.nodeTopologyKeys'],
    errors: [['FieldValueRequired', 'spec.requiredPersistentTopology.keys'], ['FieldValueNotSupported', 'spec.persistentPodStateRetentionPolicy']],
    yaml: 'apiVersion: apps.kruise.io/v1beta1\nkind: PersistentPodState\nmetadata: {name: p}\nspec: {targetRef: {apiVersion: apps/v1, kind: StatefulSet, name: db}, requiredPersistentTopology: {nodeTopologyKeys: [zone]}, persistentPodStateRetentionPolicy: Never}\n' },
  { name: 'ResourceDistribution v1beta1 with the v1alpha1 selector name; resource without kind',
    unknown: ['spec.targets.namespaceLabelSelector'], errors: [['FieldValueRequired', 'spec.resource.kind']],
    yaml: 'apiVersion: apps.kruise.io/v1beta1\nkind: ResourceDistribution\nmetadata: {name: r}\nspec: {resource: {apiVersion: v1, metadata: {name: x}}, targets: {namespaceLabelSelector: {}}}\n' },
  { name: 'PodProbeMarker without selector', errors: [['FieldValueRequired', 'spec.selector']],
    yaml: 'apiVersion: apps.kruise.io/v1alpha1\nkind: PodProbeMarker\nmetadata: {name: p}\nspec: {probes: []}\n' },
];
