/**
 * The whole status of a WorkloadSpread from its placed pods (docs/design/workloadspread.md §6):
 * versionedSubsetStatuses per pod version (the pod webhook's working copy), the aggregate
 * subsetStatuses with the adaptive conditions, and observedGeneration.
 */
import type { Pod } from '../../api/core/index.js';
import type { WorkloadSpread } from '../../api/kruise/workloads/workload-spread.js';
import { podVersion, type Spread, type SubsetCondition, type SubsetStatus } from '../../control/workloadspread/index.js';
import { aggregateSubsetStatus, subsetStatusOf, type StatusPass } from './subset-status.js';

export type SpreadStatus = NonNullable<WorkloadSpread['status']>;

function byVersion(pods: readonly Pod[]): Map<string, Pod[]> {
  const out = new Map<string, Pod[]>();
  for (const pod of pods) {
    const v = podVersion(pod);
    out.set(v, [...(out.get(v) ?? []), pod]);
  }
  return out;
}

const hasRecords = (s: SubsetStatus) => s.replicas > 0 || Object.keys(s.creatingPods ?? {}).length > 0 || Object.keys(s.deletingPods ?? {}).length > 0;

/** `conditions`: per subset under adaptive scheduling, undefined otherwise (conditions removed). */
export function computeStatus(ws: Spread, bySubset: Map<string, Pod[]>, replicas: number, conditions: Map<string, SubsetCondition[]> | undefined, pass: StatusPass): SpreadStatus {
  const podsBySubset = new Map(ws.spec.subsets.map((s) => [s.name, byVersion(bySubset.get(s.name) ?? [])]));
  const oldVersioned = ws.status?.versionedSubsetStatuses ?? {};
  const versions = new Set([...Object.keys(oldVersioned), ...[...podsBySubset.values()].flatMap((m) => [...m.keys()])]);
  const versioned: Record<string, SubsetStatus[]> = {};
  for (const version of [...versions].sort()) {
    const statuses = ws.spec.subsets.map((subset) => subsetStatusOf(
      subset, replicas, podsBySubset.get(subset.name)?.get(version) ?? [], oldVersioned[version]?.find((s) => s.name === subset.name), pass,
    ));
    const hasPods = [...podsBySubset.values()].some((m) => m.has(version));
    if (hasPods || statuses.some(hasRecords)) versioned[version] = statuses;
  }
  const oldAggregate = new Map((ws.status?.subsetStatuses ?? []).map((s) => [s.name, s]));
  const subsetStatuses = ws.spec.subsets.map((subset) => {
    const perVersion = Object.values(versioned).map((list) => list.find((s) => s.name === subset.name)!);
    const aggregate = aggregateSubsetStatus(subset, replicas, perVersion, undefined);
    const subsetConditions = conditions?.get(subset.name) ?? (conditions ? oldAggregate.get(subset.name)?.conditions : undefined);
    return subsetConditions?.length ? { ...aggregate, conditions: subsetConditions } : aggregate;
  });
  return {
    observedGeneration: ws.metadata.generation,
    subsetStatuses,
    ...(Object.keys(versioned).length > 0 && { versionedSubsetStatuses: versioned }),
  };
}
