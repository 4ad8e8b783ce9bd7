/**
 * The StatefulSet's current and update revisions. The update revision snapshots today's template:
 * the newest revision if its data matches, else an older matching one rolled forward to the next
 * revision number, else a new one (`<set>-<hash>`, the hash over the data and collision count).
 * The current revision is the one status names, or the update revision on a first sync.
 */
import { ControllerRevisions } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { newControllerRef } from '../shared/controller-ref.js';
import { computeObjectHash } from '../../../machinery/hash.js';
import { createRevision, nextRevisionNumber, revisionName, revisionsToPrune, sameData, sortRevisions, templatePatch } from './controller-history.js';
import { revisionHashLabel, revisionLabel } from './types.js';
import type { ControllerRevision, StatefulSet, Pod } from '../../../api/core/index.js';

export function newStatefulSetRevision(set: StatefulSet, revision: number, collisionCount: number): ControllerRevision {
  const data = templatePatch(set.spec?.template);
  const hash = computeObjectHash(data, collisionCount);
  return {
    apiVersion: 'apps/v1', kind: 'ControllerRevision',
    metadata: {
      name: revisionName(set.metadata.name!, hash),
      namespace: set.metadata.namespace,
      labels: { ...set.spec?.template?.metadata?.labels, [revisionHashLabel]: hash },
      ownerReferences: [newControllerRef(set, 'apps/v1', 'StatefulSet')],
    },
    data,
    revision,
  };
}

export interface SetRevisions {
  current: ControllerRevision;
  update: ControllerRevision;
  collisionCount: number;
  /** Every revision the set owns after this sync. */
  all: ControllerRevision[];
}

export async function syncRevisions(client: Client, set: StatefulSet, owned: ControllerRevision[]): Promise<SetRevisions> {
  const revisions = sortRevisions(owned);
  let collisionCount = set.status?.collisionCount ?? 0;
  const next = nextRevisionNumber(revisions);
  const candidate = newStatefulSetRevision(set, next, collisionCount);
  const equal = revisions.filter((r) => sameData(r, candidate));
  const latest = revisions[revisions.length - 1];
  let update: ControllerRevision;
  if (equal.length > 0 && latest && equal[equal.length - 1]!.metadata.name === latest.metadata.name) {
    update = latest;
  } else if (equal.length > 0) {
    update = await client.update<ControllerRevision>(ControllerRevisions, { ...equal[equal.length - 1]!, revision: next });
  } else {
    ({ revision: update, collisionCount } = await createRevision(client, (count) => newStatefulSetRevision(set, next, count), collisionCount));
  }
  const all = [...revisions.filter((r) => r.metadata.name !== update.metadata.name), update];
  const current = all.find((r) => r.metadata.name === set.status?.currentRevision) ?? update;
  return { current, update, collisionCount, all };
}

/** Revisions no pod, nor status, uses, beyond revisionHistoryLimit (default 10). */
export function staleRevisions(set: StatefulSet, revs: SetRevisions, pods: Pod[]): ControllerRevision[] {
  const live = new Set([revs.current.metadata.name!, revs.update.metadata.name!]);
  for (const pod of pods) {
    const name = pod.metadata.labels?.[revisionLabel];
    if (name) live.add(name);
  }
  return revisionsToPrune(revs.all, live, set.spec?.revisionHistoryLimit ?? 10);
}
