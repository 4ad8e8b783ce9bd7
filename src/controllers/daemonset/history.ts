/**
 * The DaemonSet's ControllerRevisions (workloads.md §1.5, §6.4 steps 2 and 9) through the shared
 * revision machinery in template-hash mode: `<ds>-<hash>` labelled `controller-revision-hash`,
 * where the hash is k8s ComputeHash of the template and collision count. The current revision's
 * hash is what new and updated pods carry. Trimming keeps revisions a live pod still uses.
 */
import { ControllerRevisionHashLabel } from '../../api/kruise/workloads/labels.js';
import type { Client } from '../../client/client.js';
import { deleteRevisions, revisionsToTrim, syncRevisions, type RevisionOptions } from '../../control/revision/index.js';
import { revisionHashOf } from './inplace.js';
import type { ControllerRevision, Pod } from '../../api/core/index.js';
import type { DaemonSet } from './types.js';

const revisionOptions: RevisionOptions = { mode: 'template-hash', ownerApiVersion: 'apps.kruise.io/v1beta1', ownerKind: 'DaemonSet' };

export interface DaemonSetHistory {
  current: ControllerRevision;
  /** Bare hash of the current revision. */
  hash: string;
  revisions: ControllerRevision[];
  collisionCount: number;
}

export async function constructHistory(client: Client, ds: DaemonSet, owned: readonly ControllerRevision[]): Promise<DaemonSetHistory> {
  // ADS status has no currentRevision: the revision of today's template is the only one that counts.
  const synced = await syncRevisions(client, { ...ds, status: { collisionCount: ds.status?.collisionCount } }, owned, revisionOptions);
  const current = synced.updateRevision;
  return { current, hash: revisionHashOf(current), revisions: synced.revisions, collisionCount: synced.collisionCount };
}

/** Deletes old revisions no pod uses, oldest first, beyond revisionHistoryLimit (default 10). */
export async function cleanupHistory(client: Client, ds: DaemonSet, history: DaemonSetHistory, pods: readonly Pod[]): Promise<void> {
  const labels = pods.map((p) => p.metadata.labels?.[ControllerRevisionHashLabel]);
  const trim = revisionsToTrim(history.revisions, labels, history.current, history.current, ds.spec.revisionHistoryLimit ?? 10);
  await deleteRevisions(client, trim);
}
