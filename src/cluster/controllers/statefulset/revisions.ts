/**
 * The StatefulSet's current and update revisions through the shared revision machinery: the update
 * revision snapshots today's template (the newest revision if its data matches, else an older
 * matching one rolled forward to the next revision number, else a new `<set>-<hash>` one, the hash
 * over the data and collision count). The current revision is the one status names, or the update
 * revision on a first sync. Revisions no pod uses are pruned beyond revisionHistoryLimit.
 */
import type { Client } from '../../../client/client.js';
import { revisionsToTrim, syncRevisions as syncHistory, type RevisionOptions } from '../../../control/revision/index.js';
import { revisionLabel } from './types.js';
import type { ControllerRevision, Pod, StatefulSet } from '../../../api/core/index.js';

const revisionOptions: RevisionOptions = { mode: 'data-hash', ownerApiVersion: 'apps/v1', ownerKind: 'StatefulSet' };

export interface SetRevisions {
  current: ControllerRevision;
  update: ControllerRevision;
  collisionCount: number;
  /** Every revision the set owns after this sync. */
  all: ControllerRevision[];
}

export async function syncRevisions(client: Client, set: StatefulSet, owned: ControllerRevision[]): Promise<SetRevisions> {
  const synced = await syncHistory(client, set, owned, revisionOptions);
  return { current: synced.currentRevision, update: synced.updateRevision, collisionCount: synced.collisionCount, all: synced.revisions };
}

/** Revisions no pod, nor status, uses, beyond revisionHistoryLimit (default 10). */
export function staleRevisions(set: StatefulSet, revs: SetRevisions, pods: Pod[]): ControllerRevision[] {
  const labels = pods.map((p) => p.metadata.labels?.[revisionLabel]);
  return revisionsToTrim(revs.all, labels, revs.current, revs.update, set.spec.revisionHistoryLimit ?? 10);
}
