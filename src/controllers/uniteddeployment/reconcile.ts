/**
 * uniteddeployment-controller (docs/design/uniteddeployment.md §3-§5): record the template as a
 * ControllerRevision, split the replicas over the subsets, create, update and delete one workload
 * per subset, and sum their state into the status.
 */
import type { ControllerRevision, Pod } from '../../api/core/index.js';
import { UnitedDeployments } from '../../api/kruise/resource-types.js';
import { SubsetNameLabel, SubsetPatchAnnotation, UnitedDeploymentRevisionLabel, type UnitedDeployment } from '../../api/kruise/workloads/united-deployment.js';
import type { KObject } from '../../api/meta.js';
import { ControllerRevisions } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { revisionsToPrune, syncRevisions, type RevisionedWorkload } from '../../control/revision/index.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isNotFound } from '../../machinery/errors.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { ResourceVersionExpectations } from '../../runtime/expectations.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import { cachedOrRequeue, type ReconcileContext, type Result } from '../../runtime/reconcile.js';
import { isAdaptive, subsetSchedulable, type SubsetCondition } from './adaptive.js';
import { allocateAdaptive, allocateMinMax, allocateSpecific, usesMinMax, type AdaptiveFacts, type Allocation } from './allocation.js';
import { computeStatus, type SubsetFacts } from './status.js';
import { countsOf, subsetKindOf, type SubsetKind } from './subset-kinds.js';
import { buildSubsetWorkload, type TopologySubset } from './subset-workload.js';
import { oldestFirst } from '../../machinery/order.js';

export interface UnitedDeploymentDeps {
  client: Client;
  uds: Informer<UnitedDeployment>;
  /** Subset workload caches by template key. */
  workloads: Map<string, Informer<KObject>>;
  revisions: Informer<ControllerRevision>;
  pods: Informer<Pod>;
  events: EventRecorder;
  writes: ResourceVersionExpectations;
}

const statusWaitMs = 1_000;

