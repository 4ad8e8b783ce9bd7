/**
 * What the SidecarSet controller reads off a pod (docs/design/sidecarset.md §5): whether the pod
 * counts as matched, updated, consistent (every sidecar runs what its spec says) and ready.
 */
import type { Pod } from '../../api/core/index.js';
import {
  SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation, SidecarSetInPlaceUpdateStateAnnotation,
} from '../../api/kruise/ops/sidecarset.js';
import { sameImageName } from '../../control/imagejob/index.js';
import { isPodActive, isPodReady } from '../../control/podutil/index.js';
import {
  hotUpgradeNames, injectedSidecarSets, isHotUpgrade, podSidecarSetHash, sidecarSetSelects, workingHotUpgradeContainers, type SidecarSet,
} from '../../control/sidecarcontrol/index.js';

/** In-place state: SidecarSet name → what its last upgrade of this pod replaced. */
export interface SidecarInPlaceState {
  revision: string;
  updateTimestamp: string;
  lastContainerStatuses: Record<string, { imageID: string }>;
}

export function inPlaceStates(pod: Pod): Record<string, SidecarInPlaceState> {
  try {
    return JSON.parse(pod.metadata.annotations?.[SidecarSetInPlaceUpdateStateAnnotation] ?? '{}') as Record<string, SidecarInPlaceState>;
  } catch {
    return {};
  }
}

/** Pod container names of the set's sidecars (both copies of a hot-upgrade one). */
export function sidecarContainerNames(set: SidecarSet): string[] {
  return (set.spec?.containers ?? []).flatMap((c) => (isHotUpgrade(c) ? hotUpgradeNames(c.name) : [c.name]));
}

export function isMatchedPod(set: SidecarSet, pod: Pod, namespaceLabels: Record<string, string> | undefined): boolean {
  if (!isPodActive(pod) || !injectedSidecarSets(pod).includes(set.metadata.name!)) return false;
  if (!sidecarSetSelects(set, pod, namespaceLabels)) return false;
  const names = new Set(pod.spec.containers.map((c) => c.name));
  const working = workingHotUpgradeContainers(pod);
  return (set.spec?.containers ?? []).every((c) => (isHotUpgrade(c) ? hotUpgradeNames(c.name).every((n) => names.has(n)) && !!working[c.name] : names.has(c.name)));
}

export const hashOf = (set: SidecarSet, withoutImage = false): string =>
  set.metadata.annotations?.[withoutImage ? SidecarSetHashWithoutImageAnnotation : SidecarSetHashAnnotation] ?? '';

export const isUpdatedPod = (set: SidecarSet, pod: Pod): boolean => podSidecarSetHash(pod, set.metadata.name!) === hashOf(set);

/** Only an image change can be applied in place. */
export const isUpgradablePod = (set: SidecarSet, pod: Pod): boolean =>
  podSidecarSetHash(pod, set.metadata.name!, true) === hashOf(set, true);

/**
 * Every sidecar of the set runs its spec: all containers have a status, and none still shows the
 * imageID the last in-place upgrade recorded as the one it replaced.
 */
export function isSidecarConsistent(set: SidecarSet, pod: Pod): boolean {
  const statuses = pod.status?.containerStatuses ?? [];
  if (statuses.length !== pod.spec.containers.length) return false;
  const recorded = inPlaceStates(pod)[set.metadata.name!]?.lastContainerStatuses ?? {};
  for (const name of sidecarContainerNames(set)) {
    const status = statuses.find((s) => s.name === name);
    if (!status) return false;
    const old = recorded[name]?.imageID;
    const spec = pod.spec.containers.find((c) => c.name === name);
    // the kubelet reports `nginx:1.25` as `docker.io/library/nginx:1.25` (docs/design/inplace-update.md §13)
    if (old && status.imageID === old && !sameImageName(spec?.image ?? '', status.image)) return false;
  }
  return true;
}

/** Hot-upgrade sidecars whose idle copy is back on the empty image. */
function idleCopiesEmpty(set: SidecarSet, pod: Pod): boolean {
  const working = workingHotUpgradeContainers(pod);
  return (set.spec?.containers ?? []).filter(isHotUpgrade).every((s) => {
    const [one, two] = hotUpgradeNames(s.name);
    const idle = working[s.name] === two ? one : two;
    return pod.spec.containers.find((c) => c.name === idle)?.image === s.upgradeStrategy?.hotUpgradeEmptyImage;
  });
}

/** Consistent, Running and Ready, with every hot-upgrade idle copy on the empty image. */
export const isSidecarReady = (set: SidecarSet, pod: Pod): boolean =>
  pod.status?.phase === 'Running' && isPodReady(pod) && isSidecarConsistent(set, pod) && idleCopiesEmpty(set, pod);
