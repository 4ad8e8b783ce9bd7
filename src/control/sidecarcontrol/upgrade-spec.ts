/**
 * The per-SidecarSet records a pod carries (docs/design/sidecarset.md §3): annotations
 * `kruise.io/sidecarset-hash` and `...-hash-without-image` are JSON maps SidecarSet name →
 * {updateTimestamp, hash, sidecarSetName, sidecarList, controllerRevision?}, serialised with
 * upstream's field order and sorted map keys so they read the same as Go Kruise's; the older
 * form name → hash string is still read. `kruise.io/sidecarset-injected-list` is the sorted names.
 */
import type { Pod } from '../../api/core/index.js';
import {
  SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation, SidecarSetInjectedListAnnotation,
} from '../../api/kruise/ops/sidecarset-keys.js';

export interface SidecarSetUpgradeSpec {
  updateTimestamp?: string;
  hash: string;
  sidecarSetName: string;
  sidecarList?: string[];
  controllerRevision?: string;
}

export type UpgradeSpecs = Record<string, SidecarSetUpgradeSpec>;

export function readUpgradeSpecs(pod: Pod, annotation: string = SidecarSetHashAnnotation): UpgradeSpecs {
  const text = pod.metadata.annotations?.[annotation];
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new Error(`pod(${pod.metadata.namespace}.${pod.metadata.name}) invalid annotations[${annotation}] value ${text}, unmarshal failed: ${(e as Error).message}`);
  }
  const out: UpgradeSpecs = {};
  for (const [name, v] of Object.entries(parsed as Record<string, unknown>)) {
    out[name] = typeof v === 'string' ? { hash: v, sidecarSetName: name } : v as SidecarSetUpgradeSpec;
  }
  return out;
}

/** Go's encoding: map keys sorted, struct fields in declaration order, controllerRevision omitted when empty. */
export function formatUpgradeSpecs(specs: UpgradeSpecs): string {
  const sorted: Record<string, unknown> = {};
  for (const name of Object.keys(specs).sort()) {
    const s = specs[name]!;
    sorted[name] = {
      updateTimestamp: s.updateTimestamp ?? null, hash: s.hash, sidecarSetName: s.sidecarSetName, sidecarList: s.sidecarList ?? null,
      ...(s.controllerRevision ? { controllerRevision: s.controllerRevision } : {}),
    };
  }
  return JSON.stringify(sorted);
}

/** Names in the injected-list annotation. */
export function injectedSidecarSets(pod: Pod): string[] {
  const text = pod.metadata.annotations?.[SidecarSetInjectedListAnnotation];
  return text ? text.split(',').filter(Boolean) : [];
}

export const formatInjectedList = (names: Iterable<string>): string => [...new Set(names)].sort().join(',');

/** The pod's recorded hash (or hash-without-image) of `set`, '' when it has none. */
export function podSidecarSetHash(pod: Pod, set: string, withoutImage = false): string {
  const specs = readUpgradeSpecs(pod, withoutImage ? SidecarSetHashWithoutImageAnnotation : SidecarSetHashAnnotation);
  return specs[set]?.hash ?? '';
}

/** RFC 3339 in whole seconds, as metav1.Time marshals. */
export const rfc3339 = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
