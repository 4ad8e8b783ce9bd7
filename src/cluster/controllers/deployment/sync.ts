/**
 * One sync of one Deployment: a working copy of the deployment and its claimed ReplicaSets, and the
 * writes a sync makes (ReplicaSet scaling with its event, deployment status and revision, history
 * cleanup). Every write uses the resourceVersion it read, so a stale cache ends in a conflict and a
 * retry, never in a lost update; ReplicaSet writes are remembered as resourceVersion expectations.
 */
import { Deployments, ReplicaSets } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { deepEqual } from '../../../machinery/deep-equal.js';
import { isNotFound } from '../../../machinery/errors.js';
import type { EventRecorder } from '../../../runtime/events.js';
import type { ResourceVersionExpectations } from '../../../runtime/expectations.js';
import type { Informer } from '../../../runtime/informer.js';
import { replicasAnnotationsNeedUpdate, revisionAnnotation, setReplicasAnnotations } from './annotations.js';
import { maxSurge, specReplicas } from './budgets.js';
import { replicaSetsToDelete } from './cleanup.js';
import type { ScalePlan } from './rolling.js';
import { calculateStatus, compactStatus, progressCheckInMs, rolloutStatus } from './status.js';
import type { Deployment, DeploymentStatus, Pod, ReplicaSet } from '../../../api/core/index.js';

/** The key of a written object in the resourceVersion expectations: kind-qualified, as names repeat across kinds. */
export function updateKey(obj: Pick<Deployment | ReplicaSet, 'kind' | 'metadata'>): string {
  return `${obj.kind ?? ''}/${obj.metadata.namespace}/${obj.metadata.name}`;
}

export interface SyncDeps {
  client: Client;
  pods: Informer<Pod>;
  events: EventRecorder;
  updates: ResourceVersionExpectations;
}

export interface SyncResult {
  requeueAfterMs?: number;
}

export class DeploymentSync {
  constructor(readonly deps: SyncDeps, readonly d: Deployment, readonly rsList: ReplicaSet[], readonly now: () => number) {}

  /** Scales `rs` and stamps the replicas annotations; with `syncAnnotations`, writes for stale annotations alone. */
  async scale(rs: ReplicaSet, size: number, syncAnnotations = false): Promise<ReplicaSet> {
    const desired = specReplicas(this.d);
    const max = desired + maxSurge(this.d);
    const from = specReplicas(rs);
    if (from === size && (!syncAnnotations || !replicasAnnotationsNeedUpdate(rs, desired, max))) return rs;
    const copy = structuredClone(rs);
    copy.spec = { ...copy.spec, replicas: size };
    setReplicasAnnotations(copy, desired, max);
    const updated = await this.updateReplicaSet(copy);
    if (from !== size) {
      const direction = size > from ? 'up' : 'down';
      this.deps.events.event(this.d, 'Normal', 'ScalingReplicaSet', `Scaled ${direction} replica set ${rs.metadata.name} from ${from} to ${size}`);
    }
    return updated;
  }

  /** Applies target sizes by name; returns `list` with the written ReplicaSets in place. */
  async applyPlan(list: readonly ReplicaSet[], plan: ScalePlan, syncAnnotations = false): Promise<ReplicaSet[]> {
    const out: ReplicaSet[] = [];
    for (const rs of list) {
      const size = plan.get(rs.metadata.name!);
      out.push(size === undefined ? rs : await this.scale(rs, size, syncAnnotations));
    }
    return out;
  }

  async updateReplicaSet(rs: ReplicaSet): Promise<ReplicaSet> {
    const updated = await this.deps.client.update(ReplicaSets, rs);
    this.deps.updates.expectUpdated(updateKey(updated), updated);
    return updated;
  }

  /**
   * Writes the working copy's status and revision annotation. Upstream sends the annotation with the
   * status update (a Deployment's status strategy keeps annotations); a server that drops metadata
   * on status writes gets a metadata patch as well.
   */
  async writeDeployment(): Promise<void> {
    this.d.status = compactStatus(this.d.status ?? {});
    let written = await this.deps.client.updateStatus(Deployments, this.d);
    const revision = this.d.metadata.annotations?.[revisionAnnotation];
    if (revision !== undefined && written.metadata.annotations?.[revisionAnnotation] !== revision) {
      const patch = { metadata: { annotations: { [revisionAnnotation]: revision }, resourceVersion: written.metadata.resourceVersion } };
      written = await this.deps.client.patch<Deployment>(Deployments, this.d.metadata.namespace, this.d.metadata.name!, 'merge', patch);
    }
    this.d.metadata.resourceVersion = written.metadata.resourceVersion;
    this.deps.updates.expectUpdated(updateKey(written), written);
  }

  /** SetDeploymentRevision on the working copy; true if it changed. */
  setRevision(revision: string): boolean {
    if (this.d.metadata.annotations?.[revisionAnnotation] === revision) return false;
    this.d.metadata.annotations = { ...this.d.metadata.annotations, [revisionAnnotation]: revision };
    return true;
  }

  private async writeStatusIfChanged(status: DeploymentStatus): Promise<boolean> {
    if (deepEqual(compactStatus(this.d.status ?? {}), status)) return false;
    this.d.status = status;
    await this.writeDeployment();
    return true;
  }

  /** syncDeploymentStatus: counts and Available only (scaling and paused syncs). */
  async syncDeploymentStatus(allRSs: readonly ReplicaSet[], newRS: ReplicaSet | undefined): Promise<SyncResult> {
    await this.writeStatusIfChanged(compactStatus(calculateStatus(allRSs, newRS, this.d, this.now())));
    return {};
  }

  /** syncRolloutStatus: counts plus Progressing; when nothing changed, a check at the progress deadline. */
  async syncRolloutStatus(allRSs: readonly ReplicaSet[], newRS: ReplicaSet | undefined): Promise<SyncResult> {
    const status = rolloutStatus(allRSs, newRS, this.d, this.now());
    if (await this.writeStatusIfChanged(status)) return {};
    const wait = progressCheckInMs(this.d, status, this.now());
    return wait === undefined ? {} : { requeueAfterMs: wait };
  }

  /** Deletes old ReplicaSets beyond revisionHistoryLimit (only fully scaled-down ones). */
  async cleanup(oldRSs: readonly ReplicaSet[]): Promise<void> {
    for (const rs of replicaSetsToDelete(this.d, oldRSs)) {
      try {
        await this.deps.client.delete(ReplicaSets, rs.metadata.namespace, rs.metadata.name!, { preconditions: { uid: rs.metadata.uid } });
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
  }
}
