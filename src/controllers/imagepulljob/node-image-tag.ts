/**
 * An ImagePullJob's mark on one NodeImage (docs/design/image-pulling.md §4.3): its image entry
 * holds the synced secret references, and a tag owned by the job; how far that tag got is read
 * from the status of the same version. Pure functions over the objects.
 */
import type { ImagePullJobObject, NodeImageObject, TagSpec } from '../../control/imagejob/index.js';
import { splitImage, tagStatusOf } from '../../control/imagejob/index.js';
import { rfc3339 } from '../../machinery/time.js';
import { compareStrings } from '../../machinery/order.js';

export interface SecretRef { namespace: string; name: string; mode?: string }
export type NodeState = 'notSynced' | 'pulling' | 'succeeded' | 'failed';

/** Added to an Always job's tag TTL so nodes keep the record a while (`--default-ttlseconds-for-always-nodeimage`). */
const defaultTtlSecondsForAlways = 300;

export function nodeState(ni: NodeImageObject, job: ImagePullJobObject, refs: SecretRef[]): NodeState {
  const { name, tag } = splitImage(job.spec!.image);
  const image = ni.spec?.images?.[name];
  if (!image) return 'notSynced';
  if (refs.some((r) => !image.pullSecrets?.some((s) => s.namespace === r.namespace && s.name === r.name))) return 'notSynced';
  const t = image.tags.find((x) => x.tag === tag && x.ownerReferences?.some((o) => o.uid === job.metadata.uid));
  if (!t) return 'notSynced';
  const st = tagStatusOf(ni, name, tag);
  if (!st || (st.version ?? 0) !== (t.version ?? 0)) return 'pulling';
  return st.phase === 'Succeeded' ? 'succeeded' : st.phase === 'Failed' ? 'failed' : 'pulling';
}

/** The NodeImage spec with the job's tag and secret references in place. */
export function withJobTag(ni: NodeImageObject, job: ImagePullJobObject, refs: SecretRef[], now: number, random: () => number): NonNullable<NodeImageObject['spec']> {
  const spec = structuredClone(ni.spec ?? {});
  const { name, tag } = splitImage(job.spec!.image);
  const images = (spec.images ??= {});
  const image = (images[name] ??= { tags: [] });
  for (const r of refs) {
    if (!image.pullSecrets?.some((s) => s.namespace === r.namespace && s.name === r.name)) (image.pullSecrets ??= []).push({ ...r });
  }
  if (job.spec?.sandboxConfig) image.sandboxConfig = structuredClone(job.spec.sandboxConfig);
  const owner = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob', name: job.metadata.name!, namespace: job.metadata.namespace!, uid: job.metadata.uid! };
  const existing = image.tags.find((t) => t.tag === tag);
  if (existing) {
    if (!existing.ownerReferences?.some((o) => o.uid === owner.uid)) {
      existing.version = (existing.version ?? 0) + 1;
      existing.createdAt = rfc3339(now);
      existing.imagePullPolicy = job.spec?.imagePullPolicy ?? 'IfNotPresent';
      (existing.ownerReferences ??= []).push(owner);
    }
  } else {
    const last = tagStatusOf(ni, name, tag);
    image.tags.push({
      tag, createdAt: rfc3339(now), version: last ? (last.version ?? 0) + 1 : 0, ownerReferences: [owner],
      pullPolicy: tagPullPolicy(job, random), imagePullPolicy: job.spec?.imagePullPolicy ?? 'IfNotPresent',
    });
  }
  image.tags.sort((a, b) => compareStrings(a.tag, b.tag));
  return spec;
}

/** Always: TTL from the job (TTL, else deadline, else timeout × retries) plus 300-600 s; Never: about a day. */
function tagPullPolicy(job: ImagePullJobObject, random: () => number): NonNullable<TagSpec['pullPolicy']> {
  const timeoutSeconds = job.spec?.pullPolicy?.timeoutSeconds ?? 600;
  const backoffLimit = job.spec?.pullPolicy?.backoffLimit ?? 3;
  const cp = job.spec?.completionPolicy;
  if (cp?.type === 'Never') {
    return { timeoutSeconds, backoffLimit, ttlSecondsAfterFinished: 86_400 + Math.floor(random() * 1200) - 600, activeDeadlineSeconds: Math.max(1800, timeoutSeconds) };
  }
  const base = cp?.ttlSecondsAfterFinished ?? cp?.activeDeadlineSeconds ?? timeoutSeconds * backoffLimit;
  return {
    timeoutSeconds, backoffLimit, ttlSecondsAfterFinished: base + defaultTtlSecondsForAlways + Math.floor(random() * 300),
    ...(cp?.activeDeadlineSeconds !== undefined ? { activeDeadlineSeconds: cp.activeDeadlineSeconds } : {}),
  };
}
