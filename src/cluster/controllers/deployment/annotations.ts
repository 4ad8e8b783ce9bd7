import type { Deployment, ReplicaSet } from '../../../api/core/index.js';
/**
 * The annotations a Deployment keeps on its ReplicaSets, which `kubectl rollout history/undo` read:
 * the revision (a rolled-back-to ReplicaSet takes the next number and remembers its old ones in
 * revision-history), desired-replicas and max-replicas (for proportional scaling), and a copy of the
 * deployment's own annotations (change-cause among them) except the controller's and kubectl's.
 */

export const revisionAnnotation = 'deployment.kubernetes.io/revision';
export const revisionHistoryAnnotation = 'deployment.kubernetes.io/revision-history';
export const desiredReplicasAnnotation = 'deployment.kubernetes.io/desired-replicas';
export const maxReplicasAnnotation = 'deployment.kubernetes.io/max-replicas';
const maxRevisionHistoryChars = 2000;

const notCopied = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  revisionAnnotation, revisionHistoryAnnotation, desiredReplicasAnnotation, maxReplicasAnnotation,
  'deprecated.deployment.rollback.to',
]);

/** The revision number; 0 when unset, undefined when unparsable. */
export function revisionOf(obj: { metadata: { annotations?: Record<string, string> } }): number | undefined {
  const v = obj.metadata.annotations?.[revisionAnnotation];
  if (v === undefined) return 0;
  return /^\d+$/.test(v) ? Number(v) : undefined;
}

export function maxRevision(list: readonly ReplicaSet[]): number {
  return list.reduce((max, rs) => Math.max(max, revisionOf(rs) ?? 0), 0);
}

function intAnnotation(rs: ReplicaSet, key: string): number | undefined {
  const v = rs.metadata.annotations?.[key];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

export const desiredReplicasOf = (rs: ReplicaSet): number | undefined => intAnnotation(rs, desiredReplicasAnnotation);
export const maxReplicasOf = (rs: ReplicaSet): number | undefined => intAnnotation(rs, maxReplicasAnnotation);

export function replicasAnnotationsNeedUpdate(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = rs.metadata.annotations ?? {};
  return a[desiredReplicasAnnotation] !== String(desired) || a[maxReplicasAnnotation] !== String(max);
}

/** Sets desired-replicas and max-replicas on `rs` (a copy the caller owns); true if anything changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  if (!replicasAnnotationsNeedUpdate(rs, desired, max)) return false;
  rs.metadata.annotations = { ...rs.metadata.annotations, [desiredReplicasAnnotation]: String(desired), [maxReplicasAnnotation]: String(max) };
  return true;
}

/**
 * SetNewReplicaSetAnnotations on `rs` (a copy the caller owns): copy the deployment's annotations,
 * raise the revision to `newRevision` if lower (recording the old one in revision-history), and for a
 * ReplicaSet about to be created set the replicas annotations. True if anything changed.
 */
export function setNewReplicaSetAnnotations(d: Deployment, rs: ReplicaSet, newRevision: number, exists: boolean, desired: number, max: number): boolean {
  const a: Record<string, string> = { ...(rs.metadata.annotations ?? {}) };
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (notCopied.has(k) || a[k] === v) continue;
    a[k] = v;
    changed = true;
  }
  const oldText = a[revisionAnnotation];
  const old = oldText === undefined || oldText === '' ? 0 : /^\d+$/.test(oldText) ? Number(oldText) : undefined;
  if (old === undefined) {
    rs.metadata.annotations = a;
    return changed; // an unparsable revision is left alone, as upstream does
  }
  if (old < newRevision) {
    a[revisionAnnotation] = String(newRevision);
    changed = true;
    if (oldText !== undefined) appendRevisionHistory(a, oldText);
  }
  rs.metadata.annotations = a;
  if (!exists && setReplicasAnnotations(rs, desired, max)) changed = true;
  return changed;
}

function appendRevisionHistory(a: Record<string, string>, oldRevision: string): void {
  const history = a[revisionHistoryAnnotation] ?? '';
  if (history === '') {
    a[revisionHistoryAnnotation] = oldRevision;
    return;
  }
  const entries = history.split(',');
  let total = history.length + oldRevision.length + 1;
  let start = 0;
  while (total > maxRevisionHistoryChars && start < entries.length) total -= entries[start++].length + 1;
  if (total <= maxRevisionHistoryChars) a[revisionHistoryAnnotation] = [...entries.slice(start), oldRevision].join(',');
}
