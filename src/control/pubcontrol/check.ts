/**
 * The budget check of one pod operation (docs/design/podunavailablebudget.md §4), shared by the pod
 * webhook (DELETE, EVICT, UPDATE, RESIZE) and the Kruise workloads before an in-place update: admit
 * and record the pod in the PUB's status, or refuse with upstream's message.
 */
import type { Pod } from '../../api/core/index.js';
import type { PubOperation } from '../../api/kruise/ops/podunavailablebudget.js';
import type { PodUnavailableBudget } from './budget.js';
import { PodUnavailableBudgets } from '../../api/kruise/resource-types.js';
import type { Client } from '../../client/client.js';
import { isConflict, isNotFound } from '../../machinery/errors.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import { rfc3339 } from '../../machinery/time.js';
import { maxUnavailablePodSize, protectedOperations } from './budget.js';
import { isNoProtect, isPubReady, isStateConsistent, relatedPub } from './pod-state.js';
import { conflictRetry, retryDelay, withPubLock, writtenPubs } from './status-lock.js';

export interface PodBudgetCheck {
  client: Client;
  /** The pod as it is before the operation. */
  pod: Pod;
  operation: PubOperation;
  dryRun: boolean;
  /** Gate InPlacePodVerticalScaling. */
  verticalScaling: boolean;
  now(): number;
  /** Side effects of a refusal: metric, event, protection log. */
  onRefused?(pod: Pod, pub: PodUnavailableBudget, message: string): void | Promise<void>;
}

export type Verdict = { allowed: true } | { allowed: false; message: string };

const allow: Verdict = { allowed: true };
const forbidden = (pub: string, why: string) => `podunavailablebudget.policy.kruise.io "${pub}" is forbidden: ${why}`;

export const messages = {
  negative: (pub: string) => forbidden(pub, 'pub unavailable allowed is negative'),
  tooBig: (pub: string) => forbidden(pub, 'DisruptedPods and UnavailablePods map too big - too many unavailable not confirmed by PUB controller'),
  conflicts: (pub: string) => `Timeout: couldn't update PodUnavailableBudget ${pub} due to conflicts`,
};

const recorded = (pub: PodUnavailableBudget, pod: string) => !!pub.status?.disruptedPods?.[pod] || !!pub.status?.unavailablePods?.[pod];

/** Steps 2-3: the PUB that guards this operation, or undefined when nothing guards it. */
async function guardingPub(c: PodBudgetCheck): Promise<PodUnavailableBudget | undefined> {
  const { pod } = c;
  const name = relatedPub(pod);
  if (!name || isNoProtect(pod) || pod.metadata.deletionTimestamp) return undefined;
  if (!isPubReady(pod) || !isStateConsistent(pod)) return undefined; // already unavailable
  let pub: PodUnavailableBudget;
  try {
    pub = await c.client.get<PodUnavailableBudget>(PodUnavailableBudgets, pod.metadata.namespace, name);
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
  if (pub.metadata.deletionTimestamp) return undefined;
  const ignored = pub.spec?.ignoredPodSelector as MetaLabelSelector | undefined;
  if (ignored && selectorFromLabelSelector(ignored).matches(pod.metadata.labels)) return undefined;
  if ((pub.status?.desiredAvailable ?? 0) === 0) return undefined;
  if (!protectedOperations(pub, c.verticalScaling).has(c.operation)) return undefined;
  return recorded(pub, pod.metadata.name!) ? undefined : pub;
}

export async function checkPodBudget(c: PodBudgetCheck): Promise<Verdict> {
  const first = await guardingPub(c);
  if (!first) return allow;
  const podName = c.pod.metadata.name!;
  const pubName = first.metadata.name!;
  return withPubLock(first.metadata.uid ?? pubName, async () => {
    let pub = writtenPubs.newest(first);
    for (let attempt = 0; attempt < conflictRetry.steps; attempt++) {
      if (attempt > 0) {
        await retryDelay();
        try {
          pub = await c.client.get<PodUnavailableBudget>(PodUnavailableBudgets, first.metadata.namespace, pubName);
        } catch (e) {
          if (isNotFound(e)) return allow;
          throw e;
        }
        if (recorded(pub, podName)) return allow;
      }
      const status = pub.status ?? { currentAvailable: 0, desiredAvailable: 0, totalReplicas: 0, unavailableAllowed: 0 };
      const refusal = status.unavailableAllowed <= 0 ? messages.negative(pubName)
        : Object.keys(status.disruptedPods ?? {}).length + Object.keys(status.unavailablePods ?? {}).length > maxUnavailablePodSize ? messages.tooBig(pubName)
          : undefined;
      if (refusal) {
        await c.onRefused?.(c.pod, pub, refusal);
        return { allowed: false, message: refusal };
      }
      if (c.dryRun) return allow;
      const at = rfc3339(c.now());
      const next = { ...status, unavailableAllowed: status.unavailableAllowed - 1 };
      if (c.operation === 'UPDATE') next.unavailablePods = { ...status.unavailablePods, [podName]: at };
      else next.disruptedPods = { ...status.disruptedPods, [podName]: at };
      try {
        writtenPubs.note(await c.client.updateStatus<PodUnavailableBudget>(PodUnavailableBudgets, { ...pub, status: next }));
        return allow;
      } catch (e) {
        if (isNotFound(e)) return allow;
        if (!isConflict(e)) throw e;
      }
    }
    return { allowed: false, message: messages.conflicts(pubName) };
  });
}
