/**
 * Shapes the revision history works on (ControllerRevision is api/core's): the revision data and
 * any workload with a pod template (CloneSet, Advanced StatefulSet, Advanced DaemonSet all fit).
 */
import type { ObjectMeta } from '../../api/meta.js';

/** The revision data: a strategic-merge patch of the workload that replaces its template. */
export interface RevisionData {
  spec: { template: Record<string, unknown> };
}


export interface RevisionedWorkload {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: { template?: object };
  status?: { collisionCount?: number; currentRevision?: string };
}

/**
 * How a revision is named and labelled.
 * - `data-hash` (CloneSet, Advanced StatefulSet): FNV-1 over the data bytes, label `controller.kubernetes.io/hash`.
 * - `template-hash` (Advanced DaemonSet): ComputeHash of the template, label `controller-revision-hash`.
 */
export type RevisionHashMode = 'data-hash' | 'template-hash';

export interface RevisionOptions {
  /** Default `data-hash`. */
  mode?: RevisionHashMode;
  /** Owner reference apiVersion/kind; default the workload's own, else `apps.kruise.io/v1beta1`. */
  ownerApiVersion?: string;
  ownerKind?: string;
  /** Extra annotations on top of the workload's (e.g. CloneSet's volumeClaimTemplates hash). */
  extraAnnotations?: Record<string, string>;
}
