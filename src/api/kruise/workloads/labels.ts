/**
 * Well-known labels, annotations, condition types and values shared by the Kruise workloads
 * (docs/design/kruise-api.md §9, docs/design/inplace-update.md §3, §9). Keys of a single kind live in that kind's file.
 */

/** Pod (and ADS revision) label holding the pod's revision: CloneSet/ASTS the revision name, ADS the bare hash. */
export const ControllerRevisionHashLabel = 'controller-revision-hash';
/** ControllerRevision label with the hash part of a CloneSet/ASTS revision name. */
export const ControllerRevisionHashKey = 'controller.kubernetes.io/hash';

/** Presence asks the owner to delete the pod under its budget (value by convention "true"). */
export const SpecifiedDeleteLabel = 'apps.kruise.io/specified-delete';

export const LifecycleStateLabel = 'lifecycle.apps.kruise.io/state';
export const LifecycleTimestampAnnotation = 'lifecycle.apps.kruise.io/timestamp';
export const LifecycleState = {
  PreparingNormal: 'PreparingNormal',
  Normal: 'Normal',
  PreparingUpdate: 'PreparingUpdate',
  Updating: 'Updating',
  Updated: 'Updated',
  PreparingDelete: 'PreparingDelete',
} as const;
export type LifecycleState = (typeof LifecycleState)[keyof typeof LifecycleState];

/** JSON in-place update state on the pod; the legacy key must be read and removed. */
export const InPlaceUpdateStateAnnotation = 'apps.kruise.io/inplace-update-state';
export const InPlaceUpdateStateAnnotationLegacy = 'inplace-update-state';
/** JSON pending update spec during a grace period; legacy key likewise. */
export const InPlaceUpdateGraceAnnotation = 'apps.kruise.io/inplace-update-grace';
export const InPlaceUpdateGraceAnnotationLegacy = 'inplace-update-grace';
/** Written by the node daemon: per-container id, restartCount and hashes. */
export const RuntimeContainersMetaAnnotation = 'apps.kruise.io/runtime-containers-meta';

/** Readiness gate and pod condition that is False while an in-place update is in flight. */
export const InPlaceUpdateReadyCondition = 'InPlaceUpdateReady';
/** Multi-writer not-ready switch injected into pods owned by apps.kruise.io workloads. */
export const KruisePodReadyCondition = 'KruisePodReady';

/** int32 pod annotation: lower is deleted first on scale-in. */
export const PodDeletionCostAnnotation = 'controller.kubernetes.io/pod-deletion-cost';

/** Image pre-download tuning on v1alpha1 CloneSet, ASTS and ADS (v1beta1 CloneSet uses fields). */
export const ImagePreDownloadParallelismAnnotation = 'apps.kruise.io/image-predownload-parallelism';
export const ImagePreDownloadTimeoutSecondsAnnotation = 'apps.kruise.io/image-predownload-timeout-seconds';
export const ImagePreDownloadMinUpdatedReadyPodsAnnotation = 'apps.kruise.io/image-predownload-min-updated-ready-pods';

/** Launch priority used to batch multi-container in-place updates. */
export const ContainerLaunchPriorityAnnotation = 'apps.kruise.io/container-launch-priority';
export const ContainerLaunchPriorityOrdered = 'Ordered';
export const ContainerPriorityEnv = 'KRUISE_CONTAINER_PRIORITY';

/** Deletion protection label on a workload (gate ResourcesDeletionProtection). */
export const DeletionProtectionLabel = 'policy.kruise.io/delete-protection';
export const DeletionProtection = { Always: 'Always', Cascading: 'Cascading' } as const;

/** Values of updateStrategy.rollingUpdate.podUpdatePolicy (CloneSet v1beta1, ASTS). */
export const PodUpdatePolicy = { ReCreate: 'ReCreate', InPlaceIfPossible: 'InPlaceIfPossible', InPlaceOnly: 'InPlaceOnly' } as const;
export type PodUpdatePolicy = (typeof PodUpdatePolicy)[keyof typeof PodUpdatePolicy];

export const Group = 'apps.kruise.io';
