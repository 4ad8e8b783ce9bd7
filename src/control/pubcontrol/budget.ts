/**
 * The numbers of a PodUnavailableBudget (docs/design/podunavailablebudget.md §3): how many pods must
 * stay available, which operations the budget guards, and the bookkeeping maps with their timeouts.
 */
import type { ObjectMeta } from '../../api/meta.js';
import type { PodUnavailableBudget as PubShape, PubOperation } from '../../api/kruise/ops/podunavailablebudget.js';
import { PubProtectOperationAnnotation } from '../../api/kruise/ops/podunavailablebudget.js';
import { scaledValue } from '../../machinery/int-or-percent.js';
import { timeOf } from '../../machinery/time.js';

/** A PUB as stored (metadata always present), the shape caches and clients hand back. */
export type PodUnavailableBudget = PubShape & { metadata: ObjectMeta };

/** An admitted delete/eviction/resize not seen by the controller after this long is forgotten. */
export const deletionTimeoutMs = 20_000;
/** An admitted in-place update is counted unavailable this long, then availability is measured again. */
export const updatedDelayCheckMs = 10_000;
/** Above this many map entries the webhook refuses everything. */
export const maxUnavailablePodSize = 2000;

/** maxUnavailable: total − ceil(max), at least 0; minAvailable: the int, or ceil of the percent. */
export function desiredAvailable(pub: PodUnavailableBudget, total: number): number {
  const { maxUnavailable, minAvailable } = pub.spec ?? {};
  if (maxUnavailable !== undefined && maxUnavailable !== null) return Math.max(0, total - scaledValue(maxUnavailable, total, true));
  if (minAvailable !== undefined && minAvailable !== null) return scaledValue(minAvailable, total, true);
  return 0;
}

/**
 * The operations the budget guards: spec.protectOperations, else the v1alpha1 annotation's tokens,
 * else DELETE, UPDATE and EVICT. RESIZE rides with UPDATE while InPlacePodVerticalScaling is off
 * (a resize then restarts containers like any update).
 */
export function protectedOperations(pub: PodUnavailableBudget, verticalScaling: boolean): Set<PubOperation> {
  const fromSpec = pub.spec?.protectOperations ?? [];
  const fromAnnotation = (pub.metadata.annotations?.[PubProtectOperationAnnotation] ?? '').split(',').filter(Boolean) as PubOperation[];
  const ops = new Set<PubOperation>(fromSpec.length > 0 ? fromSpec : fromAnnotation.length > 0 ? fromAnnotation : ['DELETE', 'UPDATE', 'EVICT']);
  if (ops.has('UPDATE') && !verticalScaling) ops.add('RESIZE');
  return ops;
}

export type PodTimes = Record<string, string>;

export interface PrunedMaps {
  disruptedPods: PodTimes;
  unavailablePods: PodTimes;
  /** Disrupted pods still there after the timeout (event `NotDeleted`). */
  notDeleted: string[];
  /** ms until the earliest remaining entry expires. */
  recheckMs?: number;
}

/** Keeps the entries of active pods that have not timed out. */
export function pruneMaps(pub: PodUnavailableBudget, activePods: Set<string>, now: number): PrunedMaps {
  const out: PrunedMaps = { disruptedPods: {}, unavailablePods: {}, notDeleted: [] };
  const keep = (from: PodTimes | undefined, to: PodTimes, timeoutMs: number, expired?: string[]) => {
    for (const [pod, at] of Object.entries(from ?? {})) {
      if (!activePods.has(pod)) continue;
      const until = (timeOf(at) ?? 0) + timeoutMs;
      if (until < now) {
        expired?.push(pod);
        continue;
      }
      to[pod] = at;
      out.recheckMs = Math.min(out.recheckMs ?? Infinity, until - now + 1);
    }
  };
  keep(pub.status?.disruptedPods, out.disruptedPods, deletionTimeoutMs, out.notDeleted);
  keep(pub.status?.unavailablePods, out.unavailablePods, updatedDelayCheckMs);
  return out;
}
