/**
 * CloneSet pods and PVCs as created (docs/design/cloneset.md §4), and the per-pod predicates of docs/design/cloneset.md §5:
 * updated, ready, available, toDelete, preDeleting.
 */
import { CloneSetInstanceIdLabel, type CloneSet as StoredCloneSet } from '../../api/kruise/workloads/cloneset.js';
import {
  ControllerRevisionHashLabel, InPlaceUpdateReadyCondition, LifecycleState, LifecycleStateLabel,
  LifecycleTimestampAnnotation, SpecifiedDeleteLabel,
} from '../../api/kruise/workloads/labels.js';
import type { KObject, OwnerReference } from '../../api/meta.js';
import { cloneSetRevisionLabels, revisionHash } from '../../control/inplaceupdate/index.js';
import { rfc3339 } from '../../machinery/time.js';
import type { Pod, PodTemplateSpec, ControllerRevision } from '../../api/core/index.js';
import { templateOfRevision } from '../../control/revision/index.js';

export type { Pod };

/** A v1beta1 CloneSet as the controller sees it: the schema requires spec. */
export type CloneSet = StoredCloneSet & { spec: NonNullable<StoredCloneSet['spec']> };

/** The lifecycle helpers' pod shape (nodeName typed). */

const idAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

export function randomInstanceId(random: () => number = Math.random): string {
  let id = '';
  for (let i = 0; i < 5; i++) id += idAlphabet[Math.floor(random() * idAlphabet.length)];
  return id;
}

/** `count` fresh ids not in `taken` (which is extended with them). */
export function newInstanceIds(count: number, taken: Set<string>, random: () => number = Math.random): string[] {
  const out: string[] = [];
  while (out.length < count) {
    const id = randomInstanceId(random);
    if (taken.has(id)) continue;
    taken.add(id);
    out.push(id);
  }
  return out;
}

export function cloneSetOwnerRef(cs: CloneSet): OwnerReference {
  return { apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', name: cs.metadata.name!, uid: cs.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

interface Claim extends KObject {
  metadata: KObject['metadata'];
  spec?: Record<string, unknown>;
}

/** The pod for instance `id` from `revision`'s template (today's template if unreadable), plus the PVCs it mounts. */
export function newCloneSetPod(
  cs: CloneSet, revision: ControllerRevision, id: string, now: Date, revisionLabels: (revision: string) => Record<string, string> = cloneSetRevisionLabels,
): { pod: Pod; claims: Claim[] } {
  const template: PodTemplateSpec = structuredClone(templateOfRevision(revision) ?? (cs.spec.template as PodTemplateSpec));
  const name = `${cs.metadata.name}-${id}`;
  const ownerReferences = [cloneSetOwnerRef(cs)];
  const claimTemplates = (cs.spec.volumeClaimTemplates ?? []) as unknown as Claim[];
  const claims: Claim[] = claimTemplates.map((t) => ({
    apiVersion: 'v1', kind: 'PersistentVolumeClaim',
    metadata: {
      name: `${t.metadata.name}-${name}`, namespace: cs.metadata.namespace, ownerReferences,
      labels: { ...t.metadata.labels, ...cs.spec.selector.matchLabels, [CloneSetInstanceIdLabel]: id },
    },
    spec: structuredClone(t.spec),
  }));
  const spec = (template.spec ?? { containers: [] }) as Pod['spec'];
  const gates = spec.readinessGates ?? [];
  if (!gates.some((g) => g.conditionType === InPlaceUpdateReadyCondition)) spec.readinessGates = [...gates, { conditionType: InPlaceUpdateReadyCondition }];
  if (claimTemplates.length > 0) {
    // A claim replaces a same-named template volume.
    const claimed = new Set(claimTemplates.map((t) => t.metadata.name));
    const volumes = (spec.volumes ?? []).filter((v) => !claimed.has(v.name));
    spec.volumes = [...volumes, ...claimTemplates.map((t, i) => ({ name: t.metadata.name!, persistentVolumeClaim: { claimName: claims[i]!.metadata.name! } }))];
  }
  const pod: Pod = {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      ...template.metadata, name, namespace: cs.metadata.namespace, ownerReferences,
      labels: {
        ...template.metadata?.labels, ...revisionLabels(revision.metadata.name!),
        [CloneSetInstanceIdLabel]: id, [LifecycleStateLabel]: LifecycleState.PreparingNormal,
      },
      annotations: { ...template.metadata?.annotations, [LifecycleTimestampAnnotation]: rfc3339(now) },
    },
    spec,
  };
  return { pod, claims };
}

const condition = (pod: Pod, type: string) => pod.status?.conditions?.find((c) => c.type === type);

/** Pod on the update revision: full name or bare-hash match. */
export function isUpdated(pod: Pod, updateRevision: string): boolean {
  const label = pod.metadata.labels?.[ControllerRevisionHashLabel];
  return label === updateRevision || (label !== undefined && label === revisionHash(updateRevision));
}

export function isReady(pod: Pod): boolean {
  const inPlace = condition(pod, InPlaceUpdateReadyCondition);
  return pod.status?.phase === 'Running' && condition(pod, 'Ready')?.status === 'True' && (!inPlace || inPlace.status === 'True');
}

/** Ready for minReadySeconds with lifecycle Normal (or none); returns ms left when ready but not yet long enough. */
export function availability(pod: Pod, minReadySeconds: number, now: number): { available: boolean; waitMs?: number } {
  const state = pod.metadata.labels?.[LifecycleStateLabel];
  if ((state && state !== LifecycleState.Normal) || !isReady(pod)) return { available: false };
  if (minReadySeconds <= 0) return { available: true };
  const since = Date.parse(condition(pod, 'Ready')?.lastTransitionTime ?? '');
  const left = (Number.isNaN(since) ? now : since) + minReadySeconds * 1000 - now;
  return left <= 0 ? { available: true } : { available: false, waitMs: left };
}

export const isToDelete = (pod: Pod, cs: CloneSet): boolean =>
  pod.metadata.labels?.[SpecifiedDeleteLabel] !== undefined || (cs.spec.scaleStrategy?.podsToDelete ?? []).includes(pod.metadata.name!);

export const isPreDeleting = (pod: Pod): boolean => pod.metadata.labels?.[LifecycleStateLabel] === LifecycleState.PreparingDelete;

export function isActive(pod: Pod): boolean {
  return !pod.metadata.deletionTimestamp && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';
}
