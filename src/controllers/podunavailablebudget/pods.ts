/**
 * The pods a PodUnavailableBudget counts and the replica total it expects
 * (docs/design/podunavailablebudget.md §5): the active pods of its target workload (a Deployment's
 * through its ReplicaSets) and the workload's replicas, or the active pods its selector matches in
 * the namespace and the replicas of their distinct workloads; protectTotalReplicas overrides.
 */
import type { Pod } from '../../api/core/index.js';
import type { KObject, OwnerReference } from '../../api/meta.js';
import { PubProtectTotalReplicasAnnotation } from '../../api/kruise/ops/podunavailablebudget.js';
import { isPodActive } from '../../control/podutil/index.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import type { PodUnavailableBudget } from '../../control/pubcontrol/index.js';
import type { Informer } from '../../runtime/informer.js';

export type Workload = KObject & { spec?: { replicas?: number } };

export interface WorkloadCaches {
  pods: Informer<Pod>;
  deployments: Informer<Workload>;
  replicaSets: Informer<Workload>;
  statefulSets: Informer<Workload>;
  cloneSets: Informer<Workload>;
  advancedStatefulSets: Informer<Workload>;
}

const groupOf = (apiVersion: string | undefined) => (apiVersion?.includes('/') ? apiVersion.split('/')[0] : '');

/** The cache of a supported workload kind (group compared, version ignored). */
export function workloadCache(c: WorkloadCaches, apiVersion: string | undefined, kind: string | undefined): Informer<Workload> | undefined {
  const group = groupOf(apiVersion);
  if (group === 'apps') return ({ Deployment: c.deployments, ReplicaSet: c.replicaSets, StatefulSet: c.statefulSets } as Record<string, Informer<Workload>>)[kind ?? ''];
  if (group === 'apps.kruise.io') return ({ CloneSet: c.cloneSets, StatefulSet: c.advancedStatefulSets } as Record<string, Informer<Workload>>)[kind ?? ''];
  return undefined;
}

const replicasOf = (w: Workload) => w.spec?.replicas ?? 1;
const ownedPods = (c: WorkloadCaches, uid: string) => c.pods.byIndex('controllerUid', uid);
const controllerOf = (o: KObject): OwnerReference | undefined => o.metadata.ownerReferences?.find((r) => r.controller);

function podsOfWorkload(c: WorkloadCaches, kind: string, w: Workload): Pod[] {
  if (kind !== 'Deployment' || groupOf(w.apiVersion) === 'apps.kruise.io') return ownedPods(c, w.metadata.uid!);
  const sets = c.replicaSets.byIndex('controllerUid', w.metadata.uid!);
  return sets.flatMap((rs) => ownedPods(c, rs.metadata.uid!));
}

/** The workload counted for a pod's controller: a ReplicaSet's Deployment when it has one. */
function expectedFor(c: WorkloadCaches, namespace: string, ref: OwnerReference): { key: string; replicas: number } | undefined {
  const cache = workloadCache(c, ref.apiVersion, ref.kind);
  const w = cache?.get(namespace, ref.name);
  if (!w || w.metadata.uid !== ref.uid) return undefined;
  const parent = ref.kind === 'ReplicaSet' ? controllerOf(w) : undefined;
  if (parent?.kind === 'Deployment') {
    const d = c.deployments.get(namespace, parent.name);
    if (d) return { key: d.metadata.uid!, replicas: replicasOf(d) };
  }
  return { key: w.metadata.uid!, replicas: replicasOf(w) };
}

export interface PubPods { pods: Pod[]; total: number }

export function podsForPub(c: WorkloadCaches, pub: PodUnavailableBudget): PubPods {
  const namespace = pub.metadata.namespace!;
  // the v1alpha1 annotation, when a v1beta1 write kept it, counts like the field
  const annotated = Number.parseInt(pub.metadata.annotations?.[PubProtectTotalReplicasAnnotation] ?? '', 10);
  const override = pub.spec?.protectTotalReplicas ?? (Number.isInteger(annotated) ? annotated : undefined);
  const target = pub.spec?.targetRef;
  if (target) {
    const w = workloadCache(c, target.apiVersion, target.kind)?.get(namespace, target.name ?? '');
    if (!w || w.metadata.deletionTimestamp) return { pods: [], total: override ?? 0 };
    return { pods: podsOfWorkload(c, target.kind!, w).filter(isPodActive), total: override ?? replicasOf(w) };
  }
  const selector = pub.spec?.selector as MetaLabelSelector | undefined;
  if (!selector || (!selector.matchLabels && !selector.matchExpressions?.length)) return { pods: [], total: 0 };
  const matches = selectorFromLabelSelector(selector);
  const pods = c.pods.byIndex('namespace', namespace).filter((p) => isPodActive(p) && matches.matches(p.metadata.labels));
  if (override !== undefined) return { pods, total: override };
  const workloads = new Map<string, number>();
  for (const pod of pods) {
    const ref = controllerOf(pod);
    const expected = ref && expectedFor(c, namespace, ref);
    if (expected) workloads.set(expected.key, expected.replicas);
  }
  return { pods, total: [...workloads.values()].reduce((a, b) => a + b, 0) };
}
