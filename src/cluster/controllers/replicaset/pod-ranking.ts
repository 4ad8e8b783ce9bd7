/**
 * Which pods a ReplicaSet deletes first when it has too many (Kubernetes' ActivePodsWithRanks with
 * PodDeletionCost and LogarithmicScaleDown on, their defaults): unscheduled before scheduled,
 * Pending before Unknown before Running, not ready before ready, lower deletion cost first, pods
 * doubled up on a node with more related pods first, ready for less time first, more restarts
 * first, newer first. Times compare in log2 buckets of their age, ties broken by uid, so equally
 * old pods go in a pseudo-random but stable order.
 */
import { isPodActive, isPodReady, maxContainerRestarts, podCondition } from '../../../control/podutil/index.js';
import { timeOf } from '../../../machinery/time.js';
import type { Pod } from '../../../api/core/index.js';

export const podDeletionCostAnnotation = 'controller.kubernetes.io/pod-deletion-cost';

const phaseOrdinal: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

export interface RankedPod {
  pod: Pod;
  /** How many active related pods share this pod's node. */
  rank: number;
}

/** The annotation's int32 value; anything unparsable counts as 0, as upstream ignores the error. */
export function deletionCost(pod: Pod): number {
  const raw = pod.metadata.annotations?.[podDeletionCostAnnotation];
  if (raw === undefined || !/^[+-]?\d+$/.test(raw.trim())) return 0;
  const n = Number(raw.trim());
  return n >= -2147483648 && n <= 2147483647 ? n : 0;
}

function readyTime(pod: Pod): number | undefined {
  const c = podCondition(pod, 'Ready');
  return c?.status === 'True' ? timeOf(c.lastTransitionTime) : undefined;
}

/** Go's int64(math.Log2(age in ns)), -1 for ages that are not positive. */
function logBucket(t: number, now: number): number {
  const ageNs = (now - t) * 1e6;
  return ageNs > 0 ? Math.floor(Math.log2(ageNs)) : -1;
}

/** Later (or missing) time first; among equally old buckets, lower uid first. */
function compareTimes(a: number | undefined, b: number | undefined, uidA: string, uidB: string, now: number | undefined): number {
  if (a === b) return 0;
  if (a === undefined || b === undefined) return a === undefined ? -1 : 1; // zero time sorts first
  if (now === undefined) return b - a;
  const diff = logBucket(a, now) - logBucket(b, now);
  if (diff !== 0) return diff;
  return uidA < uidB ? -1 : uidA > uidB ? 1 : 0;
}

/** Negative when `a` should be deleted before `b`. `now` undefined compares times exactly. */
export function compareForDeletion(a: RankedPod, b: RankedPod, now?: number): number {
  const pa = a.pod, pb = b.pod;
  const na = pa.spec?.nodeName ?? '', nb = pb.spec?.nodeName ?? '';
  if (na !== nb && (na === '' || nb === '')) return na === '' ? -1 : 1;
  const phA = phaseOrdinal[pa.status?.phase ?? ''] ?? 0, phB = phaseOrdinal[pb.status?.phase ?? ''] ?? 0;
  if (phA !== phB) return phA - phB;
  const ra = isPodReady(pa), rb = isPodReady(pb);
  if (ra !== rb) return ra ? 1 : -1;
  const ca = deletionCost(pa), cb = deletionCost(pb);
  if (ca !== cb) return ca - cb;
  if (a.rank !== b.rank) return b.rank - a.rank;
  const uidA = pa.metadata.uid ?? '', uidB = pb.metadata.uid ?? '';
  if (ra && rb) {
    const byReady = compareTimes(readyTime(pa), readyTime(pb), uidA, uidB, now);
    if (byReady !== 0) return byReady;
  }
  const restarts = maxContainerRestarts(pb) - maxContainerRestarts(pa);
  if (restarts !== 0) return restarts;
  return compareTimes(timeOf(pa.metadata.creationTimestamp), timeOf(pb.metadata.creationTimestamp), uidA, uidB, now);
}

/** Ranks each pod by the active `related` pods on its node (a superset of `pods`, e.g. a Deployment's). */
export function rankByRelatedPods(pods: readonly Pod[], related: readonly Pod[]): RankedPod[] {
  const onNode = new Map<string, number>();
  for (const p of related) {
    if (!isPodActive(p)) continue;
    const node = p.spec?.nodeName ?? '';
    onNode.set(node, (onNode.get(node) ?? 0) + 1);
  }
  return pods.map((pod) => ({ pod, rank: onNode.get(pod.spec?.nodeName ?? '') ?? 0 }));
}

/** getPodsToDelete: the first `count` pods in deletion order (all of them when count covers them). */
export function podsToDelete(pods: readonly Pod[], related: readonly Pod[], count: number, now: number): Pod[] {
  if (count >= pods.length) return [...pods];
  return rankByRelatedPods(pods, related)
    .sort((a, b) => compareForDeletion(a, b, now))
    .slice(0, count)
    .map((r) => r.pod);
}
