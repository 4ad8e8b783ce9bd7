/**
 * The workload of a WorkloadSpread (docs/design/workloadspread.md §3): which kinds may be
 * targets and their resource types, how a target reference matches an object (group, kind and
 * name; the version does not count), and the replica count subsets scale against: `parallelism`
 * for a Job, `spec.replicas` otherwise, or the sum of `targetFilter.replicasPathList`.
 */
import type { Spread } from './subsets.js';
import { AdvancedStatefulSets, CloneSets } from '../../api/kruise/resource-types.js';
import type { KObject } from '../../api/meta.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import { Deployments, Jobs, ReplicaSets, StatefulSets, type ResourceType } from '../../api/resource-type.js';

export interface TargetRef { apiVersion: string; kind: string; name: string }

export const groupOfApiVersion = (apiVersion: string | undefined): string => {
  const slash = (apiVersion ?? '').indexOf('/');
  return slash < 0 ? '' : apiVersion!.slice(0, slash);
};

/** The resource types a target may be, keyed `group/Kind`. */
export const targetTypes: Record<string, ResourceType> = {
  'apps/Deployment': Deployments,
  'apps/ReplicaSet': ReplicaSets,
  'apps/StatefulSet': StatefulSets,
  'batch/Job': Jobs,
  'apps.kruise.io/CloneSet': CloneSets,
  'apps.kruise.io/StatefulSet': AdvancedStatefulSets,
};

export function targetTypeOf(ref: { apiVersion?: string; kind?: string }): ResourceType | undefined {
  return targetTypes[`${groupOfApiVersion(ref.apiVersion)}/${ref.kind}`];
}

/** Whether `ref` names `obj`, an object of resource type `type`. */
export function refersTo(ref: TargetRef, type: ResourceType, obj: KObject): boolean {
  return ref.name === obj.metadata.name && ref.kind === type.kind && groupOfApiVersion(ref.apiVersion) === type.group;
}

export const isStatefulSetTarget = (ws: Spread): boolean => ws.spec.targetRef.kind === 'StatefulSet';

/** A dot path into the object; a numeric segment indexes an array. */
function valueAt(obj: unknown, path: string): unknown {
  let current: unknown = obj;
  for (const segment of path.split('.').filter(Boolean)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = Array.isArray(current) ? current[Number(segment)] : (current as Record<string, unknown>)[segment];
  }
  return current;
}

export function workloadReplicas(ws: Spread, type: ResourceType, target: KObject): number {
  const paths = ws.spec.targetFilter?.replicasPathList ?? [];
  if (paths.length > 0) {
    return paths.reduce((sum, p) => {
      const v = valueAt(target, p);
      return sum + (typeof v === 'number' ? Math.trunc(v) : 0);
    }, 0);
  }
  const spec = (target as { spec?: { replicas?: number; parallelism?: number } }).spec;
  if (type.kind === 'Job') return spec?.parallelism ?? 1;
  return spec?.replicas ?? 1;
}

/** Whether `targetFilter.selector` (if any) selects the pod's labels. */
export function passesTargetFilter(ws: Spread, labels: Record<string, string> | undefined): boolean {
  const selector = ws.spec.targetFilter?.selector;
  if (!selector) return true;
  try {
    return selectorFromLabelSelector(selector as MetaLabelSelector).matches(labels);
  } catch {
    return false;
  }
}
