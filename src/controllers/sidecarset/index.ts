/**
 * Registration of sidecarset-controller (docs/design/sidecarset.md §4): every SidecarSet; pods wake
 * the SidecarSets named in their injected-list annotation; revisions are read from the Kruise
 * namespace and Namespaces for namespaceSelector.
 */
import type { ControllerRevision, Namespace, Pod } from '../../api/core/index.js';
import { SidecarSets } from '../../api/kruise/resource-types.js';
import { ControllerRevisions, Namespaces, Pods } from '../../api/resource-type.js';
import { injectedSidecarSets, type SidecarSet } from '../../control/sidecarcontrol/index.js';
import type { Controller } from '../../runtime/controller.js';
import type { Manager } from '../../runtime/manager.js';
import { injectedIndex, revisionIndex, SidecarSetReconciler } from './reconcile.js';
import { PodTally } from './pod-tally.js';
import { SidecarSetNameLabel } from '../../api/kruise/ops/sidecarset.js';

export { SidecarSetReconciler } from './reconcile.js';
export { PodTally } from './pod-tally.js';
export const sidecarSetControllerName = 'sidecarset-controller';

interface Caches { sets: SidecarSet; pods: Pod; revisions: ControllerRevision; namespaces: Namespace }

export function setupSidecarSetController(mgr: Manager, options: { workers?: number; kruiseNamespace?: string } = {}): Controller {
  const kruiseNamespace = options.kruiseNamespace ?? (process.env.POD_NAMESPACE || 'kruise-system');
  let tally: PodTally | undefined;
  return mgr.controllerFor<Caches>(sidecarSetControllerName, { workers: options.workers ?? 3 })
    .for('sets', SidecarSets)
    .watches('pods', Pods, () => (pod) => injectedSidecarSets(pod).map((name) => ({ name })))
    .withIndex('pods', injectedIndex, (pod) => injectedSidecarSets(pod))
    .reads('revisions', ControllerRevisions)
    .withIndex('revisions', revisionIndex, (r) => { const name = r.metadata.labels?.[SidecarSetNameLabel]; return name ? [name] : []; })
    .reads('namespaces', Namespaces)
    // status counts follow pod and namespace events (pod-tally.ts)
    .observes('pods', ({ informers }) => (tally ??= new PodTally(informers)).podHandler())
    .observes('namespaces', ({ informers }) => (tally ??= new PodTally(informers)).namespaceHandler())
    .complete(({ informers, client, expectations, events }) => new SidecarSetReconciler({
      client, sets: informers.sets, pods: informers.pods, namespaces: informers.namespaces, revisions: informers.revisions,
      writes: expectations.updates, events, kruiseNamespace, tally: tally!,
    }));
}
