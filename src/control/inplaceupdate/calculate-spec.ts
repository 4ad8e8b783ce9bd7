/**
 * Which template changes can be applied to a running pod (docs/design/inplace-update.md §2): diff the two
 * revisions' `spec.template` as JSON-patch operations and accept only image replacements, label/
 * annotation changes and (vertical scaling) cpu/memory value replacements with an unchanged QoS
 * class. Anything else returns undefined: the pod must be recreated.
 */
import { templateOfRevision } from '../revision/new-revision.js';
import jsonpatch from 'fast-json-patch';
import { PodTemplateHashLabel } from '../../api/kruise/workloads/cloneset.js';
import { ControllerRevisionHashLabel } from '../../api/kruise/workloads/labels.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { qosClass } from './resources.js';
import type { InPlaceUpdateOptions, MetadataPatch, RefMetadata, UpdateSpec } from './types.js';
import type { Container, ControllerRevision, PodTemplateSpec } from '../../api/core/index.js';

const imagePath = /^\/containers\/(\d+)\/image$/;
const resourcePath = /^\/containers\/(\d+)\/resources\/(requests|limits)\/(cpu|memory)$/;

/** A map diff as a merge patch (null = removed); undefined when equal. */
function mapPatch(oldMap: Record<string, string> = {}, newMap: Record<string, string> = {}): Record<string, string | null> | undefined {
  const patch: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(newMap)) if (oldMap[k] !== v) patch[k] = v;
  for (const k of Object.keys(oldMap)) if (!(k in newMap)) patch[k] = null;
  return Object.keys(patch).length ? patch : undefined;
}

/** `metadata.labels['key']`-style env references of a container. */
function refersTo(c: Container, field: 'labels' | 'annotations', key: string): boolean {
  return (c.env ?? []).some((e) => e.valueFrom?.fieldRef?.fieldPath === `metadata.${field}['${key}']`);
}

/** Moves changed keys referenced by env fieldRef out of the patch into per-container metadata. */
function splitEnvReferences(patch: MetadataPatch, containers: Container[], spec: UpdateSpec): void {
  for (const field of ['labels', 'annotations'] as const) {
    const changes = patch[field];
    if (!changes) continue;
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) continue;
      const users = containers.filter((c) => refersTo(c, field, key));
      for (const c of users) {
        const meta: RefMetadata = (spec.containerRefMetadata[c.name] ??= {});
        (meta[field] ??= {})[key] = value;
        spec.updateEnvFromMetadata = true;
      }
      if (users.length) delete changes[key];
    }
    if (Object.keys(changes).length === 0) delete patch[field];
  }
}

/** Metadata other than labels/annotations (creationTimestamp aside) must not change. */
function otherMetadataEqual(a: PodTemplateSpec, b: PodTemplateSpec): boolean {
  const rest = (t: PodTemplateSpec) => {
    const { labels: _l, annotations: _a, creationTimestamp: _c, ...others } = t.metadata ?? {};
    return others;
  };
  return deepEqual(rest(a), rest(b));
}

/** Applies the spec-part operations; false when one of them cannot be done in place. */
function acceptSpecOps(oldT: PodTemplateSpec, newT: PodTemplateSpec, spec: UpdateSpec, options: InPlaceUpdateOptions): boolean {
  const oldContainers = oldT.spec?.containers ?? [];
  const newContainers = newT.spec?.containers ?? [];
  for (const op of jsonpatch.compare(oldT.spec ?? {}, newT.spec ?? {})) {
    if (op.op !== 'replace') return false;
    const image = imagePath.exec(op.path);
    if (image && typeof op.value === 'string' && oldContainers[Number(image[1])]) {
      spec.containerImages[oldContainers[Number(image[1])].name] = op.value;
      continue;
    }
    const res = options.verticalScaling ? resourcePath.exec(op.path) : null;
    const c = res && newContainers[Number(res[1])];
    if (!c) return false;
    spec.containerResources[c.name] = c.resources ?? {};
  }
  const resized = Object.keys(spec.containerResources).length > 0;
  return !resized || qosClass(oldContainers) === qosClass(newContainers);
}

/** The in-place update from `oldRevision` (the pod's own) to `newRevision`, or undefined when the pod must be recreated. */
export function calculateInPlaceUpdateSpec(oldRevision: ControllerRevision | undefined, newRevision: ControllerRevision | undefined, options: InPlaceUpdateOptions = {}): UpdateSpec | undefined {
  if (!oldRevision || !newRevision) return undefined;
  const oldT = templateOfRevision(oldRevision);
  const newT = templateOfRevision(newRevision);
  if (!oldT || !newT || !otherMetadataEqual(oldT, newT)) return undefined;
  const spec: UpdateSpec = {
    revision: options.getRevision ? options.getRevision(newRevision) : newRevision.metadata.name ?? '',
    containerImages: {}, containerRefMetadata: {}, containerResources: {},
    updateEnvFromMetadata: false, graceSeconds: options.graceSeconds ?? 0,
  };
  if (!acceptSpecOps(oldT, newT, spec, options)) return undefined;
  const patch: MetadataPatch = {};
  const labels = mapPatch(oldT.metadata?.labels, newT.metadata?.labels);
  const annotations = mapPatch(oldT.metadata?.annotations, newT.metadata?.annotations);
  if (labels) patch.labels = labels;
  if (annotations) patch.annotations = annotations;
  if (options.envFromMetadata) splitEnvReferences(patch, newT.spec?.containers ?? [], spec);
  if (patch.labels || patch.annotations) spec.metaDataPatch = patch;
  return spec;
}

/** The bare hash of a revision name (suffix after the last `-`). */
export const revisionHash = (revisionName: string): string => revisionName.slice(revisionName.lastIndexOf('-') + 1);

/** CloneSet pod revision labels: the revision name plus `pod-template-hash` = bare hash. */
export const cloneSetRevisionLabels = (revision: string): Record<string, string> =>
  ({ [ControllerRevisionHashLabel]: revision, [PodTemplateHashLabel]: revisionHash(revision) });
