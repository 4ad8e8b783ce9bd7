/** Well-known labels, annotations, env vars and conditions of SidecarSet injection and update. */

/** SidecarSet and pod annotation: the hash of the sidecar containers (on pods: a JSON map per SidecarSet). */
export const SidecarSetHashAnnotation = 'kruise.io/sidecarset-hash';
/** Same as SidecarSetHashAnnotation with images blanked before hashing. */
export const SidecarSetHashWithoutImageAnnotation = 'kruise.io/sidecarset-hash-without-image';
/** Pod annotation: comma-joined, name-sorted names of the SidecarSets injected into the pod. */
export const SidecarSetInjectedListAnnotation = 'kruise.io/sidecarset-injected-list';
/** Pod annotation: JSON map SidecarSet name → {revision, updateTimestamp, lastContainerStatuses}. */
export const SidecarSetInPlaceUpdateStateAnnotation = 'kruise.io/sidecarset-inplace-update-state';
/** Pod annotation: JSON map hot-upgrade sidecar name → the working copy (`envoy` → `envoy-1`). */
export const SidecarSetWorkingHotUpgradeContainerAnnotation = 'kruise.io/sidecarset-working-hotupgrade-container';
/** Pod annotation prefixes of the hot-upgrade version markers, followed by the container name. */
export const SidecarSetVersionAnnotationPrefix = 'version.sidecarset.kruise.io/';
export const SidecarSetVersionAltAnnotationPrefix = 'versionalt.sidecarset.kruise.io/';

/** ControllerRevision label naming the owning SidecarSet. */
export const SidecarSetNameLabel = 'kruise.io/sidecarset-name';
/** ControllerRevision label (and v1alpha1 SidecarSet label) carrying the custom version. */
export const SidecarSetCustomVersionLabel = 'apps.kruise.io/sidecarset-custom-version';

/** SidecarSet annotations of a canary SidecarSet (`"true"`) and the base it shadows. */
export const SidecarSetCanaryAnnotation = 'apps.kruise.io/sidecarset-canary';
export const SidecarSetBaseAnnotation = 'apps.kruise.io/sidecarset-base';

/** Env vars written into injected containers. */
export const SidecarInjectedEnv = 'IS_INJECTED';
export const SidecarSetVersionEnv = 'SIDECARSET_VERSION';
export const SidecarSetVersionAltEnv = 'SIDECARSET_VERSION_ALT';

/** Pod condition set by the SidecarSet controller, with its two reasons. */
export const SidecarSetUpgradableCondition = 'SidecarSetUpgradable';
export const SidecarSetUpgradableReasonAll = 'AllSidecarsetUpgradable';
export const SidecarSetUpgradableReasonImmutableField = 'UpdateImmutableField';

/** ConfigMap key (in `kruise-configuration`) listing the annotations patchPodMetadata may write. */
export const SidecarSetPatchPodMetadataWhiteListKey = 'SidecarSet_PatchPodMetadata_WhiteList';
