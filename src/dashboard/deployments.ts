/**
 * Deployment rows joined with their ReplicaSets (docs/design/dashboard.md §10): a Deployment's
 * revisions are the `deployment.kubernetes.io/revision` of its ReplicaSets (current: the oldest that
 * still has pods; update: the newest), and its pods belong to those ReplicaSets, so the row carries
 * their names and the pod-template-hash of the newest for the page to count pods replaced by the rollout.
 */
import type { KObject } from '../api/meta.js';
import { workloadRow, type WorkloadRow } from './summaries.js';

interface ReplicaSetInfo { name: string; revision: number; hash: string; pods: number }

const revisionAnnotation = 'deployment.kubernetes.io/revision';
type Any = Record<string, any>;

export class DeploymentRows {
  private readonly deployments = new Map<string, KObject>();
  private readonly sets = new Map<string, Map<string, ReplicaSetInfo>>();

  constructor(private readonly upsert: (row: WorkloadRow) => void, private readonly remove: (row: WorkloadRow) => void) {}

  deployment(obj: KObject): void {
    const key = `${obj.metadata.namespace}/${obj.metadata.name}`;
    this.deployments.set(key, obj);
    this.upsert(this.row(key, obj));
  }

  deploymentDeleted(obj: KObject): void {
    this.deployments.delete(`${obj.metadata.namespace}/${obj.metadata.name}`);
    this.remove(workloadRow(obj));
  }

  replicaSet(obj: KObject, deleted = false): void {
    const owner = obj.metadata.ownerReferences?.find((r) => r.controller && r.kind === 'Deployment');
    if (!owner) return;
    const key = `${obj.metadata.namespace}/${owner.name}`;
    const sets = this.sets.get(key) ?? new Map<string, ReplicaSetInfo>();
    const name = obj.metadata.name ?? '';
    if (deleted) sets.delete(name);
    else {
      const o = obj as Any;
      sets.set(name, {
        name, revision: Number(obj.metadata.annotations?.[revisionAnnotation] ?? 0), hash: obj.metadata.labels?.['pod-template-hash'] ?? '',
        pods: Math.max(o.spec?.replicas ?? 0, o.status?.replicas ?? 0),
      });
    }
    if (sets.size === 0) this.sets.delete(key);
    else this.sets.set(key, sets);
    const deployment = this.deployments.get(key);
    if (deployment) this.upsert(this.row(key, deployment));
  }

  private row(key: string, obj: KObject): WorkloadRow {
    const row = workloadRow(obj);
    const sets = [...(this.sets.get(key)?.values() ?? [])].sort((a, b) => a.revision - b.revision);
    const newest = sets[sets.length - 1];
    if (!newest) return row;
    const current = sets.find((s) => s.pods > 0) ?? newest;
    return {
      ...row, currentRevision: String(current.revision), updateRevision: String(newest.revision),
      podOwners: sets.map((s) => `ReplicaSet/${s.name}`), podRevision: newest.hash,
    };
  }
}
