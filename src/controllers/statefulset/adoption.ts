/**
 * Which pods belong to a set (k8s ClaimPods with ASTS's member filter): owned pods that still
 * match the selector and are named `<set>-<n>` are kept, owned ones that stop matching are
 * released, and matching orphans (not terminating) are adopted while the set is not being
 * deleted (checked against a fresh read, so a recreated set of the same name adopts nothing).
 */
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { isNotFound } from '../../machinery/errors.js';
import type { LabelSelector } from '../../machinery/labels.js';
import { controllerRef, IndexNames } from '../../runtime/indexers.js';
import type { Informer } from '../../runtime/informer.js';
import { setOwnerRef } from './identity.js';
import { ordinalOf } from './ordinals.js';
import { StatefulSets, type StatefulSet } from './types.js';
import type { Pod } from '../../api/core/index.js';

export const isMember = (set: StatefulSet, selector: LabelSelector, pod: Pod): boolean =>
  selector.matches(pod.metadata.labels ?? {}) && ordinalOf(set.metadata.name!, pod.metadata.name) !== undefined;

async function patchOwners(client: Client, pod: Pod, ownerReferences: unknown[]): Promise<Pod | undefined> {
  try {
    return await client.patch<Pod>(Pods, pod.metadata.namespace, pod.metadata.name!, 'merge', { metadata: { ownerReferences, uid: pod.metadata.uid } });
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

async function canAdopt(client: Client, set: StatefulSet): Promise<boolean> {
  try {
    const fresh = await client.get<StatefulSet>(StatefulSets, set.metadata.namespace, set.metadata.name!);
    return fresh.metadata.uid === set.metadata.uid && !fresh.metadata.deletionTimestamp;
  } catch (e) {
    if (isNotFound(e)) return false;
    throw e;
  }
}

export async function claimPods(client: Client, pods: Informer<Pod>, set: StatefulSet, selector: LabelSelector): Promise<Pod[]> {
  const uid = set.metadata.uid!;
  const kept: Pod[] = [];
  for (const pod of pods.byIndex(IndexNames.controllerUid, uid)) {
    if (isMember(set, selector, pod)) kept.push(pod);
    else await patchOwners(client, pod, (pod.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid));
  }
  const orphans = pods.byIndex(IndexNames.namespace, set.metadata.namespace ?? '')
    .filter((p) => !controllerRef(p) && !p.metadata.deletionTimestamp && isMember(set, selector, p));
  if (orphans.length === 0 || set.metadata.deletionTimestamp || !(await canAdopt(client, set))) return kept;
  for (const pod of orphans) {
    const adopted = await patchOwners(client, pod, [...(pod.metadata.ownerReferences ?? []), setOwnerRef(set)]);
    if (adopted) kept.push(adopted);
  }
  return kept;
}
