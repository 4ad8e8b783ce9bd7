/**
 * The extracted-env hash (docs/design/container-meta.md §3): one number per container over the
 * values of its env variables that read a pod label or annotation through `fieldRef`. The manager
 * computes the value it expects from the pod's metadata; the daemon computes the value a running
 * container holds from the environment the container reports. Equal numbers mean the container
 * runs with the current values; a different one means it must restart to pick them up.
 */
import { fnv1a } from '../../machinery/hash.js';
import type { ObjectMeta } from '../../api/meta.js';
import type { Container } from '../../api/core/index.js';
import { compareStrings } from '../../machinery/order.js';

/** Variables the SidecarSet hot upgrade maintains itself: a change never asks for a restart. */
const excludedEnvs = new Set(['SIDECARSET_VERSION', 'SIDECARSET_VERSION_ALT']);

export type MetadataField = 'labels' | 'annotations';

/** `metadata.labels['key']` / `metadata.annotations['key']` split; undefined for any other path. */
export function metadataReference(fieldPath: string | undefined): { field: MetadataField; key: string } | undefined {
  const m = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(fieldPath ?? '');
  return m ? { field: m[1] as MetadataField, key: m[2]! } : undefined;
}

/** The container's env variables that read a label or annotation, with what they read. */
export function envFromMetadata(c: Container): { name: string; field: MetadataField; key: string }[] {
  const out: { name: string; field: MetadataField; key: string }[] = [];
  for (const e of c.env ?? []) {
    if (e.value || excludedEnvs.has(e.name)) continue;
    const ref = metadataReference(e.valueFrom?.fieldRef?.fieldPath);
    if (ref) out.push({ name: e.name, ...ref });
  }
  return out;
}

/** The container reads `key` of `field` through an env variable. */
export const refersToMetadata = (c: Container, field: MetadataField, key: string): boolean =>
  envFromMetadata(c).some((r) => r.field === field && r.key === key);

/**
 * FNV-1a over the sorted `name=value` pairs. Never 0: the runtime meta uses 0 for "not computed
 * yet" (a container that was not running when the daemon looked).
 */
function hashPairs(pairs: [string, string][]): number {
  pairs.sort(([a], [b]) => compareStrings(a, b));
  return fnv1a(new TextEncoder().encode(JSON.stringify(pairs))) || 1;
}

/** The hash the container should run with, from the pod's current labels and annotations. */
export function expectedEnvHash(c: Container, meta: Pick<ObjectMeta, 'labels' | 'annotations'>): number {
  return hashPairs(envFromMetadata(c).map((r) => [r.name, meta[r.field]?.[r.key] ?? '']));
}

/** The hash of what a running container holds, from its environment as `name → value`. */
export function currentEnvHash(c: Container, env: ReadonlyMap<string, string>): number {
  return hashPairs(envFromMetadata(c).map((r) => [r.name, env.get(r.name) ?? '']));
}
