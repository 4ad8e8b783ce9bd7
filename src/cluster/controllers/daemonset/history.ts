/**
 * The DaemonSet's ControllerRevisions (upstream's constructHistory): the revision whose data is
 * today's template is current (duplicates are removed, and an old one is rolled forward to the next
 * revision number); with none, a new `<ds>-<hash>` revision labelled `controller-revision-hash` is
 * created. Old revisions no pod uses are pruned beyond revisionHistoryLimit.
 */
import { ControllerRevisions } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { isNotFound } from '../../../machinery/errors.js';
import { newControllerRef } from '../shared/controller-ref.js';
import { computeObjectHash } from '../../../machinery/hash.js';
import {
  createRevision, nextRevisionNumber, revisionName, revisionsToPrune, sameData, sortRevisions, templatePatch,
} from '../statefulset/controller-history.js';
import { hashLabel } from './types.js';
import type { Pod, ControllerRevision, DaemonSet } from '../../../api/core/index.js';

export function newDaemonSetRevision(ds: DaemonSet, revision: number, collisionCount: number): ControllerRevision {
  const hash = computeObjectHash(ds.spec?.template ?? {}, collisionCount);
  return {
    apiVersion: 'apps/v1', kind: 'ControllerRevision',
    metadata: {
      name: revisionName(ds.metadata.name!, hash),
      namespace: ds.metadata.namespace,
      labels: { ...ds.spec?.template?.metadata?.labels, [hashLabel]: hash },
      ...(ds.metadata.annotations ? { annotations: { ...ds.metadata.annotations } } : {}),
      ownerReferences: [newControllerRef(ds, 'apps/v1', 'DaemonSet')],
    },
    data: templatePatch(ds.spec?.template),
    revision,
  };
}

export interface DaemonSetHistory {
  current: ControllerRevision;
  /** The template hash of the current revision: what updated pods carry. */
  hash: string;
  old: ControllerRevision[];
  collisionCount: number;
}

export async function constructHistory(client: Client, ds: DaemonSet, owned: ControllerRevision[]): Promise<DaemonSetHistory> {
  const collisionCount = ds.status?.collisionCount ?? 0;
  const probe = newDaemonSetRevision(ds, 0, collisionCount);
  const matching = sortRevisions(owned.filter((r) => sameData(r, probe)));
  const old = owned.filter((r) => !matching.includes(r));
  const next = nextRevisionNumber(old);
  if (matching.length === 0) {
    const created = await createRevision(client, (count) => newDaemonSetRevision(ds, next, count), collisionCount);
    return { current: created.revision, hash: hashOf(created.revision), old, collisionCount: created.collisionCount };
  }
  let current = matching[matching.length - 1]!;
  for (const duplicate of matching.slice(0, -1)) await deleteRevision(client, duplicate);
  if ((current.revision ?? 0) < next) {
    current = await client.update<ControllerRevision>(ControllerRevisions, { ...current, revision: next });
  }
  return { current, hash: hashOf(current), old, collisionCount };
}

function hashOf(revision: ControllerRevision): string {
  return revision.metadata.labels?.[hashLabel] ?? revision.metadata.name!.slice(revision.metadata.name!.lastIndexOf('-') + 1);
}

/** Old revisions whose hash no pod carries, oldest first, beyond revisionHistoryLimit (default 10). */
export async function cleanupHistory(client: Client, ds: DaemonSet, history: DaemonSetHistory, pods: Pod[]): Promise<void> {
  const liveHashes = new Set(pods.map((p) => p.metadata.labels?.[hashLabel]).filter((h): h is string => h !== undefined));
  const live = new Set(history.old.filter((r) => liveHashes.has(hashOf(r))).map((r) => r.metadata.name!));
  live.add(history.current.metadata.name!);
  for (const revision of revisionsToPrune(history.old, live, ds.spec?.revisionHistoryLimit ?? 10)) await deleteRevision(client, revision);
}

async function deleteRevision(client: Client, revision: ControllerRevision): Promise<void> {
  try {
    await client.delete(ControllerRevisions, revision.metadata.namespace, revision.metadata.name!);
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}
