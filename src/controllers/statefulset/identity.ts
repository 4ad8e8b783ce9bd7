/**
 * Stable pod identity (docs/design/advanced-statefulset.md §4): the pod for an ordinal from a revision's template with
 * name `<set>-<ordinal>`, identity labels, revision label, hostname/subdomain, lifecycle state and
 * per-ordinal claims `<claim>-<set>-<ordinal>` mounted in place of same-named template volumes;
 * and the checks that an existing pod still has that identity and storage.
 */
import { PodIndexLabel, StatefulSetPodNameLabel } from '../../api/kruise/workloads/statefulset.js';
import { ControllerRevisionHashLabel, LifecycleStateLabel, LifecycleTimestampAnnotation } from '../../api/kruise/workloads/labels.js';
import type { OwnerReference } from '../../api/meta.js';
import { nextStateForCreate } from '../../control/lifecycle/index.js';
import { ordinalOf, podName } from './ordinals.js';
import { type GateReader, type StatefulSet } from './types.js';
import { rfc3339 } from '../../machinery/time.js';
import type { PodTemplateSpec, ControllerRevision, Pod } from '../../api/core/index.js';
import { templateOfRevision } from '../../control/revision/index.js';

export function setOwnerRef(set: StatefulSet): OwnerReference {
  return { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: set.metadata.name!, uid: set.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

export function claimName(template: string, set: StatefulSet, ordinal: number): string {
  return `${template}-${set.metadata.name}-${ordinal}`;
}

const claimTemplateNames = (set: StatefulSet): string[] =>
  (set.spec.volumeClaimTemplates ?? []).map((t) => (t as { metadata?: { name?: string } }).metadata?.name ?? '');

/** Identity labels of `ordinal` (pod-index behind gate PodIndexLabel). */
export function identityLabels(set: StatefulSet, ordinal: number, gate: GateReader): Record<string, string> {
  const labels: Record<string, string> = { [StatefulSetPodNameLabel]: podName(set, ordinal) };
  if (gate('PodIndexLabel')) labels[PodIndexLabel] = String(ordinal);
  return labels;
}

/** The pod of `ordinal` built from `revision` (today's template when the revision is unreadable). */
export function newStatefulSetPod(set: StatefulSet, revision: ControllerRevision, ordinal: number, gate: GateReader, now: Date): Pod {
  const template: PodTemplateSpec = structuredClone(templateOfRevision(revision) ?? (set.spec.template as PodTemplateSpec));
  const name = podName(set, ordinal);
  const spec = (template.spec ?? { containers: [] }) as Pod['spec'];
  spec.hostname = name;
  if (set.spec.serviceName) spec.subdomain = set.spec.serviceName;
  const claims = claimTemplateNames(set);
  if (claims.length > 0) {
    const claimed = new Set(claims);
    const volumes = (spec.volumes ?? []).filter((v) => !claimed.has(v.name));
    spec.volumes = [...claims.map((c) => ({ name: c, persistentVolumeClaim: { claimName: claimName(c, set, ordinal) } })), ...volumes];
  }
  const meta = template.metadata ?? {};
  const pod: Pod = {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name, namespace: set.metadata.namespace, ownerReferences: [setOwnerRef(set)],
      labels: { ...meta.labels, ...identityLabels(set, ordinal, gate), [ControllerRevisionHashLabel]: revision.metadata.name! },
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(meta.finalizers ? { finalizers: [...meta.finalizers] } : {}),
    },
    spec,
  };
  const state = nextStateForCreate('StatefulSet', set.spec.lifecycle, pod);
  if (state) {
    pod.metadata.labels![LifecycleStateLabel] = state;
    pod.metadata.annotations = { ...pod.metadata.annotations, [LifecycleTimestampAnnotation]: rfc3339(now) };
  }
  return pod;
}

/** The identity labels that differ from what `ordinal` needs (empty when the pod conforms). */
export function identityDrift(set: StatefulSet, pod: Pod, gate: GateReader): Record<string, string> {
  const ordinal = ordinalOf(set.metadata.name!, pod.metadata.name);
  if (ordinal === undefined) return {};
  const want = identityLabels(set, ordinal, gate);
  return Object.fromEntries(Object.entries(want).filter(([k, v]) => pod.metadata.labels?.[k] !== v));
}

/** Every claim template is mounted from this ordinal's claim. */
export function storageMatches(set: StatefulSet, pod: Pod): boolean {
  const ordinal = ordinalOf(set.metadata.name!, pod.metadata.name);
  if (ordinal === undefined) return false;
  const volumes = new Map((pod.spec.volumes ?? []).map((v) => [v.name, v]));
  return claimTemplateNames(set).every((c) => volumes.get(c)?.persistentVolumeClaim?.claimName === claimName(c, set, ordinal));
}
