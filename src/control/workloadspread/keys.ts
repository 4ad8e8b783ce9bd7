/**
 * WorkloadSpread's keys and timings shared by the pod webhooks and the controller
 * (docs/design/workloadspread.md §2): the matched-workloadspread annotation, the deletion-cost
 * annotation, the fake subset and the bookkeeping timeouts.
 */
import type { Pod } from '../../api/core/index.js';
import { MatchedWorkloadSpreadAnnotation, VersionIgnoredKey } from '../../api/kruise/workloads/workload-spread.js';
import { controllerRef } from '../../runtime/indexers.js';

export { MatchedWorkloadSpreadAnnotation, VersionIgnoredKey };
export const PodDeletionCostAnnotation = 'controller.kubernetes.io/pod-deletion-cost';
/** Bucket of pods matching no subset (upstream's string, seen in event messages). */
export const FakeSubsetName = 'kruise.io/workloadspread-fake-subset-name';
/** A creation admitted by the webhook is expected in the cache within this time. */
export const CreatePodTimeoutMs = 30_000;
/** A deletion admitted by the webhook is expected to remove the pod within this time. */
export const DeletePodTimeoutMs = 15_000;
/** A subset marked unschedulable recovers after this time (MaxScheduledFailedDuration). */
export const MaxScheduledFailedMs = 300_000;
/** Condition type of subsetStatuses under adaptive scheduling. */
export const SchedulableCondition = 'Schedulable';
/** Owner kinds whose pods get a versioned status (`--ws-enabled-versioned-status`). */
export const versionedOwnerKinds = new Set(['Deployment', 'ReplicaSet']);

export interface InjectedSpread {
  name: string;
  subset: string;
  /** Identifies a pod that had no name at admission (generateName). */
  uid?: string;
}

export function injectedSpreadOf(pod: Pod): InjectedSpread | undefined {
  const raw = pod.metadata.annotations?.[MatchedWorkloadSpreadAnnotation];
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(raw) as InjectedSpread;
    return typeof parsed?.name === 'string' && typeof parsed.subset === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function formatInjectedSpread(value: InjectedSpread): string {
  return JSON.stringify(value.uid ? { name: value.name, subset: value.subset, uid: value.uid } : { name: value.name, subset: value.subset });
}

/** The versionedSubsetStatuses key of a pod: its template hash for Deployment/ReplicaSet pods. */
export function podVersion(pod: Pod): string {
  const owner = controllerRef(pod);
  if (!owner || !versionedOwnerKinds.has(owner.kind)) return VersionIgnoredKey;
  return pod.metadata.labels?.['pod-template-hash'] ?? pod.metadata.labels?.['controller-revision-hash'] ?? VersionIgnoredKey;
}

/** Active: not deleting and not finished. */
export function isActive(pod: Pod): boolean {
  return !pod.metadata.deletionTimestamp && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';
}
