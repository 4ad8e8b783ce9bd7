/**
 * The two pod annotations of an in-place update (docs/design/inplace-update.md §3): the state of the update in
 * flight and, during a grace period, the pending update spec. Field names and omit-when-empty
 * follow upstream's Go JSON, so pods updated by either implementation read the same; the
 * metadata patch travels base64-encoded as Go encodes a []byte. Legacy unprefixed keys are read
 * and removed.
 */
import {
  InPlaceUpdateGraceAnnotation, InPlaceUpdateGraceAnnotationLegacy,
  InPlaceUpdateStateAnnotation, InPlaceUpdateStateAnnotationLegacy,
} from '../../api/kruise/workloads/labels.js';
import { isObject } from '../../api/meta.js';
import type { InPlaceUpdateState, MetadataPatch, UpdateSpec } from './types.js';
import type { Pod } from '../../api/core/index.js';

const nonEmpty = (m: Record<string, unknown> | undefined): boolean => !!m && Object.keys(m).length > 0;

function annotation(pod: Pod, key: string, legacy: string): string | undefined {
  const a = pod.metadata.annotations ?? {};
  return a[key] ?? a[legacy];
}

export function serializeState(s: InPlaceUpdateState): string {
  const out: Record<string, unknown> = { revision: s.revision, updateTimestamp: s.updateTimestamp, lastContainerStatuses: s.lastContainerStatuses ?? {} };
  if (s.updateEnvFromMetadata) out.updateEnvFromMetadata = true;
  if (s.updateImages) out.updateImages = true;
  if (s.updateResources) out.updateResources = true;
  if (nonEmpty(s.nextContainerImages)) out.nextContainerImages = s.nextContainerImages;
  if (nonEmpty(s.nextContainerRefMetadata)) out.nextContainerRefMetadata = s.nextContainerRefMetadata;
  if (nonEmpty(s.nextContainerResources)) out.nextContainerResources = s.nextContainerResources;
  if (s.preCheckBeforeNext) out.preCheckBeforeNext = s.preCheckBeforeNext;
  if (s.containerBatchesRecord?.length) out.containerBatchesRecord = s.containerBatchesRecord;
  return JSON.stringify(out);
}

export function parseState(text: string): InPlaceUpdateState {
  const raw: unknown = JSON.parse(text);
  if (!isObject(raw)) throw new Error(`invalid ${InPlaceUpdateStateAnnotation}: not a JSON object`);
  const s = raw as Partial<InPlaceUpdateState>;
  return { ...s, revision: s.revision ?? '', updateTimestamp: s.updateTimestamp ?? '', lastContainerStatuses: s.lastContainerStatuses ?? {} };
}

/** The pod's in-place update state (new key first, then legacy); undefined when absent. Throws on bad JSON. */
export function readState(pod: Pod): InPlaceUpdateState | undefined {
  const text = annotation(pod, InPlaceUpdateStateAnnotation, InPlaceUpdateStateAnnotationLegacy);
  return text === undefined ? undefined : parseState(text);
}

/** Writes the state under the new key and drops the legacy one. */
export function writeState(pod: Pod, state: InPlaceUpdateState): void {
  const a = (pod.metadata.annotations ??= {});
  a[InPlaceUpdateStateAnnotation] = serializeState(state);
  delete a[InPlaceUpdateStateAnnotationLegacy];
}

export function serializeGrace(spec: UpdateSpec): string {
  const out: Record<string, unknown> = { revision: spec.revision };
  if (nonEmpty(spec.containerImages)) out.containerImages = spec.containerImages;
  if (nonEmpty(spec.containerRefMetadata)) out.containerRefMetadata = spec.containerRefMetadata;
  if (nonEmpty(spec.containerResources)) out.containerResources = spec.containerResources;
  if (spec.metaDataPatch) out.metaDataPatch = Buffer.from(JSON.stringify({ metadata: spec.metaDataPatch })).toString('base64');
  if (spec.updateEnvFromMetadata) out.updateEnvFromMetadata = true;
  if (spec.graceSeconds) out.graceSeconds = spec.graceSeconds;
  return JSON.stringify(out);
}

function parseMetadataPatch(v: unknown): MetadataPatch | undefined {
  const decoded: unknown = typeof v === 'string' ? JSON.parse(Buffer.from(v, 'base64').toString('utf8')) : v;
  if (!isObject(decoded) || !isObject(decoded.metadata)) return undefined;
  const { labels, annotations } = decoded.metadata as MetadataPatch;
  return { ...(labels !== undefined && { labels }), ...(annotations !== undefined && { annotations }) };
}

export function parseGrace(text: string): UpdateSpec {
  const raw: unknown = JSON.parse(text);
  if (!isObject(raw)) throw new Error(`invalid ${InPlaceUpdateGraceAnnotation}: not a JSON object`);
  const g = raw as Partial<UpdateSpec> & { metaDataPatch?: unknown };
  const metaDataPatch = g.metaDataPatch === undefined ? undefined : parseMetadataPatch(g.metaDataPatch);
  return {
    revision: g.revision ?? '', containerImages: g.containerImages ?? {}, containerRefMetadata: g.containerRefMetadata ?? {},
    containerResources: g.containerResources ?? {}, ...(metaDataPatch && { metaDataPatch }),
    updateEnvFromMetadata: g.updateEnvFromMetadata ?? false, graceSeconds: g.graceSeconds ?? 0,
  };
}

/** The pending spec of a grace period (new key first, then legacy); undefined when none. Throws on bad JSON. */
export function readGrace(pod: Pod): UpdateSpec | undefined {
  const text = annotation(pod, InPlaceUpdateGraceAnnotation, InPlaceUpdateGraceAnnotationLegacy);
  return text === undefined ? undefined : parseGrace(text);
}

export const hasGrace = (pod: Pod): boolean => annotation(pod, InPlaceUpdateGraceAnnotation, InPlaceUpdateGraceAnnotationLegacy) !== undefined;

export function writeGrace(pod: Pod, spec: UpdateSpec): void {
  const a = (pod.metadata.annotations ??= {});
  a[InPlaceUpdateGraceAnnotation] = serializeGrace(spec);
  delete a[InPlaceUpdateGraceAnnotationLegacy];
}

export function removeGrace(pod: Pod): void {
  const a = pod.metadata.annotations;
  if (!a) return;
  delete a[InPlaceUpdateGraceAnnotation];
  delete a[InPlaceUpdateGraceAnnotationLegacy];
}
