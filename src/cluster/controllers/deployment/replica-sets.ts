/**
 * A Deployment's ReplicaSets: which one is "new" (the oldest whose template equals the
 * deployment's, ignoring the pod-template-hash label), which are old, orderings, and the new
 * ReplicaSet to create: `<deployment>-<hash>` with the hash label on its selector and template.
 */
import { deepEqual } from '../../../machinery/deep-equal.js';
import type { MetaLabelSelector } from '../../../machinery/labels.js';
import { newControllerRef } from '../../../control/ownership/index.js';
import { computeObjectHash } from '../../../machinery/hash.js';
import { specReplicas } from './budgets.js';
import { timeOf } from '../../../machinery/time.js';
import type { Deployment, PodTemplateSpec, ReplicaSet } from '../../../api/core/index.js';

export const podTemplateHashLabel = 'pod-template-hash';

/** Drops empty maps and lists, as apimachinery's semantic equality treats them like absent ones. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map(normalize);
  if (value === null || typeof value !== 'object') return value ?? undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const n = normalize(v);
    if (n !== undefined) out[k] = n;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

function withoutHash(t: PodTemplateSpec | undefined): unknown {
  const labels = { ...(t?.metadata?.labels ?? {}) };
  delete labels[podTemplateHashLabel];
  return normalize({ ...t, metadata: { ...t?.metadata, labels } });
}

export function equalIgnoreHash(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  return deepEqual(withoutHash(a), withoutHash(b));
}

/** Oldest first; equal times by name (ReplicaSetsByCreationTimestamp). */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  const ta = timeOf(a.metadata.creationTimestamp) ?? 0, tb = timeOf(b.metadata.creationTimestamp) ?? 0;
  if (ta !== tb) return ta - tb;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0;
}

export function findNewReplicaSet(d: Deployment, rsList: readonly ReplicaSet[]): ReplicaSet | undefined {
  return [...rsList].sort(byCreation).find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
}

export function findOldReplicaSets(rsList: readonly ReplicaSet[], newRS: ReplicaSet | undefined): ReplicaSet[] {
  return rsList.filter((rs) => !newRS || rs.metadata.uid !== newRS.metadata.uid);
}

/** ReplicaSets with a non-zero desired size. */
export function activeReplicaSets(list: readonly (ReplicaSet | undefined)[]): ReplicaSet[] {
  return list.filter((rs): rs is ReplicaSet => rs !== undefined && specReplicas(rs) > 0);
}

export function templateHash(d: Deployment): string {
  return computeObjectHash(d.spec?.template ?? {}, d.status?.collisionCount);
}

function selectorWithHash(selector: MetaLabelSelector | undefined, hash: string): MetaLabelSelector {
  return { ...selector, matchLabels: { ...(selector?.matchLabels ?? {}), [podTemplateHashLabel]: hash } };
}

/** The ReplicaSet object to create for the deployment's current template (size and annotations set later). */
export function newReplicaSetObject(d: Deployment): ReplicaSet {
  const hash = templateHash(d);
  const template = structuredClone(d.spec?.template ?? {});
  const labels = { ...(template.metadata?.labels ?? {}), [podTemplateHashLabel]: hash };
  template.metadata = { ...template.metadata, labels };
  const rs: ReplicaSet = {
    apiVersion: 'apps/v1', kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata.name}-${hash}`, namespace: d.metadata.namespace, labels: { ...labels },
      ownerReferences: [newControllerRef(d, 'apps/v1', 'Deployment')],
    },
    spec: { replicas: 0, selector: selectorWithHash(d.spec?.selector, hash), template },
  };
  if (d.spec?.minReadySeconds) rs.spec!.minReadySeconds = d.spec.minReadySeconds;
  return rs;
}
