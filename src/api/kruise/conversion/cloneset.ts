/**
 * CloneSet v1alpha1 ⇄ v1beta1 (docs/design/kruise-api.md §7). v1alpha1's update `type` names the pod update
 * policy and its update fields are flat; v1beta1 nests them under `rollingUpdate`. disablePVCReuse
 * is the negation of enablePVCReuse, the image pre-download annotations move to
 * `rollingUpdate.inPlaceUpdateStrategy` fields and back, and the exclude-preparing-delete label
 * sets `scaleStrategy.excludePreparingDelete` (one way: the label is kept, never written).
 * The spec functions are shared with UnitedDeployment's cloneSetTemplate.
 */
import type { KObject } from '../../meta.js';
import { CloneSetScalingExcludePreparingDeleteLabel } from '../workloads/cloneset.js';
import {
  ImagePreDownloadMinUpdatedReadyPodsAnnotation, ImagePreDownloadParallelismAnnotation,
  ImagePreDownloadTimeoutSecondsAnnotation, PodUpdatePolicy,
} from '../workloads/labels.js';
import {
  child, deleteMetaValue, isObj, metaValue, parseInt32, parseIntOrString, setMetaValue, specOf,
  type KindConversion, type MetaLike, type Obj,
} from './helpers.js';

/** Annotation (v1alpha1) ⇄ inPlaceUpdateStrategy field (v1beta1), with the annotation parser. */
const preDownload: [annotation: string, field: string, parse: (s: string) => number | string | undefined][] = [
  [ImagePreDownloadParallelismAnnotation, 'imagePreDownloadParallelism', parseIntOrString],
  [ImagePreDownloadTimeoutSecondsAnnotation, 'imagePreDownloadTimeoutSeconds', parseInt32],
  [ImagePreDownloadMinUpdatedReadyPodsAnnotation, 'imagePreDownloadMinUpdatedReadyPods', parseInt32],
];

const policies = new Set<unknown>(Object.values(PodUpdatePolicy));
const OnDelete = 'OnDelete';
const RollingUpdate = 'RollingUpdate';

/** v1alpha1 spec → v1beta1 spec, in place; `meta` is the CloneSet's (or template's) metadata. */
export function cloneSetSpecToHub(spec: Obj, meta: MetaLike): void {
  const { disablePVCReuse, ...scale } = child(spec, 'scaleStrategy') ?? {};
  // A v1beta1-shaped part (newer clients write UnitedDeployment v1alpha1 templates that way) stays.
  if (disablePVCReuse !== undefined || scale.enablePVCReuse === undefined) scale.enablePVCReuse = disablePVCReuse !== true;
  if (metaValue(meta, 'labels', CloneSetScalingExcludePreparingDeleteLabel) === 'true') scale.excludePreparingDelete = true;
  spec.scaleStrategy = scale;

  const { type, ...flat } = child(spec, 'updateStrategy') ?? {};
  if (type === RollingUpdate) return;
  if (type === OnDelete) {
    spec.updateStrategy = { type: OnDelete };
    return;
  }
  const rollingUpdate: Obj = { podUpdatePolicy: policies.has(type) ? type : PodUpdatePolicy.ReCreate, ...flat };
  for (const [annotation, field, parse] of preDownload) {
    const raw = metaValue(meta, 'annotations', annotation);
    const value = raw ? parse(raw) : undefined;
    if (value === undefined) continue; // absent or unparsable: the annotation stays where it is
    const inPlace = child(rollingUpdate, 'inPlaceUpdateStrategy') ?? {};
    inPlace[field] = value;
    rollingUpdate.inPlaceUpdateStrategy = inPlace;
    deleteMetaValue(meta, 'annotations', annotation);
  }
  spec.updateStrategy = { type: RollingUpdate, rollingUpdate };
}

/** v1beta1 spec → v1alpha1 spec, in place. */
export function cloneSetSpecFromHub(spec: Obj, meta: MetaLike): void {
  const scale = child(spec, 'scaleStrategy');
  if (scale) {
    const { enablePVCReuse, excludePreparingDelete, ...rest } = scale;
    if (enablePVCReuse !== true) rest.disablePVCReuse = true;
    // The label (when "true") already says it; otherwise keep the field as upstream's v1alpha1 does.
    const labelled = metaValue(meta, 'labels', CloneSetScalingExcludePreparingDeleteLabel) === 'true';
    if (excludePreparingDelete === true && !labelled) rest.excludePreparingDelete = true;
    if (Object.keys(rest).length > 0) spec.scaleStrategy = rest;
    else delete spec.scaleStrategy;
  }

  const strategy = child(spec, 'updateStrategy');
  if (!strategy) return;
  const { type, rollingUpdate, ...other } = strategy;
  const { podUpdatePolicy, ...fields } = isObj(rollingUpdate) ? rollingUpdate : {};
  const alphaType = type === OnDelete ? OnDelete : policies.has(podUpdatePolicy) ? podUpdatePolicy : PodUpdatePolicy.ReCreate;
  const out: Obj = { ...other, type: alphaType, ...fields };
  const inPlace = child(out, 'inPlaceUpdateStrategy');
  if (inPlace) {
    let moved = false;
    for (const [annotation, field] of preDownload) {
      if (inPlace[field] === undefined || inPlace[field] === null) continue;
      setMetaValue(meta, 'annotations', annotation, String(inPlace[field]));
      delete inPlace[field];
      moved = true;
    }
    // Only the pre-download fields made it exist: v1alpha1 had no inPlaceUpdateStrategy then.
    if (moved && Object.keys(inPlace).length === 0) delete out.inPlaceUpdateStrategy;
  }
  spec.updateStrategy = out;
}

function withSpec(obj: KObject, convert: (spec: Obj, meta: MetaLike) => void): KObject {
  const spec = specOf(obj);
  if (spec) convert(spec, (obj.metadata ??= {}) as MetaLike);
  return obj;
}

export const cloneSetConversion: KindConversion = {
  group: 'apps.kruise.io',
  kind: 'CloneSet',
  spokes: {
    v1alpha1: {
      toHub: (obj) => withSpec(obj, cloneSetSpecToHub),
      fromHub: (obj) => withSpec(obj, cloneSetSpecFromHub),
    },
  },
};
