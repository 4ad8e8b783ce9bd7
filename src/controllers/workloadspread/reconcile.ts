/**
 * workloadspread-controller (docs/design/workloadspread.md §6-§8): for each WorkloadSpread, find
 * its workload's pods, adopt pods placed before it existed, reschedule pods stuck in a subset
 * under adaptive scheduling, write pod-deletion-cost so scale-in empties the last subsets first,
 * and write the subset statuses the pod webhook works from.
 */
import type { Node, Pod } from '../../api/core/index.js';
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import {
  formatInjectedSpread, MatchedWorkloadSpreadAnnotation, PodDeletionCostAnnotation, SpreadStatusWriter, type Spread,
} from '../../control/workloadspread/index.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isNotFound } from '../../machinery/errors.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { ReconcileContext, Result } from '../../runtime/reconcile.js';
import { planAdaptive } from './adaptive.js';
import { deletionCosts } from './deletion-cost.js';
import { placePods, type Placement } from './placement.js';
import { computeStatus } from './status.js';
import type { StatusPass } from './subset-status.js';
import { resolveWorkload, type Workload, type WorkloadCaches } from './target.js';

export interface WorkloadSpreadDeps extends WorkloadCaches {
  client: Client;
  spreads: Informer<Spread>;
  nodes: Informer<Node>;
  events: EventRecorder;
  /** How long a subset stays unschedulable under adaptive scheduling (upstream: 300 s). */
  recoverAfterMs: number;
}

const costKinds = new Set(['ReplicaSet', 'Deployment', 'CloneSet']);

export class WorkloadSpreadReconciler {
  private readonly writer: SpreadStatusWriter;

  constructor(private readonly d: WorkloadSpreadDeps) {
    this.writer = new SpreadStatusWriter(d.client);
  }

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result | void> {
    const ws = this.d.spreads.get(req.namespace, req.name);
    if (!ws || ws.metadata.deletionTimestamp || !ws.spec) return;
    const workload = resolveWorkload(ws, this.d);
    if (!workload) return;
    const now = ctx.clock.now();
    const placement = placePods(ws, workload.pods, workload.replicas, (n) => this.d.nodes.get(undefined, n));
    await this.adopt(ws, placement);
    const adaptive = planAdaptive(ws, placement.bySubset, now, this.d.recoverAfterMs);
    await Promise.all(adaptive.toDelete.map((pod) => this.deletePod(pod)));
    for (const subset of adaptive.recovered) this.d.events.event(ws, 'Normal', 'RecoverSchedulable', `Subset ${subset} of WorkloadSpread ${ws.metadata.name} is scheduable`);
    if (costKinds.has(workload.type.kind)) await this.syncDeletionCosts(ws, workload, placement);
    const pass: StatusPass = { now, expired: [] };
    const conditions = adaptive.conditions.size > 0 ? adaptive.conditions : undefined;
    await this.writer.update(ws, (copy) => {
      pass.expired = [];
      pass.nextCheckMs = undefined;
      const status = computeStatus(copy, placement.bySubset, workload.replicas, conditions, pass);
      return { result: undefined, ...(!deepEqual(status, copy.status ?? {}) && { write: { ...copy, status } }) };
    });
    for (const e of pass.expired) {
      const verb = e.kind === 'CreatePodFailed' ? 'created' : 'deleted';
      this.d.events.event(ws, 'Warning', e.kind, `Pod ${ws.metadata.namespace}/${e.pod} was expected to be ${verb} but it wasn't`);
    }
    const next = Math.min(pass.nextCheckMs ?? Infinity, adaptive.nextCheckMs ?? Infinity);
    return Number.isFinite(next) ? { requeueAfterMs: next } : undefined;
  }

  private async adopt(ws: Spread, placement: Placement): Promise<void> {
    await Promise.all(placement.adoptions.map(async (a) => {
      const annotations = { ...a.annotations, [MatchedWorkloadSpreadAnnotation]: formatInjectedSpread({ name: ws.metadata.name!, subset: a.subset }) };
      await this.patchPod(a.pod, { metadata: { ...(Object.keys(a.labels).length > 0 && { labels: a.labels }), annotations } });
    }));
  }

  /** Latest-version pods and the others get costs in opposite subset orders; nothing while the version is unknown. */
  private async syncDeletionCosts(ws: Spread, workload: Workload, placement: Placement): Promise<void> {
    const groups = [true, false].map((latest) => new Map([...placement.bySubset].map(([name, pods]) => [name, pods.filter((p) => workload.isLatest(p) === latest)])));
    if (workload.pods.some((p) => workload.isLatest(p) === undefined)) return;
    const writes: Promise<void>[] = [];
    groups.forEach((bySubset, g) => {
      for (const [pod, cost] of deletionCosts(ws, bySubset, workload.replicas, g === 0)) {
        const current = pod.metadata.annotations?.[PodDeletionCostAnnotation];
        if (current === String(cost) || (current === undefined && cost === 0)) continue;
        writes.push(this.patchPod(pod, { metadata: { annotations: { [PodDeletionCostAnnotation]: String(cost) } } }).catch((err: unknown) => {
          this.d.events.event(ws, 'Warning', 'PatchPodDeletionCostFailed', `failed to patch deletion cost of pod ${pod.metadata.name}: ${(err as Error).message}`);
        }));
      }
    });
    await Promise.all(writes);
  }

  private async patchPod(pod: Pod, patch: unknown): Promise<void> {
    try {
      await this.d.client.patch(Pods, pod.metadata.namespace, pod.metadata.name!, 'strategic', patch);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  private async deletePod(pod: Pod): Promise<void> {
    try {
      await this.d.client.delete(Pods, pod.metadata.namespace, pod.metadata.name!, { preconditions: { uid: pod.metadata.uid } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
