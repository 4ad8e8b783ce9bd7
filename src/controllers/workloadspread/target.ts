/**
 * The workload of a WorkloadSpread as the controller sees it in its caches (docs/design/workloadspread.md §3):
 * the target object, its pods (owned by it; for a Deployment, owned by its ReplicaSets; for a Job,
 * also matching its selector) passed through targetFilter, the replica count, and which pods are
 * on the workload's latest version.
 */
import type { Pod } from '../../api/core/index.js';
import type { KObject } from '../../api/meta.js';
import type { ResourceType } from '../../api/resource-type.js';
import { passesTargetFilter, targetTypeOf, workloadReplicas, type Spread } from '../../control/workloadspread/index.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import type { Informer } from '../../runtime/informer.js';

export interface Workload {
  type: ResourceType;
  target: KObject;
  pods: Pod[];
  replicas: number;
  /** False for pods of an older version (their subset order is reversed for deletion cost); undefined while unknown. */
  isLatest(pod: Pod): boolean | undefined;
}

export interface WorkloadCaches {
  pods: Informer<Pod>;
  /** Informers of every supported target kind, keyed `group/Kind`. */
  targets: Map<string, Informer<KObject>>;
}

type Revisioned = KObject & { spec?: { template?: unknown; selector?: MetaLabelSelector }; status?: { updateRevision?: string; observedGeneration?: number } };

export function resolveWorkload(ws: Spread, caches: WorkloadCaches): Workload | undefined {
  const ref = ws.spec.targetRef;
  const type = targetTypeOf(ref);
  if (!type) return undefined;
  const target = caches.targets.get(`${type.group}/${type.kind}`)?.get(ws.metadata.namespace, ref.name) as Revisioned | undefined;
  if (!target) return undefined;
  const owned = (uid: string) => caches.pods.byIndex('controllerUid', uid);
  let pods: Pod[];
  let isLatest: Workload['isLatest'] = () => true;
  if (type.kind === 'Deployment') {
    const sets = caches.targets.get('apps/ReplicaSet')!.byIndex('controllerUid', target.metadata.uid!);
    pods = sets.flatMap((rs) => owned(rs.metadata.uid!));
    const revision = target.metadata.annotations?.['deployment.kubernetes.io/revision'];
    const newest = sets.find((rs) => revision !== undefined && rs.metadata.annotations?.['deployment.kubernetes.io/revision'] === revision);
    const hash = newest?.metadata.labels?.['pod-template-hash'];
    isLatest = (pod) => (hash === undefined ? undefined : pod.metadata.labels?.['pod-template-hash'] === hash);
  } else {
    pods = owned(target.metadata.uid!);
    if (type.kind === 'Job' && target.spec?.selector) {
      const selector = selectorFromLabelSelector(target.spec.selector);
      pods = pods.filter((p) => selector.matches(p.metadata.labels));
    }
    if (type.kind === 'CloneSet') {
      const stale = (target.metadata.generation ?? 0) > (target.status?.observedGeneration ?? 0);
      const revision = target.status?.updateRevision;
      isLatest = (pod) => (stale || !revision ? undefined : pod.metadata.labels?.['controller-revision-hash'] === revision);
    }
  }
  pods = pods.filter((p) => passesTargetFilter(ws, p.metadata.labels));
  return { type, target, pods, replicas: workloadReplicas(ws, type, target), isLatest };
}
