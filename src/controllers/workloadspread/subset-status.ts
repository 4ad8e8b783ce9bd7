/**
 * Subset statuses computed from the pods (docs/design/workloadspread.md §6): per pod version, a
 * subset counts its active pods, keeps creatingPods the cache has not shown yet (30 s) and
 * deletingPods of pods still present (15 s), and derives missingReplicas; the aggregate
 * subsetStatuses sums the versions. Expired records become events; the nearest expiry is returned.
 */
import type { Pod } from '../../api/core/index.js';
import {
  CreatePodTimeoutMs, DeletePodTimeoutMs, injectedSpreadOf, isActive, maxReplicasOf, type Subset, type SubsetStatus,
} from '../../control/workloadspread/index.js';
import { timeOf } from '../../machinery/time.js';

export interface Expired { kind: 'CreatePodFailed' | 'DeletePodFailed'; pod: string }

export interface StatusPass {
  now: number;
  expired: Expired[];
  /** Milliseconds until the nearest record expires. */
  nextCheckMs?: number;
}

function noteExpiry(pass: StatusPass, at: number): void {
  const wait = Math.max(0, at - pass.now) + 1;
  pass.nextCheckMs = pass.nextCheckMs === undefined ? wait : Math.min(pass.nextCheckMs, wait);
}

/** One subset's status from its pods (of one version) and that version's previous status. */
export function subsetStatusOf(subset: Subset, replicas: number, pods: readonly Pod[], old: SubsetStatus | undefined, pass: StatusPass): SubsetStatus {
  const max = maxReplicasOf(subset, replicas);
  let missing = max;
  const creating = { ...old?.creatingPods };
  const deleting: Record<string, string> = {};
  let active = 0;
  for (const pod of pods) {
    delete creating[injectedSpreadOf(pod)?.uid ?? pod.metadata.name!];
    if (!isActive(pod)) continue;
    active++;
    if (missing > 0) missing--;
    const deletedAt = old?.deletingPods?.[pod.metadata.name!];
    const since = timeOf(deletedAt);
    if (deletedAt === undefined || since === undefined) continue;
    if (since + DeletePodTimeoutMs < pass.now) {
      pass.expired.push({ kind: 'DeletePodFailed', pod: pod.metadata.name! });
      continue;
    }
    deleting[pod.metadata.name!] = deletedAt;
    if (missing < max) missing++;
    noteExpiry(pass, since + DeletePodTimeoutMs);
  }
  const kept: Record<string, string> = {};
  for (const [id, at] of Object.entries(creating)) {
    const since = timeOf(at) ?? 0;
    if (since + CreatePodTimeoutMs < pass.now) {
      pass.expired.push({ kind: 'CreatePodFailed', pod: id });
      continue;
    }
    kept[id] = at;
    if (missing > 0) missing--;
    noteExpiry(pass, since + CreatePodTimeoutMs);
  }
  return {
    name: subset.name, replicas: active, missingReplicas: missing,
    ...(Object.keys(kept).length > 0 && { creatingPods: kept }),
    ...(Object.keys(deleting).length > 0 && { deletingPods: deleting }),
  };
}

/** The aggregate of one subset over its versions, with the conditions it already had. */
export function aggregateSubsetStatus(subset: Subset, replicas: number, versions: readonly SubsetStatus[], old: SubsetStatus | undefined): SubsetStatus {
  const max = maxReplicasOf(subset, replicas);
  const creatingPods = Object.assign({}, ...versions.map((v) => v.creatingPods ?? {})) as Record<string, string>;
  const deletingPods = Object.assign({}, ...versions.map((v) => v.deletingPods ?? {})) as Record<string, string>;
  const active = versions.reduce((sum, v) => sum + v.replicas, 0);
  const missing = max < 0 ? -1 : Math.min(max, Math.max(0, max - active - Object.keys(creatingPods).length) + Object.keys(deletingPods).length);
  return {
    name: subset.name, replicas: active, missingReplicas: missing,
    ...(old?.conditions?.length && { conditions: old.conditions }),
    ...(Object.keys(creatingPods).length > 0 && { creatingPods }),
    ...(Object.keys(deletingPods).length > 0 && { deletingPods }),
  };
}
