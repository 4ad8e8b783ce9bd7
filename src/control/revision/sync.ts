/**
 * Carrying out a RevisionPlan through a Client: re-number a rolled-back revision, or create the new
 * one, stepping the collision count while the name belongs to a revision with other content that
 * the cache did not show (AlreadyExists). Trimming deletes ignore revisions already gone.
 */
import { ControllerRevisions } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { isAlreadyExists, isNotFound } from '../../machinery/errors.js';
import { equalRevision } from './equality.js';
import { planRevisions } from './history.js';
import { newRevision, revisionData } from './new-revision.js';
import type { RevisionedWorkload, RevisionOptions } from './types.js';
import type { ControllerRevision } from '../../api/core/index.js';

export interface SyncedRevisions {
  currentRevision: ControllerRevision;
  updateRevision: ControllerRevision;
  collisionCount: number;
  /** Every revision the workload owns after this sync. */
  revisions: ControllerRevision[];
}

const maxCollisions = 100;

/**
 * Creates `build(collisionCount)`; while its name belongs to a revision with other content (one the
 * cache did not show), steps the collision count and tries the next name. An equal one is reused.
 */
export async function createRevision(
  client: Client, build: (collisionCount: number) => ControllerRevision, collisionCount: number,
): Promise<{ revision: ControllerRevision; collisionCount: number }> {
  for (let count = collisionCount; count < collisionCount + maxCollisions; count++) {
    const wanted = build(count);
    try {
      return { revision: await client.create<ControllerRevision>(ControllerRevisions, wanted), collisionCount: count };
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
    const existing = await client.get<ControllerRevision>(ControllerRevisions, wanted.metadata.namespace, wanted.metadata.name!);
    if (equalRevision(existing, wanted)) return { revision: existing, collisionCount: count };
  }
  throw new Error(`no free ControllerRevision name for ${build(collisionCount).metadata.name} after ${maxCollisions} collisions`);
}

export async function syncRevisions(
  client: Client, workload: RevisionedWorkload, liveRevisions: readonly ControllerRevision[], options: RevisionOptions = {},
): Promise<SyncedRevisions> {
  const plan = planRevisions(workload, liveRevisions, options);
  let { updateRevision, collisionCount } = plan;
  if (plan.toBump) {
    updateRevision = await client.update<ControllerRevision>(ControllerRevisions, plan.toBump);
  } else if (plan.toCreate) {
    const number = plan.toCreate.revision;
    const build = (count: number) => (count === collisionCount ? plan.toCreate! : newRevision(workload, revisionData(workload), number, count, options));
    ({ revision: updateRevision, collisionCount } = await createRevision(client, build, collisionCount));
  }
  const revisions = [...liveRevisions.filter((r) => r.metadata.name !== updateRevision.metadata.name), updateRevision];
  const currentName = plan.currentRevision.metadata.name;
  const currentRevision = currentName === plan.updateRevision.metadata.name ? updateRevision : plan.currentRevision;
  return { currentRevision, updateRevision, collisionCount, revisions };
}

/** Deletes the given revisions (e.g. revisionsToTrim); ones already gone are skipped. */
export async function deleteRevisions(client: Client, revisions: readonly ControllerRevision[]): Promise<void> {
  for (const r of revisions) {
    try {
      await client.delete(ControllerRevisions, r.metadata.namespace, r.metadata.name!);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
}
