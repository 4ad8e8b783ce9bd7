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
import { injectedIndex, SidecarSetReconciler } from './reconcile.js';

export { SidecarSetReconciler } from './reconcile.js';
export const sidecarSetControllerName = 'sidecarset-controller';

interface Caches { sets: SidecarSet; pods: Pod; revisions: ControllerRevision; namespaces: Namespace }

export function setupSidecarSetController(mgr: Manager, options: { workers?: number; kruiseNamespace?: string } = {}): Controller {
  const kruiseNamespace = options.kruiseNamespace ?? (process.env.POD_NAMESPACE || 'kruise-system');
  return mgr.controllerFor<Caches>(sidecarSetControllerName, { workers: options.workers ?? 3 })
    .for('sets', SidecarSets)
    .watches('pods', Pods, () => (pod) => injectedSidecarSets(pod).map((name) => ({ name })))
    .withIndex('pods', injectedIndex, (pod) => injectedSidecarSets(pod))
    .reads('revisions', ControllerRevisions)
    .reads('namespaces', Namespaces)
    .complete(({ informers, client, expectations, events }) => new SidecarSetReconciler({
      client, sets: informers.sets, pods: informers.pods, namespaces: informers.namespaces, revisions: informers.revisions,
      writes: expectations.updates, events, kruiseNamespace,
    }));
}
