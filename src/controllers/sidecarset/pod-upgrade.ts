/**
 * The in-place upgrade of one pod's sidecars (docs/design/sidecarset.md §5.4): each sidecar whose
 * image differs gets the SidecarSet's image (the kubelet restarts that container only), the
 * replaced imageIDs go into `kruise.io/sidecarset-inplace-update-state`, the hash entries move to
 * the current hashes and revision, the injected list gains the set if missing, and
 * patchPodMetadata is applied without changing existing keys. Conflicts retry on a fresh read.
 */
import type { Pod } from '../../api/core/index.js';
import {
  SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation, SidecarSetInjectedListAnnotation, SidecarSetInPlaceUpdateStateAnnotation,
} from '../../api/kruise/ops/sidecarset.js';
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import {
  applyPatchPodMetadata, formatInjectedList, formatUpgradeSpecs, injectedSidecarSets, isHotUpgrade, readUpgradeSpecs, rfc3339, type SidecarSet,
} from '../../control/sidecarcontrol/index.js';
import { isConflict } from '../../machinery/errors.js';
import { hotUpgradeContainer } from './hot-upgrade.js';
import { hashOf, inPlaceStates, isUpdatedPod } from './pod-state.js';

/** `pod` with the set's sidecars upgraded; undefined when nothing changes. */
export function upgradedPod(set: SidecarSet, pod: Pod, revision: string, now: number): Pod | undefined {
  if (isUpdatedPod(set, pod)) return undefined;
  const next = structuredClone(pod);
  const name = set.metadata.name!;
  const replaced: Record<string, { imageID: string }> = {};
  for (const sidecar of set.spec?.containers ?? []) {
    if (isHotUpgrade(sidecar)) {
      hotUpgradeContainer(set, sidecar, next, replaced);
      continue;
    }
    const c = next.spec.containers.find((x) => x.name === sidecar.name);
    if (!c || c.image === sidecar.image) continue;
    c.image = sidecar.image as string;
    replaced[c.name] = { imageID: pod.status?.containerStatuses?.find((s) => s.name === c.name)?.imageID ?? '' };
  }
  const timestamp = rfc3339(now);
  const sidecarList = [...new Set([...(set.spec?.containers ?? []).map((c) => c.name),
    ...(set.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name)])].sort();
  const entry = { updateTimestamp: timestamp, sidecarSetName: name, sidecarList };
  const hashes = readUpgradeSpecs(next, SidecarSetHashAnnotation);
  const withoutImage = readUpgradeSpecs(next, SidecarSetHashWithoutImageAnnotation);
  hashes[name] = { ...entry, hash: hashOf(set), ...(revision ? { controllerRevision: revision } : {}) };
  withoutImage[name] = { ...entry, hash: hashOf(set, true) };
  const states = inPlaceStates(next);
  if (Object.keys(replaced).length > 0) states[name] = { revision, updateTimestamp: timestamp, lastContainerStatuses: replaced };
  next.metadata.annotations = {
    ...next.metadata.annotations,
    [SidecarSetHashAnnotation]: formatUpgradeSpecs(hashes),
    [SidecarSetHashWithoutImageAnnotation]: formatUpgradeSpecs(withoutImage),
    [SidecarSetInjectedListAnnotation]: formatInjectedList([...injectedSidecarSets(next), name]),
    ...(Object.keys(states).length > 0 ? { [SidecarSetInPlaceUpdateStateAnnotation]: JSON.stringify(states) } : {}),
  };
  applyPatchPodMetadata(next, set.spec?.patchPodMetadata, { retainOnly: true });
  return next;
}

/** `next` with the replaced imageIDs recorded in the in-place state of `set`. */
export function withInPlaceState(set: SidecarSet, next: Pod, revision: string, replaced: Record<string, { imageID: string }>, now: number): Pod {
  const states = inPlaceStates(next);
  states[set.metadata.name!] = { revision, updateTimestamp: rfc3339(now), lastContainerStatuses: replaced };
  next.metadata.annotations = { ...next.metadata.annotations, [SidecarSetInPlaceUpdateStateAnnotation]: JSON.stringify(states) };
  return next;
}

/** Writes `change(pod)` with conflict retries; returns the pod as stored (undefined: nothing to change). */
export async function writePod(client: Client, cached: Pod, change: (pod: Pod) => Pod | undefined): Promise<Pod | undefined> {
  let pod = cached;
  for (let attempt = 0; ; attempt++) {
    const next = change(pod);
    if (!next) return undefined;
    try {
      return await client.update<Pod>(Pods, next);
    } catch (e) {
      if (!isConflict(e) || attempt >= 4) throw e;
      pod = await client.get<Pod>(Pods, pod.metadata.namespace, pod.metadata.name!);
    }
  }
}

export const upgradePod = (client: Client, set: SidecarSet, cached: Pod, revision: string, now: number): Promise<Pod | undefined> =>
  writePod(client, cached, (pod) => upgradedPod(set, pod, revision, now));
