/**
 * The history of a workload whose pods carry the bare template hash (DaemonSets, built-in and
 * Advanced): the revision of today's template is current (their status names none), its hash is
 * what updated pods are labelled with, and old revisions no pod carries are trimmed.
 */
import type { Client } from '../../client/client.js';
import type { ControllerRevision, Pod } from '../../api/core/index.js';
import { ControllerRevisionHashLabel } from '../../api/kruise/workloads/labels.js';
import { revisionsToTrim } from './history.js';
import { shortHash } from './new-revision.js';
import { deleteRevisions, syncRevisions } from './sync.js';
import type { RevisionedWorkload, RevisionOptions } from './types.js';

export interface TemplateHistory {
  current: ControllerRevision;
  /** Bare hash of the current revision: the `controller-revision-hash` of updated pods. */
  hash: string;
  revisions: ControllerRevision[];
  collisionCount: number;
}

export async function syncTemplateHistory(
  client: Client, workload: RevisionedWorkload, owned: readonly ControllerRevision[], owner: Pick<RevisionOptions, 'ownerApiVersion' | 'ownerKind'>,
): Promise<TemplateHistory> {
  const options: RevisionOptions = { mode: 'template-hash', ...owner };
  const synced = await syncRevisions(client, { ...workload, status: { collisionCount: workload.status?.collisionCount } }, owned, options);
  const current = synced.updateRevision;
  const hash = current.metadata.labels?.[ControllerRevisionHashLabel] ?? shortHash(current.metadata.name!);
  return { current, hash, revisions: synced.revisions, collisionCount: synced.collisionCount };
}

/** Deletes old revisions whose hash no pod carries, oldest first, beyond `limit` (default 10). */
export async function trimTemplateHistory(client: Client, history: TemplateHistory, pods: readonly Pod[], limit = 10): Promise<void> {
  const labels = pods.map((p) => p.metadata.labels?.[ControllerRevisionHashLabel]);
  await deleteRevisions(client, revisionsToTrim(history.revisions, labels, history.current, history.current, limit));
}
