/**
 * The pod garbage collector's per-pod decision (kube's PodGC): a pod bound to a node that no longer
 * exists is marked Failed with a DisruptionTarget condition and force-deleted once the node has been
 * missing for the quarantine time (and the API server confirms it is gone); a terminating pod that
 * was never scheduled has no kubelet to finish it and is force-deleted at once.
 */
import { Nodes, Pods } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { isConflict, isNotFound } from '../../../machinery/errors.js';
import { rfc3339 } from '../../../machinery/time.js';
import type { Clock } from '../../../machinery/clock.js';
import type { Request } from '../../../runtime/handlers.js';
import type { Informer } from '../../../runtime/informer.js';
import type { ReconcileContext, Result } from '../../../runtime/reconcile.js';
import type { Node, Pod } from '../../../api/core/index.js';

/** kube's quarantineTime: a node missing from the cache this long is checked against the API server. */
export const orphanQuarantineMs = 40_000;

export interface PodGCReconcilerDeps {
  pods: Informer<Pod>;
  nodes: Informer<Node>;
  client: Client;
  clock: Clock;
}

export class PodGCReconciler {
  /** Since when each node name (of an orphaned pod) has been missing from the node cache. */
  private readonly missingSince = new Map<string, number>();

  constructor(private readonly d: PodGCReconcilerDeps) {}

  async reconcile(_ctx: ReconcileContext, req: Request): Promise<Result> {
    const pod = this.d.pods.get(req.namespace, req.name);
    if (!pod) return {};
    const node = pod.spec.nodeName;
    if (!node) return pod.metadata.deletionTimestamp ? this.forceDelete(pod) : {};
    if (this.d.nodes.get(undefined, node)) {
      this.missingSince.delete(node);
      return {};
    }
    const now = this.d.clock.now();
    const since = this.missingSince.get(node) ?? now;
    this.missingSince.set(node, since);
    if (now - since < orphanQuarantineMs) return { requeueAfterMs: since + orphanQuarantineMs - now };
    if (await this.nodeExists(node)) return {};
    await this.markFailed(pod);
    return this.forceDelete(pod);
  }

  private async nodeExists(name: string): Promise<boolean> {
    try {
      await this.d.client.get(Nodes, undefined, name);
      return true;
    } catch (e) {
      if (isNotFound(e)) return false;
      throw e;
    }
  }

  private async markFailed(pod: Pod): Promise<void> {
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') return;
    const condition = { type: 'DisruptionTarget', status: 'True' as const, reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists', lastTransitionTime: rfc3339(this.d.clock.now()) };
    await this.d.client.patch(Pods, pod.metadata.namespace, pod.metadata.name!, 'strategic', { status: { phase: 'Failed', conditions: [condition] } }, { subresource: 'status' })
      .catch((e: unknown) => { if (!isNotFound(e) && !isConflict(e)) throw e; });
  }

  private async forceDelete(pod: Pod): Promise<Result> {
    await this.d.client.delete(Pods, pod.metadata.namespace, pod.metadata.name!, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } })
      .catch((e: unknown) => { if (!isNotFound(e) && !isConflict(e)) throw e; });
    return {};
  }
}
