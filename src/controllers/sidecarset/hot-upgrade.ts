/**
 * Hot upgrade of a sidecar (docs/design/sidecarset.md §6): the new image goes into the idle copy
 * (the one on hotUpgradeEmptyImage, else a not-ready one, else the one not working), which becomes
 * the working one; the old copy keeps running until the pod is consistent and ready again, and
 * only then is reset to the empty image. So a hot-upgraded sidecar always has a working copy.
 */
import type { Container, Pod } from '../../api/core/index.js';
import {
  SidecarSetVersionAltAnnotationPrefix as Alt, SidecarSetVersionAnnotationPrefix as Ver, SidecarSetWorkingHotUpgradeContainerAnnotation,
  type SidecarContainer,
} from '../../api/kruise/ops/sidecarset.js';
import { isPodReady } from '../../control/podutil/index.js';
import { hotUpgradeNames, isHotUpgrade, workingHotUpgradeContainers, type SidecarSet } from '../../control/sidecarcontrol/index.js';
import { isSidecarConsistent } from './pod-state.js';

type Replaced = Record<string, { imageID: string }>;

const find = (pod: Pod, name: string): Container | undefined => pod.spec.containers.find((c) => c.name === name);
const imageID = (pod: Pod, name: string): string => pod.status?.containerStatuses?.find((s) => s.name === name)?.imageID ?? '';

/** The copy that is not working, or undefined when the working map is missing. */
function idleCopy(pod: Pod, sidecar: SidecarContainer): [string, string] | undefined {
  const working = workingHotUpgradeContainers(pod)[sidecar.name];
  if (!working) return undefined;
  const [one, two] = hotUpgradeNames(sidecar.name);
  return [working, working === one ? two : one];
}

/** Pods whose idle copy is not on the empty image yet (an upgrade in flight). */
export function needsHotReset(set: SidecarSet, pod: Pod): boolean {
  return (set.spec?.containers ?? []).filter(isHotUpgrade).some((s) => {
    const pair = idleCopy(pod, s);
    return pair !== undefined && find(pod, pair[1])?.image !== s.upgradeStrategy?.hotUpgradeEmptyImage;
  });
}

/** Resets idle copies to the empty image once the pod is consistent and ready; undefined: not yet. */
export function hotResetPod(set: SidecarSet, pod: Pod): { pod: Pod; replaced: Replaced } | undefined {
  if (!isSidecarConsistent(set, pod) || !isPodReady(pod)) return undefined;
  const next = structuredClone(pod);
  const replaced: Replaced = {};
  const a = (next.metadata.annotations ??= {});
  for (const s of (set.spec?.containers ?? []).filter(isHotUpgrade)) {
    const pair = idleCopy(next, s);
    const empty = s.upgradeStrategy?.hotUpgradeEmptyImage;
    const idle = pair && find(next, pair[1]);
    if (!pair || !idle || !empty || idle.image === empty) continue;
    idle.image = empty;
    replaced[idle.name] = { imageID: imageID(pod, idle.name) };
    a[Ver + idle.name] = '0';
    a[Alt + pair[0]] = '0';
  }
  return Object.keys(replaced).length > 0 ? { pod: next, replaced } : undefined;
}

/** Puts the new image of `s` into the idle copy of `next` and makes it the working one. */
export function hotUpgradeContainer(set: SidecarSet, s: SidecarContainer, next: Pod, replaced: Replaced): void {
  const working = workingHotUpgradeContainers(next);
  const [one, two] = hotUpgradeNames(s.name);
  const current = working[s.name] ?? one;
  const other = current === one ? two : one;
  const target = other;
  const c = find(next, target);
  if (!c || find(next, current)?.image === s.image) return;
  replaced[target] = { imageID: imageID(next, target) };
  c.image = s.image as string;
  const a = (next.metadata.annotations ??= {});
  a[Ver + target] = set.metadata.resourceVersion ?? '';
  a[Alt + target] = a[Ver + current] ?? '0';
  working[s.name] = target;
  a[SidecarSetWorkingHotUpgradeContainerAnnotation] = JSON.stringify(working);
}
