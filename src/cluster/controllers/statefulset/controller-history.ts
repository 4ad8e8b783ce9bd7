/**
 * ControllerRevision helpers shared by the StatefulSet and DaemonSet controllers (Kubernetes'
 * controller/history package and the two getPatch functions): the template snapshot each revision
 * stores, ordering, the next revision number, collision-safe creation, and history pruning.
 * (Generic: a candidate for controllers/shared/.)
 */
import { ControllerRevisions } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { deepEqual } from '../../../machinery/deep-equal.js';
import { isAlreadyExists } from '../../../machinery/errors.js';
import type { PodTemplateSpec, ControllerRevision } from '../../../api/core/index.js';

/** The revision data: `{"spec":{"template":{...,"$patch":"replace"}}}`, a strategic patch of the owner. */
export function templatePatch(template: PodTemplateSpec | undefined): { spec: { template: Record<string, unknown> } } {
  return { spec: { template: { ...(template ?? {}), $patch: 'replace' } } };
}

/** The pod template a revision recorded. */
export function templateOfRevision(revision: ControllerRevision): PodTemplateSpec {
  const data = revision.data as { spec?: { template?: Record<string, unknown> } } | undefined;
  const { $patch: _patch, ...template } = data?.spec?.template ?? {};
  return template as PodTemplateSpec;
}

/** Names are `<owner>-<hash>`, the owner part cut to 223 characters so the name fits in 253. */
export function revisionName(owner: string, hash: string): string {
  return `${owner.slice(0, 223)}-${hash}`;
}

/** By revision number, then creation time, then name. */
export function sortRevisions(revisions: readonly ControllerRevision[]): ControllerRevision[] {
  return [...revisions].sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0)
    || (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '')
    || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
}

export function nextRevisionNumber(revisions: readonly ControllerRevision[]): number {
  return revisions.reduce((max, r) => Math.max(max, r.revision ?? 0), 0) + 1;
}

export function sameData(a: ControllerRevision, b: ControllerRevision): boolean {
  return deepEqual(a.data, b.data);
}

/**
 * Creates the revision `build(collisionCount)`; when its name is taken by a revision with other data,
 * bumps the collision count and tries the next name. An existing revision with the same data is reused.
 */
export async function createRevision(
  client: Client, build: (collisionCount: number) => ControllerRevision, collisionCount: number,
): Promise<{ revision: ControllerRevision; collisionCount: number }> {
  for (let count = collisionCount; count < collisionCount + 100; count++) {
    const wanted = build(count);
    try {
      return { revision: await client.create<ControllerRevision>(ControllerRevisions, wanted), collisionCount: count };
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
    const existing = await client.get<ControllerRevision>(ControllerRevisions, wanted.metadata.namespace, wanted.metadata.name!);
    if (sameData(existing, wanted)) return { revision: existing, collisionCount: count };
  }
  throw new Error(`no free ControllerRevision name for ${build(collisionCount).metadata.name} after 100 collisions`);
}

/** The oldest revisions not in `live`, beyond what `limit` lets us keep. */
export function revisionsToPrune(revisions: readonly ControllerRevision[], live: ReadonlySet<string>, limit: number): ControllerRevision[] {
  const dead = sortRevisions(revisions.filter((r) => !live.has(r.metadata.name!)));
  return dead.slice(0, Math.max(0, dead.length - Math.max(0, limit)));
}
