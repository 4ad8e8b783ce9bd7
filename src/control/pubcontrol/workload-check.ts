/**
 * The Kruise workloads ask the PUB before each in-place update, as the webhook would for the pod
 * UPDATE that follows (docs/design/podunavailablebudget.md §7): a refused pod is skipped and the
 * workload tries again a second later; an admitted one is already recorded, so the webhook lets
 * its update through.
 */
import type { Pod } from '../../api/core/index.js';
import type { Client } from '../../client/client.js';
import type { EventRecorder } from '../../runtime/events.js';
import { checkPodBudget } from './check.js';
import { pubMetrics } from './metrics.js';

export const PubUpdateGate = 'PodUnavailableBudgetUpdateGate';
/** A refused in-place update is retried after this long. */
export const refusedUpdateRetryMs = 1000;

export async function inPlaceUpdateAllowed(client: Client, events: EventRecorder, pod: Pod, now: () => number, verticalScaling = false): Promise<boolean> {
  const verdict = await checkPodBudget({
    client, pod, operation: 'UPDATE', dryRun: false, now, verticalScaling,
    onRefused: (p) => {
      const owner = p.metadata.ownerReferences?.find((r) => r.controller);
      pubMetrics.refused.inc({ kind_namespace_name: `${owner?.kind ?? 'unknown'}_${p.metadata.namespace || 'default'}_${owner?.name ?? p.metadata.name}`, username: 'kruise-manager' });
      events.event({ ...p, apiVersion: 'v1', kind: 'Pod' }, 'Warning', 'PubPreventPodDeletion', 'openkruise pub prevents pod deletion');
    },
  });
  return verdict.allowed;
}
