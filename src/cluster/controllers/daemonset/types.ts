/** The slice of apps/v1 DaemonSet the DaemonSet controller reads and writes. */
import type { KObject } from '../../../api/meta.js';
import type { MetaLabelSelector } from '../../../machinery/labels.js';
import type { IntOrString, PodTemplateSpec } from '../shared/types.js';

/** On pods and ControllerRevisions: the template hash (DefaultDaemonSetUniqueLabelKey). */
export const hashLabel = 'controller-revision-hash';
/** Legacy template generation label, still written when the DaemonSet carries the annotation. */
export const templateGenerationLabel = 'pod-template-generation';
export const templateGenerationAnnotation = 'deprecated.daemonset.template.generation';

export interface DaemonSetSpec {
  selector?: MetaLabelSelector;
  template?: PodTemplateSpec;
  updateStrategy?: { type?: 'RollingUpdate' | 'OnDelete'; rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString } };
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
}

export interface DaemonSetStatus {
  currentNumberScheduled?: number;
  numberMisscheduled?: number;
  desiredNumberScheduled?: number;
  numberReady?: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number;
  [field: string]: unknown;
}

export interface DaemonSet extends KObject {
  spec?: DaemonSetSpec;
  status?: DaemonSetStatus;
}

/** The pod's template hash matches, or (legacy) its template generation does. */
export function isPodUpdated(pod: KObject, hash: string, ds: DaemonSet): boolean {
  const generation = ds.metadata.annotations?.[templateGenerationAnnotation];
  const labels = pod.metadata.labels ?? {};
  return labels[hashLabel] === hash || (generation !== undefined && labels[templateGenerationLabel] === generation);
}
