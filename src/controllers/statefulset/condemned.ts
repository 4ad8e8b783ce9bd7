/**
 * The scale-in phase of an ASTS pass (docs/design/advanced-statefulset.md §8): first hand the claims of
 * condemned pods to them when whenScaled=Delete, then delete condemned pods highest ordinal
 * first through the preDelete hook. OrderedReady waits for a terminating one and deletes only a
 * Running, Ready and available pod (or the first unhealthy pod of the set), one per pass;
 * Parallel deletes them all.
 */
import { claimsMatchPolicy, updateClaimOwners } from './claim-control.js';
import { ordinalOf } from './ordinals.js';
import { isMonotonic, type PassContext } from './pass.js';
import { deleteThroughHook } from './pod-control.js';
import { availability, isCreated, isHealthy, isRunningAndReady, isTerminating } from './pod-state.js';
import { minReadySecondsOf } from './status.js';
import type { Pod } from '../../api/core/index.js';

/** The lowest-ordinal pod (in range or condemned) that is not healthy. */
export function firstUnhealthyPod(c: Pick<PassContext, 'slots' | 'condemned'>): Pod | undefined {
  const ascending = [...c.slots, ...[...c.condemned].reverse()];
  return ascending.find((p): p is Pod => p !== undefined && (!isCreated(p) || !isHealthy(p)));
}

async function fixCondemnedClaims(c: PassContext): Promise<void> {
  for (const pod of c.condemned) {
    const ordinal = ordinalOf(c.set.metadata.name!, pod.metadata.name)!;
    if (!claimsMatchPolicy(c, pod, ordinal, true)) await updateClaimOwners(c, pod, ordinal, true);
  }
}

/** Returns true when the pass must end here. */
export async function processCondemned(c: PassContext): Promise<boolean> {
  await fixCondemnedClaims(c);
  const monotonic = isMonotonic(c.set);
  const firstUnhealthy = firstUnhealthyPod(c);
  const minReady = minReadySecondsOf(c.set);
  for (const pod of c.condemned) {
    if (isTerminating(pod)) {
      if (monotonic) return true;
      continue;
    }
    if (monotonic && pod !== firstUnhealthy && (!isRunningAndReady(pod) || !availability(pod, minReady, c.now).available)) return true;
    await deleteThroughHook(c, pod);
    if (monotonic) return true;
  }
  return false;
}
