/**
 * ResourceDistribution status (docs/design/resourcedistribution.md §4): desired, succeeded, failed
 * and always the six conditions in their order; a condition's lastTransitionTime moves only when
 * its status flips.
 */
import { ResourceDistributionConditionTypes, type ResourceDistributionConditionType } from '../../api/kruise/ops/resourcedistribution.js';
import { rfc3339 } from '../../machinery/time.js';
import type { ResourceDistributionObject } from './resource.js';

export type Status = NonNullable<ResourceDistributionObject['status']>;
type Condition = NonNullable<Status['conditions']>[number];

/** One failure: the condition it lands in, the namespace, the error text. */
export interface Failure { type: ResourceDistributionConditionType; namespace: string; message: string }

export function buildStatus(rd: ResourceDistributionObject, desired: number, succeeded: number, failures: Failure[], now: number): Status {
  const old = rd.status?.conditions ?? [];
  const conditions: Condition[] = ResourceDistributionConditionTypes.map((type, i) => {
    const mine = failures.filter((f) => f.type === type);
    const status = mine.length > 0 ? 'True' : 'False';
    const previous = old[i]?.type === type ? old[i] : undefined;
    return {
      type, status,
      lastTransitionTime: previous && previous.status === status && previous.lastTransitionTime ? previous.lastTransitionTime : rfc3339(now),
      reason: mine.length > 0 ? mine[mine.length - 1].message : 'Succeeded',
      ...(mine.length > 0 && { failedNamespaces: mine.map((f) => f.namespace) }),
    };
  });
  return { desired, succeeded, failed: desired - succeeded, observedGeneration: rd.metadata.generation, conditions };
}
