/**
 * The pods a DaemonSet manages (upstream ClaimPods): pods it controls that still match its selector,
 * plus orphans that match (adopted after an uncached check that the DaemonSet is still there);
 * controlled pods that stopped matching are released.
 */
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { isNotFound } from '../../machinery/errors.js';
import type { LabelSelector } from '../../machinery/labels.js';
import { controllerRef } from '../../runtime/indexers.js';
import { AdvancedDaemonSets, daemonSetOwnerRef, type DaemonSet } from './types.js';
import type { Pod } from '../../api/core/index.js';

export async function claimPods(client: Client, ds: DaemonSet, selector: LabelSelector, candidates: readonly Pod[]): Promise<Pod[]> {
  const claimed: Pod[] = [];
  let canAdopt: boolean | undefined;
  for (const pod of candidates) {
    const ref = controllerRef(pod);
    const matches = selector.matches(pod.metadata.labels);
    if (ref?.uid === ds.metadata.uid) {
      if (matches) claimed.push(pod);
      else await patchOwners(client, pod, (pod.metadata.ownerReferences ?? []).filter((r) => r.uid !== ds.metadata.uid));
      continue;
    }
    if (ref || !matches || pod.metadata.deletionTimestamp || ds.metadata.deletionTimestamp) continue;
    canAdopt ??= await stillCurrent(client, ds);
    if (!canAdopt) continue;
    if (await patchOwners(client, pod, [...(pod.metadata.ownerReferences ?? []), daemonSetOwnerRef(ds)])) claimed.push(pod);
  }
  return claimed;
}

/** A fresh read shows the same, undeleted DaemonSet. */
async function stillCurrent(client: Client, ds: DaemonSet): Promise<boolean> {
  try {
    const fresh = await client.get<DaemonSet>(AdvancedDaemonSets, ds.metadata.namespace, ds.metadata.name!);
    return fresh.metadata.uid === ds.metadata.uid && !fresh.metadata.deletionTimestamp;
  } catch (e) {
    if (isNotFound(e)) return false;
    throw e;
  }
}

/** Merge-patches the owner list, guarded by the pod's uid; false when the pod is gone. */
async function patchOwners(client: Client, pod: Pod, ownerReferences: NonNullable<Pod['metadata']['ownerReferences']>): Promise<boolean> {
  try {
    await client.patch(Pods, pod.metadata.namespace, pod.metadata.name!, 'merge', { metadata: { ownerReferences, uid: pod.metadata.uid } });
    return true;
  } catch (e) {
    if (isNotFound(e)) return false;
    throw e;
  }
}
