/**
 * ControllerRevisions of a SidecarSet (docs/design/sidecarset.md §4), in the Kruise namespace,
 * labelled `kruise.io/sidecarset-name`: equal to the newest → reused; equal to an older one → its
 * revision number bumped; else a new `<name>-<hash>` (collisionCount bumped on a name clash with
 * other data). History beyond revisionHistoryLimit is cut, never the newest, nor a revision a pod
 * records or injectionStrategy.revision names.
 */
import type { ControllerRevision, Pod } from '../../api/core/index.js';
import { SidecarSetCustomVersionLabel, SidecarSetNameLabel } from '../../api/kruise/ops/sidecarset.js';
import { ControllerRevisions } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { newControllerRef } from '../../control/ownership/index.js';
import { dataHash, findEqualRevisions, nextRevisionNumber, revisionName, sortRevisions } from '../../control/revision/index.js';
import { readUpgradeSpecs, revisionData, type SidecarSet } from '../../control/sidecarcontrol/index.js';
import { isAlreadyExists } from '../../machinery/errors.js';

export interface RevisionResult { latest: ControllerRevision; collisionCount: number }

function candidate(set: SidecarSet, namespace: string, collisionCount: number, number: number): ControllerRevision {
  const data = revisionData(set);
  const custom = set.spec?.customVersion;
  return {
    apiVersion: 'apps/v1', kind: 'ControllerRevision',
    metadata: {
      name: revisionName(set.metadata.name!, dataHash(data, collisionCount)), namespace,
      labels: { [SidecarSetNameLabel]: set.metadata.name!, ...(custom ? { [SidecarSetCustomVersionLabel]: custom } : {}) },
      annotations: { ...set.metadata.annotations },
      ownerReferences: [newControllerRef(set, 'apps.kruise.io/v1beta1', 'SidecarSet')],
    },
    data, revision: number,
  };
}

export async function syncRevisions(client: Client, set: SidecarSet, existing: ControllerRevision[], namespace: string): Promise<RevisionResult> {
  const history = sortRevisions(existing);
  let collisionCount = set.status?.collisionCount ?? 0;
  const wanted = candidate(set, namespace, collisionCount, nextRevisionNumber(history));
  const equal = findEqualRevisions(history, wanted);
  const newest = history[history.length - 1];
  if (equal.length > 0) {
    const found = equal[equal.length - 1]!;
    if (found === newest) return { latest: found, collisionCount };
    const bumped = await client.update<ControllerRevision>(ControllerRevisions, { ...found, revision: wanted.revision });
    return { latest: bumped, collisionCount };
  }
  for (;;) {
    const attempt = candidate(set, namespace, collisionCount, wanted.revision!);
    try {
      return { latest: await client.create<ControllerRevision>(ControllerRevisions, attempt), collisionCount };
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
      const clash = await client.get<ControllerRevision>(ControllerRevisions, namespace, attempt.metadata.name!);
      if (findEqualRevisions([clash], attempt).length > 0) return { latest: clash, collisionCount };
      collisionCount++;
    }
  }
}

/** Deletes the oldest revisions beyond the limit that nothing uses. */
export async function truncateHistory(client: Client, set: SidecarSet, revisions: ControllerRevision[], latest: string, pods: () => Pod[]): Promise<void> {
  const limit = Math.max(1, set.spec?.revisionHistoryLimit ?? 10);
  if (revisions.length <= limit) return;
  const used = new Set([latest, set.spec?.injectionStrategy?.revision?.revisionName ?? '']);
  for (const pod of pods()) {
    const r = readUpgradeSpecs(pod)[set.metadata.name!]?.controllerRevision;
    if (r) used.add(r);
  }
  const custom = set.spec?.injectionStrategy?.revision?.customVersion;
  let excess = revisions.length - limit;
  for (const r of sortRevisions(revisions)) {
    if (excess <= 0) break;
    if (used.has(r.metadata.name!) || (custom && r.metadata.labels?.[SidecarSetCustomVersionLabel] === custom)) continue;
    await client.delete(ControllerRevisions, r.metadata.namespace, r.metadata.name!).catch(() => undefined);
    excess--;
  }
}
