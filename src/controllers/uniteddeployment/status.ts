/**
 * UnitedDeployment status (docs/design/uniteddeployment.md §5): sums over the subset workloads,
 * updated counts from the pods carrying the updated revision, the current revision catching up
 * once every replica is updated and ready, conditions and the label selector for the scale
 * subresource.
 */
import type { Pod } from '../../api/core/index.js';
import { UnitedDeploymentRevisionLabel, type UnitedDeployment, type UnitedDeploymentStatus } from '../../api/kruise/workloads/united-deployment.js';
import type { KObject } from '../../api/meta.js';
import { isPodReady } from '../../control/podutil/index.js';
import { labelSelectorToString, type MetaLabelSelector } from '../../machinery/labels.js';
import { rfc3339 } from '../../machinery/time.js';
import type { SubsetCondition } from './adaptive.js';
import { countsOf } from './subset-kinds.js';

type Condition = NonNullable<UnitedDeploymentStatus['conditions']>[number];

export interface SubsetFacts {
  name: string;
  workload?: KObject;
  allocated: number;
  partition: number;
  conditions?: SubsetCondition[];
}

function setCondition(conditions: Condition[], next: Condition, now: number): Condition[] {
  const old = conditions.find((c) => c.type === next.type);
  if (old && old.status === next.status && old.reason === next.reason && old.message === next.message) return conditions;
  const lastTransitionTime = old && old.status === next.status ? old.lastTransitionTime : rfc3339(now);
  return [...conditions.filter((c) => c.type !== next.type), { ...next, lastTransitionTime }];
}

const isActive = (p: Pod) => !p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed';

export function computeStatus(ud: UnitedDeployment, subsets: SubsetFacts[], pods: readonly Pod[], updatedRevision: string, collisionCount: number, provisionError: string | undefined, now: number): UnitedDeploymentStatus {
  const old = ud.status;
  const updated = pods.filter((p) => isActive(p) && p.metadata.labels?.[UnitedDeploymentRevisionLabel] === updatedRevision);
  const updatedReadyReplicas = updated.filter(isPodReady).length;
  const total = ud.spec?.replicas ?? 1;
  const currentRevision = !old?.currentRevision || updatedReadyReplicas >= total ? updatedRevision : old.currentRevision;
  let conditions = old?.conditions ?? [];
  conditions = setCondition(conditions, provisionError
    ? { type: 'SubsetProvisioned', status: 'False', reason: 'Error', message: provisionError }
    : { type: 'SubsetProvisioned', status: 'True' }, now);
  conditions = setCondition(conditions, { type: 'SubsetUpdated', status: 'True' }, now);
  conditions = setCondition(conditions, currentRevision === updatedRevision
    ? { type: 'UnitedDeploymentUpdated', status: 'True', reason: 'UnitedDeploymentRevisionUpdated', message: `updated to revision ${updatedRevision}` }
    : { type: 'UnitedDeploymentUpdated', status: 'False', reason: 'UnitedDeploymentRevisionUpdating', message: `updating to revision ${updatedRevision}` }, now);
  const counts = subsets.map((s) => (s.workload ? countsOf(s.workload) : { replicas: 0, readyReplicas: 0 }));
  return {
    observedGeneration: ud.metadata.generation,
    replicas: counts.reduce((n, c) => n + c.replicas, 0),
    readyReplicas: counts.reduce((n, c) => n + c.readyReplicas, 0),
    updatedReplicas: updated.length,
    updatedReadyReplicas,
    collisionCount,
    currentRevision,
    updatedRevision,
    subsetStatuses: subsets.map((s, i) => ({
      name: s.name, replicas: s.allocated, readyReplicas: counts[i].readyReplicas, partition: s.partition,
      // the schema type wrongly demands lastUpdateTime (an optional field spread in conditionally)
      ...(s.conditions?.length && { conditions: s.conditions as never }),
    })),
    conditions,
    labelSelector: labelSelectorToString(ud.spec!.selector as MetaLabelSelector),
  };
}
