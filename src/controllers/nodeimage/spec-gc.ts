/**
 * The NodeImage spec clean-up (docs/design/image-pulling.md §3.2): node labels copied; tags
 * without createdAt, tags whose ImagePullJob owners are all gone, and finished tags past their TTL
 * dropped; old-style secret references whose Secret is gone dropped; images left without tags
 * dropped. Pure: it returns the new spec and when the next TTL falls due.
 */
import type { NodeImage } from '../../api/kruise/ops/nodeimage.js';
import { tagStatusOf, type ImageSpec, type TagSpec } from '../../control/imagejob/index.js';
import { timeOf } from '../../machinery/time.js';

export interface GcLookups {
  /** The uid of ImagePullJob `namespace/name`, undefined when it does not exist. */
  jobUid(namespace: string, name: string): string | undefined;
  secretExists(namespace: string, name: string): boolean;
}

export interface GcResult {
  spec: NonNullable<NodeImage['spec']>;
  /** Milliseconds until the next tag's TTL runs out, if any tag waits for one. */
  nextTtlMs?: number;
}

const isImagePullJobRef = (r: NonNullable<TagSpec['ownerReferences']>[number]) =>
  r.kind === 'ImagePullJob' && (r.apiVersion ?? '').startsWith('apps.kruise.io/');

export function collectSpec(nodeImage: NodeImage, lookups: GcLookups, now: number): GcResult {
  const images: Record<string, ImageSpec> = {};
  let nextTtlMs: number | undefined;
  for (const [name, image] of Object.entries(nodeImage.spec?.images ?? {})) {
    const tags: TagSpec[] = [];
    for (const tag of image.tags) {
      if (!tag.createdAt) continue;
      const owners = tag.ownerReferences ?? [];
      const kept = owners.filter((r) => !isImagePullJobRef(r) || lookups.jobUid(r.namespace ?? '', r.name ?? '') === r.uid);
      if (owners.length > 0 && kept.length === 0) continue;
      const ttlLeft = ttlLeftMs(nodeImage, name, tag, now);
      if (ttlLeft !== undefined && ttlLeft <= 0) continue;
      if (ttlLeft !== undefined) nextTtlMs = Math.min(nextTtlMs ?? Infinity, ttlLeft);
      tags.push(kept.length === owners.length ? tag : { ...tag, ownerReferences: kept });
    }
    if (tags.length === 0) continue;
    const secrets = image.pullSecrets?.filter((s) => s.mode === 'batch' || lookups.secretExists(s.namespace ?? '', s.name ?? ''));
    images[name] = { ...image, tags, ...(image.pullSecrets ? { pullSecrets: secrets } : {}) };
  }
  return { spec: Object.keys(images).length > 0 ? { images } : {}, nextTtlMs };
}

/** Time left before a finished tag of this version expires; undefined while it is unfinished or has no TTL. */
function ttlLeftMs(nodeImage: NodeImage, name: string, tag: TagSpec, now: number): number | undefined {
  const ttl = tag.pullPolicy?.ttlSecondsAfterFinished;
  const st = tagStatusOf(nodeImage, name, tag.tag);
  if (ttl === undefined || !st || (st.version ?? 0) !== (tag.version ?? 0)) return undefined;
  const done = timeOf(st.completionTime);
  return done === undefined ? undefined : done + ttl * 1000 - now;
}
