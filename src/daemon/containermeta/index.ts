/**
 * The daemon's container meta controller (upstream pkg/daemon/containermeta, gate DaemonWatchingPod;
 * docs/design/container-meta.md): watches the pods bound to its node only, reports each Kruise
 * pod's runtime containers in `apps.kruise.io/runtime-containers-meta`, and with gate
 * InPlaceUpdateEnvFromMetadata restarts containers whose env from labels/annotations is out of
 * date during an in-place update. Two queues, as upstream: pods (5 workers, backoff 0.5 s to 50 s)
 * and container restarts (backoff 3 s to 10 min), so a slow stop never holds up reporting.
 */
import { Pods } from '../../api/resource-type.js';
import { exponentialRateLimiter } from '../../machinery/workqueue/rate-limiter.js';
import { ResourceVersionExpectations } from '../../runtime/expectations.js';
import type { Controller } from '../../runtime/controller.js';
import type { DaemonContext } from '../controllers.js';
import { reportOutdated, worthAdding } from './pod-filter.js';
import { ContainerMetaReconciler } from './reconcile.js';
import { ContainerRestarter, restartRequest } from './restarter.js';
import type { Pod } from '../../api/core/index.js';

export const containerMetaControllerName = 'containermeta';
/** Pod events wait this long before a sync, so a burst of kubelet writes is looked at once (upstream: 1 s). */
export const podEventDelayMs = 1_000;

export function setupContainerMetaController(ctx: DaemonContext): { meta: Controller; restarter: Controller } {
  const { mgr, runtimes } = ctx;
  const envFromMetadata = ctx.gate('InPlaceUpdateEnvFromMetadata');
  const pods = mgr.informerFor<Pod>(Pods, { fieldSelector: `spec.nodeName=${ctx.nodeName}` });
  const writes = new ResourceVersionExpectations({ clock: mgr.clock, timeoutMs: 30_000 });
  const restarter = mgr.newController({
    name: `${containerMetaControllerName}-restarter`, workers: 2,
    reconciler: new ContainerRestarter(runtimes, mgr.eventRecorder('kruise-daemon-containermeta')),
    rateLimiter: exponentialRateLimiter({ baseMs: 3_000, maxMs: 600_000 }),
  });
  const meta = mgr.newController({
    name: containerMetaControllerName, workers: 5,
    reconciler: new ContainerMetaReconciler({
      client: mgr.client, pods, runtimes, writes, envFromMetadata,
      restart: (containerID) => {
        const req = restartRequest(containerID);
        if (req) restarter.enqueue(req);
      },
    }),
    rateLimiter: exponentialRateLimiter({ baseMs: 500, maxMs: 50_000 }),
  });
  const key = (pod: Pod) => (pod.metadata.deletionTimestamp ? [] : [{ namespace: pod.metadata.namespace, name: pod.metadata.name! }]);
  meta.watches(pods, {
    onAdd: (pod) => (worthAdding(pod, envFromMetadata) ? key(pod) : []),
    onUpdate: (old, pod) => (reportOutdated(old, pod, envFromMetadata) ? key(pod) : []),
    onDelete: (pod) => {
      writes.delete(`${pod.metadata.namespace}/${pod.metadata.name}`);
      return [];
    },
  }, { batchMs: podEventDelayMs });
  return { meta, restarter };
}
