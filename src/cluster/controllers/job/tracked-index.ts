/**
 * Pods still holding the Job tracking finalizer, indexed by `<namespace>/<job name>` (orphans
 * whose owner reference is gone included, by their job-name label): what a sync must release,
 * found without scanning the namespace.
 */
import { requestKey } from '../../../runtime/handlers.js';
import { hasTrackingFinalizer, jobNameOf } from './job-pod.js';
import type { Pod } from '../../../api/core/index.js';

export const trackedByJobIndex = 'job-tracked-pods';

export function trackedByJob(pod: Pod): string[] {
  const name = hasTrackingFinalizer(pod) ? jobNameOf(pod) : undefined;
  return name ? [requestKey({ namespace: pod.metadata.namespace, name })] : [];
}
