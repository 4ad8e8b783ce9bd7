/**
 * What one StatefulSet sync should do, as a pure function of the set, its pods and its revisions:
 * 1. replicas, lowest ordinal first: replace finished pods, create missing ones (ordinals below the
 *    partition from the current revision), and under OrderedReady stop at the first pod that is not
 *    yet Running, Ready and available;
 * 2. condemned pods (ordinals past the replica range), highest first, one at a time when ordered;
 * 3. RollingUpdate: from the highest ordinal down to the partition, delete the first pod of an old
 *    revision (it is recreated from the update revision next time) and wait for each to be healthy.
 */
import { isPodAvailable, isPodReady } from '../../../control/podutil/index.js';
import { ordinalOf, podRevision } from './identity.js';
import { isOrderedReady, startOrdinal } from './types.js';
import type { Pod, StatefulSet } from '../../../api/core/index.js';

export type Step =
  | { kind: 'create'; ordinal: number; revision: 'current' | 'update' }
  | { kind: 'delete'; pod: Pod; why: 'finished' | 'condemned' | 'update' };

export interface Plan {
  steps: Step[];
  /** Why the sync stopped before the end, for logs and tests. */
  waitingFor?: string;
}

export interface PlanInput {
  set: StatefulSet;
  pods: Pod[];
  currentRevision: string;
  updateRevision: string;
  now: number;
}

export const isRunningAndReady = (pod: Pod): boolean => pod.status?.phase === 'Running' && isPodReady(pod);
const isTerminating = (pod: Pod): boolean => Boolean(pod.metadata.deletionTimestamp);
const isFinished = (pod: Pod): boolean => pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded';

/** The set's ordinals split into the replica slots (pod or missing) and the condemned pods, highest first. */
export function splitByOrdinal(set: StatefulSet, pods: Pod[]): { slots: (Pod | undefined)[]; condemned: Pod[] } {
  const start = startOrdinal(set);
  const replicas = set.spec?.replicas ?? 1;
  const slots: (Pod | undefined)[] = new Array(replicas).fill(undefined);
  const condemned: { pod: Pod; ordinal: number }[] = [];
  for (const pod of pods) {
    const ordinal = ordinalOf(set, pod);
    if (ordinal === undefined) continue;
    if (ordinal >= start && ordinal < start + replicas) slots[ordinal - start] = pod;
    else condemned.push({ pod, ordinal });
  }
  condemned.sort((a, b) => b.ordinal - a.ordinal);
  return { slots, condemned: condemned.map((c) => c.pod) };
}

export function planStatefulSet(input: PlanInput): Plan {
  const { set, now } = input;
  const ordered = isOrderedReady(set);
  const minReady = set.spec?.minReadySeconds ?? 0;
  const start = startOrdinal(set);
  const rolling = (set.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
  const partition = rolling ? set.spec?.updateStrategy?.rollingUpdate?.partition ?? 0 : 0;
  const { slots, condemned } = splitByOrdinal(set, input.pods);
  const steps: Step[] = [];
  const stop = (waitingFor: string): Plan => ({ steps, waitingFor });
  for (let i = 0; i < slots.length; i++) {
    const pod = slots[i];
    const ordinal = start + i;
    if (pod && isFinished(pod) && !isTerminating(pod)) {
      steps.push({ kind: 'delete', pod, why: 'finished' });
      if (ordered) return stop(`replacing finished ${pod.metadata.name}`);
      continue;
    }
    if (!pod) {
      steps.push({ kind: 'create', ordinal, revision: rolling && i < partition ? 'current' : 'update' });
      if (ordered) return stop(`creating ordinal ${ordinal}`);
      continue;
    }
    if (!ordered) continue;
    if (isTerminating(pod)) return stop(`${pod.metadata.name} to terminate`);
    if (!isRunningAndReady(pod)) return stop(`${pod.metadata.name} to be Running and Ready`);
    if (!isPodAvailable(pod, minReady, now)) return stop(`${pod.metadata.name} to be available`);
  }
  const firstUnhealthy = [...slots, ...[...condemned].reverse()].find((p) => !p || !isRunningAndReady(p) || isTerminating(p));
  for (const pod of condemned) {
    if (isTerminating(pod)) {
      if (ordered) return stop(`${pod.metadata.name} to terminate`);
      continue;
    }
    if (ordered && pod !== firstUnhealthy && (!isRunningAndReady(pod) || !isPodAvailable(pod, minReady, now))) {
      return stop(`${pod.metadata.name} to be healthy before scaling down`);
    }
    steps.push({ kind: 'delete', pod, why: 'condemned' });
    if (ordered) return stop(`${pod.metadata.name} to terminate`);
  }
  if (!rolling) return { steps };
  for (let i = slots.length - 1; i >= partition; i--) {
    const pod = slots[i];
    if (!pod) return stop(`ordinal ${start + i} to be created`);
    if (podRevision(pod) !== input.updateRevision && !isTerminating(pod)) {
      steps.push({ kind: 'delete', pod, why: 'update' });
      return stop(`${pod.metadata.name} to be recreated at the update revision`);
    }
    if (!isRunningAndReady(pod) || isTerminating(pod) || !isPodAvailable(pod, minReady, now)) return stop(`${pod.metadata.name} to be healthy`);
  }
  return { steps };
}
