/**
 * The node lifecycle reconciler (upstream's monitorNodeHealth for one node): a node not heard from
 * for the grace period gets its kubelet conditions set to Unknown; its controller-owned taints are
 * kept in line with its conditions; while it is not Ready, its pods are marked not Ready. Recovery
 * is the kubelet's to report: once it posts Ready=True again the taints go.
 */
import { Nodes, Pods } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { retryOnConflict } from '../../../client/retry.js';
import { isConflict, isNotFound } from '../../../machinery/errors.js';
import type { ReconcileContext, Request, Result } from '../../../runtime/controller.js';
import type { EventRecorder } from '../../../runtime/events.js';
import { IndexNames } from '../../../runtime/indexers.js';
import type { Informer } from '../../../runtime/informer.js';
import { withPodCondition } from '../../../control/podutil/index.js';
import { graceFor, silentNodeConditions, type NodeHealthTracker } from './health.js';
import { reconcileTaints } from './taints.js';
import type { Node, Pod } from '../../../api/core/index.js';

export interface NodeLifecycleDeps {
  client: Client;
  nodes: Informer<Node>;
  pods: Informer<Pod>;
  health: NodeHealthTracker;
  events: EventRecorder;
  gracePeriodMs: number;
  startupGracePeriodMs: number;
}

export class NodeLifecycleReconciler {
  constructor(private readonly d: NodeLifecycleDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result> {
    let node = this.d.nodes.get(undefined, req.name);
    if (!node) {
      this.d.health.forget(req.name);
      return {};
    }
    const now = ctx.clock.now();
    const probe = this.d.health.probeTime(req.name) ?? now;
    const grace = graceFor(node, this.d.gracePeriodMs, this.d.startupGracePeriodMs);
    const silentMs = now - probe;
    // A conflict means a newer object is on its way to the cache, and its event brings us back here.
    try {
      if (silentMs >= grace) node = await this.markUnknown(node, now);
    } catch (e) {
      if (isConflict(e)) return {};
      throw e;
    }
    node = await this.syncTaints(node, now);
    if (node.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'True') await this.markPodsNotReady(node, now);
    return silentMs < grace ? { requeueAfterMs: grace - silentMs + 1 } : {};
  }

  private async markUnknown(node: Node, now: number): Promise<Node> {
    const conditions = silentNodeConditions(node, now);
    if (!conditions) return node;
    const wasReady = node.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
    const updated = await this.d.client.updateStatus<Node>(Nodes, { ...node, status: { ...node.status, conditions } });
    if (wasReady) this.d.events.event(node, 'Normal', 'NodeNotReady', `Node ${node.metadata.name} status is now: NodeNotReady`);
    return updated;
  }

  /** Rewrites spec.taints when the controller's taints are stale, re-reading the node on conflicts. */
  private async syncTaints(node: Node, now: number): Promise<Node> {
    let current = node;
    let first = true;
    return retryOnConflict(async () => {
      if (!first) current = await this.d.client.get<Node>(Nodes, undefined, node.metadata.name!);
      first = false;
      const taints = reconcileTaints(current, now);
      if (!taints) return current;
      return this.d.client.update<Node>(Nodes, { ...current, spec: { ...current.spec, taints: taints.length > 0 ? taints : undefined } });
    });
  }

  /** MarkPodsNotReady: Ready=False on every pod of the node that still says Ready=True. */
  private async markPodsNotReady(node: Node, now: number): Promise<void> {
    const errors: unknown[] = [];
    for (const pod of this.d.pods.byIndex(IndexNames.nodeName, node.metadata.name!)) {
      const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
      if (ready?.status !== 'True') continue;
      const conditions = withPodCondition(pod.status?.conditions, { ...ready, status: 'False' }, now);
      if (!conditions) continue;
      try {
        await this.d.client.updateStatus(Pods, { ...pod, status: { ...pod.status, conditions } });
        this.d.events.event(pod, 'Warning', 'NodeNotReady', 'Node is not ready');
      } catch (e) {
        if (!isNotFound(e) && !isConflict(e)) errors.push(e);
      }
    }
    if (errors.length > 0) throw errors[0];
  }
}
