/**
 * The distributed object (docs/design/resourcedistribution.md §3): spec.resource placed in one
 * namespace, the live copy's labels, annotations and finalizers merged in (the resource's values
 * win), controlled by the distribution and stamped with the resource's hash and the RD's name.
 */
import { createHash } from 'node:crypto';
import type { KObject, ObjectMeta, OwnerReference } from '../../api/meta.js';
import {
  ResourceDistributionFromAnnotation, ResourceDistributionHashCodeAnnotation, type ResourceDistribution,
} from '../../api/kruise/ops/resourcedistribution.js';
import { deepEqual } from '../../machinery/deep-equal.js';

export type ResourceDistributionObject = ResourceDistribution & { metadata: ObjectMeta };

export interface DecodedResource { kind: 'ConfigMap' | 'Secret'; name: string; object: KObject }

/** A v1 ConfigMap or Secret with a name, or undefined (such a distribution is not retried). */
export function decodeResource(rd: ResourceDistributionObject): DecodedResource | undefined {
  const r = rd.spec?.resource as KObject | undefined;
  if (!r || r.apiVersion !== 'v1' || (r.kind !== 'ConfigMap' && r.kind !== 'Secret') || !r.metadata?.name) return undefined;
  return { kind: r.kind, name: r.metadata.name, object: r };
}

/** Go's json.Marshal of a map: keys sorted, no spaces, `<`, `>` and `&` escaped. */
function goJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value).sort().filter((k) => (value as Record<string, unknown>)[k] !== undefined);
    return `{${entries.map((k) => `${goJson(k)}:${goJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Lowercase hex SHA-256 of spec.resource as a Go client serialises it. */
export function resourceHash(rd: ResourceDistributionObject): string {
  return createHash('sha256').update(goJson(rd.spec?.resource ?? {})).digest('hex');
}

export function controllerRef(rd: ResourceDistributionObject): OwnerReference {
  return { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ResourceDistribution', name: rd.metadata.name!, uid: rd.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

export const isOwnedBy = (obj: KObject, rd: ResourceDistributionObject): boolean =>
  obj.metadata.ownerReferences?.some((r) => r.controller && r.uid === rd.metadata.uid) ?? false;

const payload = (o: KObject) => {
  const { apiVersion: _a, kind: _k, metadata: _m, status: _s, ...rest } = o as KObject & { status?: unknown };
  return rest;
};

/** Anything outside metadata and status differs (direct edits of a copy are reverted). */
export const needsUpdate = (live: KObject, resource: KObject): boolean => !deepEqual(payload(live), payload(resource));

export function distributedObject(rd: ResourceDistributionObject, r: DecodedResource, namespace: string, hash: string, live?: KObject): KObject {
  const src = structuredClone(r.object);
  const meta = src.metadata;
  const labels = { ...live?.metadata.labels, ...meta.labels };
  const annotations = { ...live?.metadata.annotations, ...meta.annotations, [ResourceDistributionHashCodeAnnotation]: hash, [ResourceDistributionFromAnnotation]: rd.metadata.name! };
  const finalizers = [...new Set([...(meta.finalizers ?? []), ...(live?.metadata.finalizers ?? [])])].sort();
  const owners = (live?.metadata.ownerReferences ?? meta.ownerReferences ?? []).filter((o) => o.uid !== rd.metadata.uid);
  return {
    ...src,
    metadata: {
      ...(live && { resourceVersion: live.metadata.resourceVersion, uid: live.metadata.uid }),
      name: r.name, namespace, labels, annotations, ...(finalizers.length > 0 && { finalizers }),
      ownerReferences: [...owners, controllerRef(rd)],
    },
  };
}
