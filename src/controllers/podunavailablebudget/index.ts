/**
 * Registration of podunavailablebudget-controller (gates PodUnavailableBudgetDeleteGate or
 * ...UpdateGate): woken by its PUBs, by pod changes that move availability or binding, and by
 * replica changes or deletion of the workloads a PUB targets or selects
 * (docs/design/podunavailablebudget.md §5).
 */
import type { Pod } from '../../api/core/index.js';
import { AdvancedStatefulSets, CloneSets, PodUnavailableBudgets } from '../../api/kruise/resource-types.js';
import { Deployments, Pods, ReplicaSets, StatefulSets } from '../../api/resource-type.js';
import { isPubAvailable, relatedPub } from '../../control/pubcontrol/index.js';
import type { PodUnavailableBudget } from '../../control/pubcontrol/index.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import type { Controller } from '../../runtime/controller.js';
import type { EventMapper, Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { Manager } from '../../runtime/manager.js';
import type { Workload } from './pods.js';
import { PubReconciler } from './reconcile.js';

export const podUnavailableBudgetControllerName = 'podunavailablebudget-controller';

interface Caches {
  pubs: PodUnavailableBudget; pods: Pod; deployments: Workload; replicaSets: Workload;
  statefulSets: Workload; cloneSets: Workload; advancedStatefulSets: Workload;
}

const keyOf = (p: PodUnavailableBudget): Request => ({ namespace: p.metadata.namespace, name: p.metadata.name! });

/** A pod's PUB by its annotation; an unbound pod wakes every PUB of its namespace (they decide). */
function podToPubs(pubs: Informer<PodUnavailableBudget>): EventMapper<Pod> {
  const map = (pod: Pod): Request[] => {
    const name = relatedPub(pod);
    if (name) return [{ namespace: pod.metadata.namespace, name }];
    return pubs.byIndex('namespace', pod.metadata.namespace!).map(keyOf);
  };
  return {
    onAdd: map,
    onDelete: map,
    onUpdate: (old, pod) => (isPubAvailable(old) !== isPubAvailable(pod) || !!old.metadata.deletionTimestamp !== !!pod.metadata.deletionTimestamp
      || relatedPub(old) !== relatedPub(pod) ? map(pod) : []),
  };
}

/** PUBs naming the workload, or whose selector matches its pod template. */
function workloadToPubs(pubs: Informer<PodUnavailableBudget>, kind: string): EventMapper<Workload> {
  const map = (w: Workload): Request[] => pubs.byIndex('namespace', w.metadata.namespace!).filter((pub) => {
    const target = pub.spec?.targetRef;
    if (target) return target.kind === kind && target.name === w.metadata.name;
    const labels = (w.spec as { template?: { metadata?: { labels?: Record<string, string> } } } | undefined)?.template?.metadata?.labels;
    return !!pub.spec?.selector && selectorFromLabelSelector(pub.spec.selector as MetaLabelSelector).matches(labels);
  }).map(keyOf);
  return { onAdd: map, onDelete: map, onUpdate: (old, w) => (old.spec?.replicas !== w.spec?.replicas ? map(w) : []) };
}

export function setupPodUnavailableBudgetController(mgr: Manager, options: { workers?: number } = {}): Controller {
  return mgr.controllerFor<Caches>(podUnavailableBudgetControllerName, { workers: options.workers ?? 3 })
    .for('pubs', PodUnavailableBudgets, { indexes: ['namespace'] })
    .watches('pods', Pods, ({ informers }) => podToPubs(informers.pubs), { indexes: ['namespace', 'controllerUid'] })
    .watches('deployments', Deployments, ({ informers }) => workloadToPubs(informers.pubs, 'Deployment'), { indexes: ['namespace'] })
    .reads('replicaSets', ReplicaSets, { indexes: ['controllerUid'] })
    .watches('statefulSets', StatefulSets, ({ informers }) => workloadToPubs(informers.pubs, 'StatefulSet'), { indexes: ['namespace'] })
    .watches('cloneSets', CloneSets, ({ informers }) => workloadToPubs(informers.pubs, 'CloneSet'), { indexes: ['namespace'] })
    .watches('advancedStatefulSets', AdvancedStatefulSets, ({ informers }) => workloadToPubs(informers.pubs, 'StatefulSet'), { indexes: ['namespace'] })
    .complete(({ informers, client, events }) => new PubReconciler({ ...informers, client, events }));
}
