/**
 * Which subset a new pod goes to (docs/design/workloadspread.md §4): StatefulSet pods by ordinal
 * against the cumulative maxReplicas; other pods take the first schedulable subset with room in
 * their version's status, recording the pod in creatingPods so concurrent creates see the room
 * taken. A pod already recorded (a re-created name) keeps its subset and writes nothing.
 */
import type { Pod } from '../../api/core/index.js';
import { isStatefulSetTarget } from './workload.js';
import { initialSubsetStatuses, isUnschedulable, type Spread, type Subset, type SubsetStatus } from './subsets.js';

const unboundedThreshold = 2 ** 31 - 1;

export interface SubsetChoice {
  subset: Subset;
  /** The key recorded in creatingPods when the pod had no name (also put into the annotation). */
  generatedUid?: string;
}

/** A StatefulSet pod's ordinal, from the trailing `-<n>` of its name. */
export function ordinalOf(name: string | undefined): number | undefined {
  const m = /-(\d+)$/.exec(name ?? '');
  return m ? Number(m[1]) : undefined;
}

/** Subsets without status writes: a lone unbounded subset, or a StatefulSet ordinal; undefined = needs the status. */
export function chooseWithoutStatus(ws: Spread, pod: Pod): { subset?: Subset } | undefined {
  const subsets = ws.spec.subsets;
  if (subsets.length === 1 && (subsets[0].maxReplicas === undefined || subsets[0].maxReplicas === null)) return { subset: subsets[0] };
  if (!isStatefulSetTarget(ws)) return undefined;
  const ordinal = ordinalOf(pod.metadata.name);
  if (ordinal === undefined) return {};
  const statuses = ws.status?.subsetStatuses ?? [];
  let threshold = 0;
  for (const subset of subsets) {
    if (isUnschedulable(statuses.find((s) => s.name === subset.name))) continue;
    threshold += typeof subset.maxReplicas === 'number' ? subset.maxReplicas : unboundedThreshold;
    if (ordinal < threshold) return { subset };
  }
  return {};
}

/**
 * Picks a subset on `copy` (the newest WorkloadSpread) and records the pod in it; returns whether
 * the status changed. `newUid` names a pod without a name.
 */
export function chooseAndRecord(copy: Spread, pod: Pod, version: string, replicas: number, now: string, newUid: () => string): { choice?: SubsetChoice; changed: boolean } {
  const status = (copy.status ??= {});
  const versioned = (status.versionedSubsetStatuses ??= {});
  const statuses: SubsetStatus[] = versioned[version]?.length ? versioned[version] : initialSubsetStatuses(copy, replicas);
  const name = pod.metadata.name;
  if (name) {
    const recorded = statuses.find((s) => s.creatingPods?.[name] || s.deletingPods?.[name]);
    const subset = recorded && copy.spec.subsets.find((s) => s.name === recorded.name);
    if (subset) return { choice: { subset }, changed: false };
  }
  const unschedulable = new Set((status.subsetStatuses ?? []).filter(isUnschedulable).map((s) => s.name));
  for (const subset of copy.spec.subsets) {
    if (unschedulable.has(subset.name)) continue;
    const st = statuses.find((s) => s.name === subset.name);
    if (!st || (st.missingReplicas <= 0 && st.missingReplicas !== -1)) continue;
    if (st.missingReplicas === -1) return { choice: { subset }, changed: false };
    const generatedUid = name ? undefined : newUid();
    st.creatingPods = { ...st.creatingPods, [name ?? generatedUid!]: now };
    st.missingReplicas--;
    versioned[version] = statuses;
    return { choice: { subset, ...(generatedUid && { generatedUid }) }, changed: true };
  }
  return { changed: false };
}
