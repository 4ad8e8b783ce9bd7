/**
 * Registration of workloadspread-controller (gate WorkloadSpread; docs/design/workloadspread.md §6):
 * woken by its WorkloadSpreads, by pods (the WorkloadSpread named in their annotation, or those
 * targeting their owner) and by every supported workload kind (the WorkloadSpreads targeting it).
 */
import type { Node, Pod } from '../../api/core/index.js';
import { AdvancedStatefulSets, CloneSets, WorkloadSpreads } from '../../api/kruise/resource-types.js';
import type { KObject } from '../../api/meta.js';
import { Deployments, Jobs, Nodes, Pods, ReplicaSets, StatefulSets, type ResourceType } from '../../api/resource-type.js';
import { injectedSpreadOf, refersTo, SpreadStatusWriter, type Spread } from '../../control/workloadspread/index.js';
import type { Controller } from '../../runtime/controller.js';
import type { Request } from '../../runtime/handlers.js';
import { controllerRef } from '../../runtime/indexers.js';
import type { Informer } from '../../runtime/informer.js';
import type { Manager } from '../../runtime/manager.js';
import { WorkloadSpreadReconciler } from './reconcile.js';

export const workloadSpreadControllerName = 'workloadspread-controller';

export interface WorkloadSpreadControllerOptions {
  /** Concurrent reconciles (upstream --workloadspread-workers, default 3). */
  workers?: number;
  /** Time a subset stays unschedulable under adaptive scheduling (default 300 s, upstream's constant). */
  recoverAfterMs?: number;
}

interface Caches {
  spreads: Spread; pods: Pod; nodes: Node;
  deployments: KObject; replicaSets: KObject; statefulSets: KObject; jobs: KObject; cloneSets: KObject; advancedStatefulSets: KObject;
}

const keyOf = (ws: Spread): Request => ({ namespace: ws.metadata.namespace, name: ws.metadata.name! });

/** WorkloadSpreads of the object's namespace targeting it. */
const targeting = (spreads: Informer<Spread>, type: ResourceType) => (obj: KObject): Request[] =>
  spreads.byIndex('namespace', obj.metadata.namespace!).filter((ws) => ws.spec && refersTo(ws.spec.targetRef, type, obj)).map(keyOf);

function podToSpreads(spreads: Informer<Spread>, replicaSets: Informer<KObject>) {
  return (pod: Pod): Request[] => {
    const injected = injectedSpreadOf(pod);
    if (injected) return [{ namespace: pod.metadata.namespace, name: injected.name }];
    const owner = controllerRef(pod);
    if (!owner) return [];
    const names = new Set([owner.name]);
    if (owner.kind === 'ReplicaSet') {
      const parent = controllerRef(replicaSets.get(pod.metadata.namespace, owner.name) ?? { metadata: {} });
      if (parent) names.add(parent.name);
    }
    return spreads.byIndex('namespace', pod.metadata.namespace!).filter((ws) => ws.spec && names.has(ws.spec.targetRef.name)).map(keyOf);
  };
}

export function setupWorkloadSpreadController(mgr: Manager, options: WorkloadSpreadControllerOptions = {}): Controller {
  const workload = { indexes: ['namespace', 'controllerUid'] as const };
  return mgr.controllerFor<Caches>(workloadSpreadControllerName, { workers: options.workers ?? 3 })
    .for('spreads', WorkloadSpreads, { indexes: ['namespace'] })
    .observes('spreads', () => ({ onDelete: (ws: Spread) => { SpreadStatusWriter.forget(ws.metadata.uid!); } }))
    .watches('replicaSets', ReplicaSets, ({ informers }) => targeting(informers.spreads, ReplicaSets), { indexes: ['namespace', 'controllerUid'] })
    .watches('pods', Pods, ({ informers }) => podToSpreads(informers.spreads, informers.replicaSets), { indexes: ['namespace', 'controllerUid'] })
    .reads('nodes', Nodes)
    .watches('deployments', Deployments, ({ informers }) => targeting(informers.spreads, Deployments), { indexes: [...workload.indexes] })
    .watches('statefulSets', StatefulSets, ({ informers }) => targeting(informers.spreads, StatefulSets), { indexes: [...workload.indexes] })
    .watches('jobs', Jobs, ({ informers }) => targeting(informers.spreads, Jobs), { indexes: [...workload.indexes] })
    .watches('cloneSets', CloneSets, ({ informers }) => targeting(informers.spreads, CloneSets), { indexes: [...workload.indexes] })
    .watches('advancedStatefulSets', AdvancedStatefulSets, ({ informers }) => targeting(informers.spreads, AdvancedStatefulSets), { indexes: [...workload.indexes] })
    .complete(({ informers, client, events }) => new WorkloadSpreadReconciler({
      client, spreads: informers.spreads, pods: informers.pods, nodes: informers.nodes, events,
      recoverAfterMs: options.recoverAfterMs ?? 300_000,
      targets: new Map<string, Informer<KObject>>([
        ['apps/Deployment', informers.deployments], ['apps/ReplicaSet', informers.replicaSets], ['apps/StatefulSet', informers.statefulSets],
        ['batch/Job', informers.jobs], ['apps.kruise.io/CloneSet', informers.cloneSets], ['apps.kruise.io/StatefulSet', informers.advancedStatefulSets],
      ]),
    }));
}
