/**
 * The replica phase of an ASTS pass (docs/design/advanced-statefulset.md §7): walk the in-range positions in
 * ascending order — replace finished pods, create missing ones (after their claims), create
 * claims of Pending pods, refresh in-place and lifecycle state, fix identity and claim owners.
 * OrderedReady stops at the first pod that is being created, terminating or not available;
 * Parallel goes on, spending the `scaleStrategy.maxUnavailable` budget on every such pod and
 * breaking the walk when it is used up. Parallel creates run in slow-start batches at the end.
 * Parallel refreshes every live pod up front, and each new pod right after its creation batch, a
 * bounded number at a time (refresh-sweep.ts); OrderedReady refreshes each pod as the walk reaches it.
 */
import { budgetOf } from './types.js';
import { claimsMatchPolicy, ensureClaims, hasStaleClaim, updateClaimOwners } from './claim-control.js';
import { identityDrift } from './identity.js';
import { isMonotonic, requeueAfter, type PassContext } from './pass.js';
import { createPod, deleteThroughHook, fixIdentity } from './pod-control.js';
import { availability, isCreated, isFinished, isPending, isTerminating } from './pod-state.js';
import type { RefreshTracker } from './refresh.js';
import { isLive, placesOf, refreshPlaces } from './refresh-sweep.js';
import { minReadySecondsOf } from './status.js';
import type { Pod } from '../../api/core/index.js';

/** Returns true when the pass must end here (OrderedReady blocked, or a write failed). */
export async function processReplicas(c: PassContext, refreshed: RefreshTracker): Promise<boolean> {
  const monotonic = isMonotonic(c.set);
  if (!monotonic) await refreshPlaces(c, refreshed, placesOf([c.slots], isLive));
  const scaleMax = c.set.spec.scaleStrategy?.maxUnavailable;
  let budget = !monotonic && scaleMax !== undefined ? budgetOf(scaleMax, c.set.spec.replicas ?? 1) : Infinity;
  /** Spends one unit; true when the budget is used up. */
  const spend = () => --budget <= 0;
  const creates: number[] = [];
  for (let i = 0; i < c.slots.length; i++) {
    let pod = c.slots[i];
    if (!pod) continue;
    const ordinal = c.range.start + i;
    if (isCreated(pod) && isFinished(pod) && !isTerminating(pod)) {
      const failed = pod.status?.phase === 'Failed';
      c.events.event(c.set, failed ? 'Warning' : 'Normal', failed ? 'RecreatingFailedPod' : 'RecreatingTerminatedPod',
        `StatefulSet ${c.set.metadata.namespace}/${c.set.metadata.name} is recreating ${failed ? 'failed' : 'terminated'} Pod ${pod.metadata.name}`);
      await deleteThroughHook(c, pod);
      if (monotonic) return true;
      if (spend()) break;
      continue;
    }
    if (!isCreated(pod)) {
      if (hasStaleClaim(c, pod, ordinal)) {
        requeueAfter(c, 1_000); // the collector is removing the old pod's claim
        if (monotonic) return true;
        continue;
      }
      if (monotonic) {
        await createAt(c, i);
        return true;
      }
      creates.push(i);
      if (spend()) break;
      continue;
    }
    if (isPending(pod)) await ensureClaims(c, pod, ordinal, false);
    if (isTerminating(pod)) {
      if (monotonic) return true;
      if (spend()) break;
      continue;
    }
    await refreshPlaces(c, refreshed, [{ list: c.slots, index: i }]);
    pod = c.slots[i]!;
    const { available, waitMs } = availability(pod, minReadySecondsOf(c.set), c.now);
    if (!available) {
      requeueAfter(c, waitMs);
      if (monotonic) {
        c.blockedBy = pod;
        return true;
      }
      if (spend()) break;
    }
    await enforceInvariants(c, pod, ordinal);
  }
  await createInBatches(c, creates, refreshed);
  return false;
}

/** Identity labels and claim owners (pod volumes are immutable: missing claims are only created). */
async function enforceInvariants(c: PassContext, pod: Pod, ordinal: number): Promise<void> {
  try {
    const drift = identityDrift(c.set, pod, c.gate);
    if (Object.keys(drift).length > 0) await fixIdentity(c, pod, drift);
    if (!claimsMatchPolicy(c, pod, ordinal, false)) await updateClaimOwners(c, pod, ordinal, false);
  } catch (e) {
    c.failures.set('FailedUpdatePod', e instanceof Error ? e.message : String(e));
    throw e;
  }
}

async function createAt(c: PassContext, position: number): Promise<void> {
  try {
    c.slots[position] = await createPod(c, c.slots[position]!, c.range.start + position);
  } catch (e) {
    c.failures.set('FailedCreatePod', e instanceof Error ? e.message : String(e));
    throw e;
  }
}

/**
 * Slow start: batches of 1, 2, 4, ...; stops after the first batch with a failure. The pods of a
 * batch are refreshed (InPlaceUpdateReady set) while the next batch is created, from the objects
 * the creates returned; the refreshes are awaited before returning.
 */
async function createInBatches(c: PassContext, positions: number[], refreshed: RefreshTracker): Promise<void> {
  const refreshes: Promise<void>[] = [];
  let failure: PromiseRejectedResult | undefined;
  for (let next = 0, size = 1; next < positions.length && !failure; next += size, size *= 2) {
    const batch = positions.slice(next, next + size);
    const results = await Promise.allSettled(batch.map((i) => createAt(c, i)));
    failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    refreshes.push(refreshPlaces(c, refreshed, batch.filter((i) => isCreated(c.slots[i]!)).map((index) => ({ list: c.slots, index }))));
  }
  const refreshFailure = (await Promise.allSettled(refreshes)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
  if (refreshFailure) throw refreshFailure.reason;
}
