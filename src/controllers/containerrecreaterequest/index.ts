/**
 * Registration of containerrecreaterequest-controller (docs/design/container-recreate.md §3): every
 * CRR, plus pods whose creation, deletion (start) or container statuses wake the unfinished
 * requests that target them (found by the pod-uid label).
 */
import type { Pod } from '../../api/core/index.js';
import { CRRPodUidLabel } from '../../api/kruise/ops/index.js';
import { ContainerRecreateRequests } from '../../api/kruise/resource-types.js';
import { Pods } from '../../api/resource-type.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import type { Controller } from '../../runtime/controller.js';
import type { EventMapper, Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { Manager } from '../../runtime/manager.js';
import { ContainerRecreateRequestReconciler } from './reconcile.js';
import { isFinished, type CRR } from './rules.js';

export { ContainerRecreateRequestReconciler } from './reconcile.js';
export const crrControllerName = 'containerrecreaterequest-controller';
const byPodUid = 'crr-pod-uid';

function podToRequests(requests: Informer<CRR>): EventMapper<Pod> {
  const unfinished = (pod: Pod): Request[] => requests.byIndex(byPodUid, pod.metadata.uid ?? '')
    .filter((crr) => !crr.metadata?.deletionTimestamp && !isFinished(crr))
    .map((crr) => ({ namespace: crr.metadata?.namespace, name: crr.metadata!.name! }));
  return {
    onAdd: unfinished,
    onDelete: unfinished,
    onUpdate: (old, pod) => ((!old.metadata.deletionTimestamp && pod.metadata.deletionTimestamp)
      || !deepEqual(old.status?.containerStatuses, pod.status?.containerStatuses) ? unfinished(pod) : []),
  };
}

/** 3 workers, as upstream's default `--crr-workers`. */
export function setupContainerRecreateRequestController(mgr: Manager, options: { workers?: number } = {}): Controller {
  return mgr.controllerFor<{ requests: CRR; pods: Pod }>(crrControllerName, { workers: options.workers ?? 3 })
    .for('requests', ContainerRecreateRequests)
    .withIndex('requests', byPodUid, (crr) => { const uid = crr.metadata?.labels?.[CRRPodUidLabel]; return uid ? [uid] : []; })
    .watches('pods', Pods, ({ informers }) => podToRequests(informers.requests))
    .complete(({ informers, client }) => new ContainerRecreateRequestReconciler({ client, requests: informers.requests, pods: informers.pods }));
}
