/**
 * Registration of uniteddeployment-controller (always on; docs/design/uniteddeployment.md §3):
 * UnitedDeployments, the subset workloads of the four kinds and the ControllerRevisions they own,
 * and pods (for readiness and revision counts, mapped to the UnitedDeployments selecting them).
 */
import type { ControllerRevision, Pod } from '../../api/core/index.js';
import { AdvancedStatefulSets, CloneSets, UnitedDeployments } from '../../api/kruise/resource-types.js';
import { SubsetNameLabel, type UnitedDeployment } from '../../api/kruise/workloads/united-deployment.js';
import type { KObject } from '../../api/meta.js';
import { ControllerRevisions, Deployments, Pods, StatefulSets } from '../../api/resource-type.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import type { Controller } from '../../runtime/controller.js';
import type { Informer } from '../../runtime/informer.js';
import type { Manager } from '../../runtime/manager.js';
import { UnitedDeploymentReconciler } from './reconcile.js';

export const unitedDeploymentControllerName = 'uniteddeployment-controller';

interface Caches {
  uds: UnitedDeployment; revisions: ControllerRevision; pods: Pod;
  statefulSets: KObject; advancedStatefulSets: KObject; cloneSets: KObject; deployments: KObject;
}

function selecting(uds: Informer<UnitedDeployment>) {
  return (pod: Pod) => {
    if (!pod.metadata.labels?.[SubsetNameLabel]) return [];
    return uds.byIndex('namespace', pod.metadata.namespace!).filter((ud) => {
      try {
        return selectorFromLabelSelector(ud.spec?.selector as MetaLabelSelector).matches(pod.metadata.labels);
      } catch {
        return false;
      }
    }).map((ud) => ({ namespace: ud.metadata.namespace, name: ud.metadata.name! }));
  };
}

export function setupUnitedDeploymentController(mgr: Manager, options: { workers?: number } = {}): Controller {
  return mgr.controllerFor<Caches>(unitedDeploymentControllerName, { workers: options.workers ?? 3 })
    .for('uds', UnitedDeployments, { indexes: ['namespace'] })
    .owns('statefulSets', StatefulSets)
    .owns('advancedStatefulSets', AdvancedStatefulSets)
    .owns('cloneSets', CloneSets)
    .owns('deployments', Deployments)
    .owns('revisions', ControllerRevisions)
    .watches('pods', Pods, ({ informers }) => selecting(informers.uds), { indexes: ['namespace'] })
    .complete(({ informers, client, events, expectations }) => new UnitedDeploymentReconciler({
      client, uds: informers.uds, revisions: informers.revisions, pods: informers.pods, events, writes: expectations.updates,
      workloads: new Map<string, Informer<KObject>>([
        ['statefulSetTemplate', informers.statefulSets], ['advancedStatefulSetTemplate', informers.advancedStatefulSets],
        ['cloneSetTemplate', informers.cloneSets], ['deploymentTemplate', informers.deployments],
      ]),
    }));
}
