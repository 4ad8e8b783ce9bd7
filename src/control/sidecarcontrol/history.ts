/**
 * SidecarSet revisions (docs/design/sidecarset.md §4): a ControllerRevision holds the sidecar part
 * of the spec (`{"spec": {"$patch": "replace", volumes, containers, initContainers,
 * imagePullSecrets, patchPodMetadata}}`) and a copy of the SidecarSet's annotations (so its
 * hashes). Restoring one overlays those five fields on the current SidecarSet.
 */
import type { SidecarSet } from './match.js';
import type { ControllerRevision, Pod } from '../../api/core/index.js';
import {
  SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation, type SidecarSetSpec,
} from '../../api/kruise/ops/sidecarset.js';
import { scaledIntOrPercent } from '../../machinery/int-or-percent.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import type { InjectionChoice } from './inject.js';

const revisionFields = ['volumes', 'containers', 'initContainers', 'imagePullSecrets', 'patchPodMetadata'] as const;

/** The `data` of a revision of `set`. */
export function revisionData(set: SidecarSet): { spec: Record<string, unknown> } {
  const spec: Record<string, unknown> = { $patch: 'replace' };
  for (const f of revisionFields) if (set.spec?.[f] !== undefined) spec[f] = structuredClone(set.spec[f]);
  return { spec };
}

export function currentChoice(set: SidecarSet): InjectionChoice {
  const a = set.metadata.annotations ?? {};
  return {
    set, hash: a[SidecarSetHashAnnotation] ?? '', hashWithoutImage: a[SidecarSetHashWithoutImageAnnotation] ?? '',
    revision: set.status?.latestRevision,
  };
}

/** `set` as it was at `revision`. */
export function restoreRevision(set: SidecarSet, revision: ControllerRevision): InjectionChoice {
  const stored = ((revision.data as { spec?: Record<string, unknown> } | undefined)?.spec) ?? {};
  const spec: SidecarSetSpec = { ...structuredClone(set.spec ?? {}) };
  for (const f of revisionFields) {
    if (stored[f] === undefined) delete spec[f];
    else (spec as Record<string, unknown>)[f] = structuredClone(stored[f]);
  }
  const a = revision.metadata.annotations ?? {};
  const restored: SidecarSet = { ...set, metadata: { ...set.metadata, annotations: { ...set.metadata.annotations, ...a } }, spec,
    status: { ...set.status ?? { matchedPods: 0, readyPods: 0, updatedPods: 0 }, latestRevision: revision.metadata.name } };
  return { set: restored, hash: a[SidecarSetHashAnnotation] ?? '', hashWithoutImage: a[SidecarSetHashWithoutImageAnnotation] ?? '', revision: revision.metadata.name };
}

/**
 * Which version a new pod gets when injectionStrategy.revision names one: Always (default) or a
 * paused update → the historical one; Partial → historical when updateStrategy.selector misses the
 * pod, or with the probability of a percentage partition; else the latest.
 */
export function useHistoricalRevision(set: SidecarSet, pod: Pod, random: () => number): boolean {
  const strategy = set.spec?.updateStrategy;
  if (strategy?.paused) return true;
  if ((set.spec?.injectionStrategy?.revision?.policy ?? 'Always') !== 'Partial') return true;
  if (strategy?.selector) {
    try {
      if (!selectorFromLabelSelector(strategy.selector as MetaLabelSelector).matches(pod.metadata.labels ?? {})) return true;
    } catch {
      return true;
    }
  }
  const partition = strategy?.partition;
  if (typeof partition === 'string' && partition.endsWith('%')) {
    const scaled = scaledIntOrPercent(partition, 100, true);
    return random() * 100 < (scaled.value ?? 0);
  }
  return false;
}
