/**
 * One pod of the node (docs/design/container-meta.md §3, §5): read its containers from the runtime
 * its container IDs name, build the new runtime meta, hand the containers whose environment is out
 * of date to the restarter, and write the meta into the pod's annotation through pods/status when
 * it changed. After a write, a cached copy older than it is not acted on (up to 30 s, as upstream).
 */
import { objectKey } from '../../api/meta.js';
import { RuntimeContainersMetaAnnotation } from '../../api/kruise/workloads/labels.js';
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { formatRuntimeMetaSet, readRuntimeMetaSet } from '../../control/containermeta/index.js';
import type { ResourceVersionExpectations } from '../../runtime/expectations.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { ReconcileContext, Result } from '../../runtime/reconcile.js';
import type { RuntimeRegistry } from '../runtime/registry.js';
import { buildMeta } from './build-meta.js';
import { containerEnv, podContainers } from './runtime-containers.js';
import type { Pod } from '../../api/core/index.js';

export interface ContainerMetaDeps {
  client: Client;
  pods: Informer<Pod>;
  runtimes: RuntimeRegistry;
  writes: ResourceVersionExpectations;
  envFromMetadata: boolean;
  /** Stops a container (`<runtime>://<id>`) so the kubelet starts it again. */
  restart(containerID: string): void;
}

/** A running container whose environment could not be read is looked at again after this. */
export const envRetryMs = 3_000;

export class ContainerMetaReconciler {
  constructor(private readonly d: ContainerMetaDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result> {
    const pod = this.d.pods.get(req.namespace, req.name);
    if (!pod || pod.metadata.deletionTimestamp || !pod.status?.containerStatuses?.length) return {};
    // our own write not yet in the cache: its event brings the pod back
    if (!this.d.writes.isUpdatedSatisfied(objectKey(pod), pod)) return {};
    const anyId = pod.status.containerStatuses.find((s) => s.containerID)?.containerID;
    if (!anyId) return {};
    const found = this.d.runtimes.forContainerId(anyId);
    if (!found) {
      ctx.log.info({ containerID: anyId }, 'No runtime in this daemon for the pod\'s containers');
      return {};
    }
    const old = readRuntimeMetaSet(pod);
    const outcome = await buildMeta({
      pod, runtimeName: found.runtimeName, old, envFromMetadata: this.d.envFromMetadata,
      containers: await podContainers(found.runtime, pod.metadata.uid ?? ''),
      readEnv: (id) => containerEnv(found.runtime, id),
    });
    for (const containerID of outcome.restart) {
      ctx.log.info({ containerID }, 'Container runs with outdated env from metadata: restarting it');
      this.d.restart(containerID);
    }
    await this.report(ctx, pod, old === undefined ? undefined : formatRuntimeMetaSet(old), formatRuntimeMetaSet(outcome.set));
    return outcome.envUnread ? { requeueAfterMs: envRetryMs } : {};
  }

  private async report(ctx: ReconcileContext, pod: Pod, before: string | undefined, after: string): Promise<void> {
    if (before === after) return;
    const patch = { metadata: { annotations: { [RuntimeContainersMetaAnnotation]: after } } };
    const written = await this.d.client.patch<Pod>(Pods, pod.metadata.namespace, pod.metadata.name!, 'strategic', patch, { subresource: 'status' });
    this.d.writes.expectUpdated(objectKey(pod), written);
    ctx.log.info({ meta: after }, 'Reported runtime container meta');
  }
}
