/**
 * containerlaunchpriority-controller (docs/design/sidecarset.md §7.2): creates the pod's barrier
 * ConfigMap (owned by the pod, so it goes with it), then releases the highest pending priority;
 * when the lowest pending key is present the pod is marked
 * `apps.kruise.io/container-launch-priority-completed: "true"`.
 */
import type { ConfigMap, Pod } from '../../api/core/index.js';
import { ConfigMaps, Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import {
  barrierConfigMapName, barrierKey, LaunchPriorityCompletedAnnotation, pendingPriorities,
} from '../../control/launchpriority/index.js';
import { isAlreadyExists, isNotFound } from '../../machinery/errors.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { Result } from '../../runtime/reconcile.js';

export interface LaunchPriorityDeps { client: Client; pods: Informer<Pod> }

export class LaunchPriorityReconciler {
  constructor(private readonly d: LaunchPriorityDeps) {}

  async reconcile(_ctx: unknown, req: Request): Promise<Result | void> {
    const pod = this.d.pods.get(req.namespace, req.name);
    if (!pod || pod.metadata.deletionTimestamp || pod.metadata.annotations?.[LaunchPriorityCompletedAnnotation] === 'true') return;
    const name = barrierConfigMapName(pod.metadata.name!);
    let barrier: ConfigMap;
    try {
      barrier = await this.d.client.get<ConfigMap>(ConfigMaps, req.namespace, name);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      await this.d.client.create<ConfigMap>(ConfigMaps, {
        apiVersion: 'v1', kind: 'ConfigMap',
        metadata: { name, namespace: req.namespace, ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name!, uid: pod.metadata.uid! }] },
      }).catch((err: unknown) => { if (!isAlreadyExists(err)) throw err; });
      return { requeueAfterMs: 0 };
    }
    const pending = pendingPriorities(pod);
    const data = barrier.data ?? {};
    if (pending.length === 0 || data[barrierKey(pending[0]!)] !== undefined) return this.complete(pod);
    const highest = pending[pending.length - 1]!;
    if (data[barrierKey(highest)] === undefined) {
      await this.d.client.patch(ConfigMaps, req.namespace, name, 'strategic', { data: { [barrierKey(highest)]: 'true' } });
    }
    if (highest === pending[0]) return this.complete(pod);
  }

  private async complete(pod: Pod): Promise<void> {
    await this.d.client.patch(Pods, pod.metadata.namespace, pod.metadata.name!, 'strategic', {
      metadata: { annotations: { [LaunchPriorityCompletedAnnotation]: 'true' } },
    });
  }
}
