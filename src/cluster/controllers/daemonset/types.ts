/** Labels and annotations of apps/v1 DaemonSet pods and revisions, and the pod-is-updated test. */
import type { KObject } from '../../../api/meta.js';
import type { DaemonSet } from '../../../api/core/index.js';


/** On pods and ControllerRevisions: the template hash (DefaultDaemonSetUniqueLabelKey). */
export const hashLabel = 'controller-revision-hash';
/** Legacy template generation label, still written when the DaemonSet carries the annotation. */
export const templateGenerationLabel = 'pod-template-generation';
export const templateGenerationAnnotation = 'deprecated.daemonset.template.generation';

/** The pod's template hash matches, or (legacy) its template generation does. */
export function isPodUpdated(pod: KObject, hash: string, ds: DaemonSet): boolean {
  const generation = ds.metadata.annotations?.[templateGenerationAnnotation];
  const labels = pod.metadata.labels ?? {};
  return labels[hashLabel] === hash || (generation !== undefined && labels[templateGenerationLabel] === generation);
}
