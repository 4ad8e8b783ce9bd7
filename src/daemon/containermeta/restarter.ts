/**
 * Restarts one container through CRI (docs/design/container-meta.md §6): stops it, as the kubelet
 * would kill it, within the pod's termination grace period the kubelet recorded on the container;
 * the kubelet sees the exit and starts a new attempt, with the environment the pod's metadata
 * gives now. A container that is gone or no longer running is left alone, so asking twice for
 * the same container never restarts it twice. Queue keys are `<runtime>/<id>`.
 */
import type { KObject } from '../../api/meta.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { Request } from '../../runtime/handlers.js';
import type { ReconcileContext, Result } from '../../runtime/reconcile.js';
import { KubeletAnnotations, KubeletLabels } from '../cri/types.js';
import type { RuntimeRegistry } from '../runtime/registry.js';

/** The restarter's request for `<runtime>://<id>`. */
export function restartRequest(containerID: string): Request | undefined {
  const m = /^([^:/]+):\/\/(.+)$/.exec(containerID);
  return m ? { namespace: m[1]!, name: m[2]! } : undefined;
}

export class ContainerRestarter {
  constructor(private readonly runtimes: RuntimeRegistry, private readonly events: EventRecorder) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result> {
    const runtime = this.runtimes.byName(req.namespace ?? '');
    if (!runtime) {
      ctx.log.info({ runtime: req.namespace }, 'No such runtime in this daemon');
      return {};
    }
    const [container] = await runtime.listContainers({ id: req.name });
    if (!container || container.state !== 'CONTAINER_RUNNING') return {};
    const labels = container.labels ?? {};
    const grace = Number(container.annotations?.[KubeletAnnotations.terminationGracePeriod] ?? 30);
    const pod: KObject = {
      apiVersion: 'v1', kind: 'Pod',
      metadata: { namespace: labels[KubeletLabels.podNamespace], name: labels[KubeletLabels.podName], uid: labels[KubeletLabels.podUid] },
    };
    const containerID = `${req.namespace}://${req.name}`;
    const name = labels[KubeletLabels.containerName] ?? container.metadata.name;
    this.events.event(pod, 'Normal', 'Killing', `Stopping container ${name} (${containerID}) by container meta restarter: its env from metadata changed`);
    await runtime.stopContainer(req.name, Number.isFinite(grace) && grace >= 0 ? grace : 30);
    return {};
  }
}
