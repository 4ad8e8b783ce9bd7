/**
 * Building one ControllerRevision (docs/design/workload-common.md §3): the data patch that snapshots the template,
 * the hash in its name, its labels, annotations and controller reference; and the reverse, the
 * workload a revision describes (pods of an old revision are created from it).
 */
import { ControllerRevisionHashKey, ControllerRevisionHashLabel } from '../../api/kruise/workloads/labels.js';
import { clone } from '../../machinery/deep-equal.js';
import { computeObjectHash, fnv1, goJson, safeEncodeString } from '../../machinery/hash.js';
import type { RevisionData, RevisionedWorkload, RevisionOptions } from './types.js';
import type { ControllerRevision, PodTemplateSpec } from '../../api/core/index.js';
import { isObject } from '../../api/meta.js';

const encoder = new TextEncoder();

/** `{"spec":{"template":{...template,"$patch":"replace"}}}`. */
export function revisionData(workload: RevisionedWorkload): RevisionData {
  return { spec: { template: { ...clone(workload.spec?.template ?? {}), $patch: 'replace' } } };
}

/**
 * The pod template a revision recorded, without the patch directive (a copy); undefined when the
 * data holds none. Revisions written by other clients may carry their data as JSON text.
 */
export function templateOfRevision(revision: ControllerRevision): PodTemplateSpec | undefined {
  let data = revision.data;
  if (typeof data === 'string') {
    try { data = JSON.parse(data); } catch { return undefined; }
  }
  if (!isObject(data) || !isObject(data.spec) || !isObject(data.spec.template)) return undefined;
  const { $patch: _directive, ...template } = data.spec.template;
  return clone(template) as PodTemplateSpec;
}

/** HashControllerRevision: FNV-1 over the data bytes, then the collision count in decimal. */
export function dataHash(data: unknown, collisionCount?: number): string {
  let hash = fnv1(encoder.encode(goJson(data)));
  if (collisionCount !== undefined) hash = fnv1(encoder.encode(String(collisionCount)), hash);
  return safeEncodeString(String(hash));
}

/** `<owner>-<hash>`, the owner part cut to 223 characters so the name fits in 253. */
export function revisionName(owner: string, hash: string): string {
  return `${owner.slice(0, 223)}-${hash}`;
}

/** The hash part of a revision name (or a bare hash, returned as is). */
export function shortHash(nameOrHash: string): string {
  return nameOrHash.slice(nameOrHash.lastIndexOf('-') + 1);
}

export function newRevision(
  parent: RevisionedWorkload, data: RevisionData, revisionNumber: number, collisionCount: number | undefined,
  options: RevisionOptions = {},
): ControllerRevision {
  const templateHashed = options.mode === 'template-hash';
  const { $patch: _directive, ...template } = data.spec.template;
  const hash = templateHashed ? computeObjectHash(template, collisionCount) : dataHash(data, collisionCount);
  const labels = { ...(template.metadata as { labels?: Record<string, string> } | undefined)?.labels };
  labels[templateHashed ? ControllerRevisionHashLabel : ControllerRevisionHashKey] = hash;
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: revisionName(parent.metadata.name ?? '', hash),
      namespace: parent.metadata.namespace,
      labels,
      annotations: { ...parent.metadata.annotations, ...options.extraAnnotations },
      ownerReferences: [{
        apiVersion: options.ownerApiVersion ?? parent.apiVersion ?? 'apps.kruise.io/v1beta1',
        kind: options.ownerKind ?? parent.kind ?? '',
        name: parent.metadata.name ?? '',
        uid: parent.metadata.uid ?? '',
        controller: true,
        blockOwnerDeletion: true,
      }],
    },
    data,
    revision: revisionNumber,
  };
}

/** The workload as it was at `revision`: its spec fields replaced by the ones the revision recorded. */
export function applyRevision<W extends RevisionedWorkload>(workload: W, revision: ControllerRevision): W {
  const out = clone(workload);
  const recorded = (revision.data as { spec?: Record<string, unknown> } | undefined)?.spec ?? {};
  const spec = { ...(out.spec ?? {}) } as Record<string, unknown>;
  for (const [key, value] of Object.entries(recorded)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const { $patch: _directive, ...rest } = value as Record<string, unknown>;
      spec[key] = clone(rest);
    } else spec[key] = clone(value);
  }
  out.spec = spec as W['spec'];
  return out;
}
