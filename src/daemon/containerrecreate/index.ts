/**
 * The daemon's ContainerRecreateRequest controller (docs/design/container-recreate.md §4): it sees
 * only the active requests labelled with its node, and queues them by pod (`<ns>/<podName>`), so one
 * pod's requests are worked on one at a time while 32 workers serve different pods. Retries back off
 * from 0.5 s to 50 s as upstream's do.
 */
import { CRRActiveLabel, CRRNodeNameLabel } from '../../api/kruise/ops/index.js';
import { ContainerRecreateRequests } from '../../api/kruise/resource-types.js';
import { exponentialRateLimiter } from '../../machinery/workqueue/rate-limiter.js';
import type { Controller } from '../../runtime/controller.js';
import type { Request } from '../../runtime/handlers.js';
import type { DaemonContext } from '../controllers.js';
import { byPodKey, DaemonCRRReconciler, podKeyOf } from './reconcile.js';
import { CRRStatusWriter, type CRR } from './status-writes.js';

export const daemonCRRControllerName = 'crr-daemon-controller';

/** Every event wakes the pod, a request finishing or leaving too: the next one of the pod may go. */
const podRequest = (crr: CRR): Request[] => (crr.spec?.podName ? [{ namespace: crr.metadata.namespace, name: crr.spec.podName }] : []);

export function setupContainerRecreateController(ctx: DaemonContext): Controller {
  const { mgr } = ctx;
  const labelSelector = `${CRRNodeNameLabel}=${ctx.nodeName},${CRRActiveLabel}=true`;
  const requests = mgr.informerFor<CRR>(ContainerRecreateRequests, { labelSelector });
  requests.addIndexer(byPodKey, (crr) => [podKeyOf(crr)]);
  const status = new CRRStatusWriter(mgr.client, mgr.clock);
  const reconciler = new DaemonCRRReconciler({
    requests, runtimes: ctx.runtimes, status, clock: mgr.clock, events: mgr.eventRecorder('kruise-daemon-crr'),
  });
  // The queue key is the pod, not the request, so the builder's for(self) does not fit.
  const controller = mgr.newController({
    name: daemonCRRControllerName, reconciler, workers: 32, rateLimiter: exponentialRateLimiter({ baseMs: 500, maxMs: 50_000 }),
  });
  controller.watches(requests, { onAdd: podRequest, onUpdate: (_old, crr) => podRequest(crr), onDelete: (crr) => { status.forget(crr); return podRequest(crr); } });
  return controller;
}