export class UnitedDeploymentReconciler {
  constructor(private readonly d: UnitedDeploymentDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result | void> {
    const { key, object: ud, result } = cachedOrRequeue(this.d.uds, req, { writes: this.d.writes, writesRetryMs: statusWaitMs });
    if (!ud) return result;
    if (ud.metadata.deletionTimestamp || !ud.spec) return;
    const kind = subsetKindOf(ud);
    if (!kind) return;
    const now = ctx.clock.now();
    const { updated, collisionCount } = await this.syncRevision(ud);
    const topology = ud.spec.topology?.subsets ?? [];
    const existing = await this.existingSubsets(ud, kind, new Set(topology.map((s) => s.name)));
    const selector = selectorFromLabelSelector(ud.spec.selector as MetaLabelSelector);
    // pods carry `<ud>-<hash>` revisions: that tells them from pods of another UnitedDeployment with an overlapping selector
    const ownRevision = new RegExp(`^${ud.metadata.name!.replace(/[.]/g, '\\.')}-[^-]+$`);
    const pods = this.d.pods.byIndex('namespace', ud.metadata.namespace!)
      .filter((p) => selector.matches(p.metadata.labels) && ownRevision.test(p.metadata.labels?.[UnitedDeploymentRevisionLabel] ?? ''));
    const podsOf = (name: string) => pods.filter((p) => p.metadata.labels?.[SubsetNameLabel] === name);
    let wakeMs = Infinity;
    const conditions = new Map<string, SubsetCondition | undefined>();
    const facts = new Map<string, AdaptiveFacts>();
    for (const subset of topology) {
      const ready = existing.get(subset.name) ? countsOf(existing.get(subset.name)!).readyReplicas : 0;
      if (!isAdaptive(ud)) continue;
      const old = ud.status?.subsetStatuses?.find((s) => s.name === subset.name);
      const state = subsetSchedulable(ud, old?.conditions?.find((c) => c.type === 'Schedulable'), podsOf(subset.name), ready, old?.replicas ?? 0, now);
      conditions.set(subset.name, state.condition);
      facts.set(subset.name, { ready, unschedulable: state.unschedulable });
      if (state.wakeMs !== undefined) wakeMs = Math.min(wakeMs, state.wakeMs);
    }
    const allocation = this.allocate(ud, topology, existing, facts);
    if (allocation.error !== undefined) {
      this.d.events.event(ud, 'Warning', 'FailedSpecifySubsetReplicas', allocation.error);
      return;
    }
    const partitions = ud.spec.updateStrategy?.manualUpdate?.partitions ?? {};
    const subsets: SubsetFacts[] = topology.map((s) => {
      const allocated = allocation.replicas.get(s.name) ?? 0;
      const condition = conditions.get(s.name);
      return { name: s.name, workload: existing.get(s.name), allocated, partition: Math.min(partitions[s.name] ?? 0, allocated), ...(condition && { conditions: [condition] }) };
    });
    let provisionError: string | undefined;
    try {
      await this.provision(ud, kind, topology, subsets, updated);
    } catch (err) {
      provisionError = (err as Error).message;
    }
    const status = computeStatus(ud, subsets, pods, updated, collisionCount, provisionError, now);
    if (!deepEqual(status, ud.status)) {
      const written = await this.d.client.updateStatus<UnitedDeployment>(UnitedDeployments, { ...ud, status });
      this.d.writes.expectUpdated(key, written);
    }
    if (provisionError) throw new Error(provisionError);
    return Number.isFinite(wakeMs) ? { requeueAfterMs: wakeMs } : undefined;
  }

  private async syncRevision(ud: UnitedDeployment): Promise<{ updated: string; collisionCount: number }> {
    const owned = this.d.revisions.byIndex('controllerUid', ud.metadata.uid!);
    const workload = { ...ud, status: { collisionCount: ud.status?.collisionCount ?? 0, currentRevision: ud.status?.currentRevision } } as unknown as RevisionedWorkload;
    const synced = await syncRevisions(this.d.client, workload, owned, { ownerApiVersion: 'apps.kruise.io/v1beta1', ownerKind: 'UnitedDeployment' });
    const live = new Set([synced.updateRevision.metadata.name, ud.status?.currentRevision]);
    for (const r of revisionsToPrune(synced.revisions, (x) => live.has(x.metadata.name), ud.spec?.revisionHistoryLimit ?? 10)) {
      await this.d.client.delete(ControllerRevisions, r.metadata.namespace, r.metadata.name!).catch((e: unknown) => { if (!isNotFound(e)) throw e; });
    }
    return { updated: synced.updateRevision.metadata.name!, collisionCount: synced.collisionCount };
  }

  /** Owned subset workloads by subset name; duplicates and subsets gone from the topology are deleted. */
  private async existingSubsets(ud: UnitedDeployment, kind: SubsetKind, wanted: Set<string>): Promise<Map<string, KObject>> {
    const out = new Map<string, KObject>();
    const owned = this.d.workloads.get(kind.templateKey)!.byIndex('controllerUid', ud.metadata.uid!)
      .filter((o) => !o.metadata.deletionTimestamp)
      .sort(oldestFirst);
    for (const obj of owned) {
      const name = obj.metadata.labels?.[SubsetNameLabel] ?? '';
      if (wanted.has(name) && !out.has(name)) out.set(name, obj);
      else await this.d.client.delete(kind.type, obj.metadata.namespace, obj.metadata.name!, { propagationPolicy: 'Background' }).catch((e: unknown) => { if (!isNotFound(e)) throw e; });
    }
    return out;
  }

  private allocate(ud: UnitedDeployment, topology: TopologySubset[], existing: Map<string, KObject>, facts: Map<string, AdaptiveFacts>): Allocation {
    const total = ud.spec!.replicas ?? 1;
    const specs = topology.map((s) => ({ name: s.name, replicas: s.replicas, minReplicas: s.minReplicas, maxReplicas: s.maxReplicas }));
    if (isAdaptive(ud)) return allocateAdaptive(total, specs, facts);
    if (usesMinMax(specs)) return allocateMinMax(total, specs);
    const current = new Map([...existing].map(([name, obj]) => [name, (obj as KObject & { spec?: { replicas?: number } }).spec?.replicas ?? 0]));
    return allocateSpecific(total, specs, current);
  }

  /** Creates missing subset workloads and updates those whose revision, replicas, partition or patch differ. */
  private async provision(ud: UnitedDeployment, kind: SubsetKind, topology: TopologySubset[], subsets: SubsetFacts[], revision: string): Promise<void> {
    const errors: string[] = [];
    await Promise.all(topology.map(async (subset, i) => {
      const facts = subsets[i];
      const wanted = buildSubsetWorkload({ ud, kind, subset, revision, replicas: facts.allocated, partition: facts.partition });
      const current = facts.workload;
      try {
        if (!current) {
          facts.workload = await this.d.client.create(kind.type, wanted);
          return;
        }
        const spec = (current as KObject & { spec?: { replicas?: number } }).spec;
        const same = current.metadata.labels?.[UnitedDeploymentRevisionLabel] === revision && spec?.replicas === facts.allocated
          && kind.partitionOf(current) === kind.partitionOf(wanted)
          && current.metadata.annotations?.[SubsetPatchAnnotation] === wanted.metadata.annotations?.[SubsetPatchAnnotation];
        if (same) return;
        const next = { ...current, metadata: { ...current.metadata, labels: wanted.metadata.labels, annotations: { ...current.metadata.annotations, ...wanted.metadata.annotations } }, spec: { ...spec, ...(wanted as unknown as { spec: object }).spec } };
        facts.workload = await this.d.client.update(kind.type, next);
      } catch (err) {
        errors.push(`subset ${subset.name}: ${(err as Error).message}`);
      }
    }));
    if (errors.length > 0) throw new Error(errors.join('; '));
  }
}
