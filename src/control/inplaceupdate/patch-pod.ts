/**
 * Applying an update spec to a pod object (docs/design/inplace-update.md §4, §7): the metadata patch,
 * then images/resources/env-referenced metadata of the first container batch (containers without
 * a launch priority plus the highest priority, and any container sharing a changed key with
 * them); lower-priority work goes to the state's `next*` fields. Pure: mutates the given pod.
 */
import { ControllerRevisionHashLabel } from '../../api/kruise/workloads/labels.js';
import { applyResources } from './resources.js';
import { removeGrace, writeGrace, writeState } from './state.js';
import type { InPlaceUpdateOptions, InPlaceUpdateState, MetadataPatch, RefMetadata, UpdateSpec } from './types.js';
import { rfc3339 } from '../../machinery/time.js';
import type { Pod } from '../../api/core/index.js';
import { containerBarrierKey, priorityOfKey } from '../launchpriority/index.js';

function applyMapPatch(target: Record<string, string>, patch: Record<string, string | null>): void {
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete target[k];
    else target[k] = v;
  }
}

function applyMetadataPatch(pod: Pod, patch: MetadataPatch): void {
  for (const field of ['labels', 'annotations'] as const) {
    const p = patch[field];
    if (p === null) delete pod.metadata[field];
    else if (p) applyMapPatch((pod.metadata[field] ??= {}), p);
  }
}

/**
 * A container's launch priority as the in-place update batches read it: from its barrier env
 * (`KRUISE_CONTAINER_BARRIER`, key `p_<n>`), which the launch-priority pod step gives every
 * container of a pod with any priority; none means the container has no priority.
 */
function priorityOf(pod: Pod, name: string): number | undefined {
  const c = pod.spec.containers.find((x) => x.name === name);
  const key = c && containerBarrierKey(c);
  return key === undefined ? undefined : priorityOfKey(key);
}

/** Pulls in containers that share a changed label/annotation key with one already chosen. */
function addSharedKeyContainers(chosen: Set<string>, refs: Record<string, RefMetadata>): void {
  const keys = (m: RefMetadata) => [...Object.keys(m.labels ?? {}).map((k) => `l/${k}`), ...Object.keys(m.annotations ?? {}).map((k) => `a/${k}`)];
  for (let grew = true; grew;) {
    grew = false;
    const taken = new Set([...chosen].flatMap((c) => keys(refs[c] ?? {})));
    for (const [name, meta] of Object.entries(refs)) {
      if (!chosen.has(name) && keys(meta).some((k) => taken.has(k))) { chosen.add(name); grew = true; }
    }
  }
}

/** Containers updated in this batch. */
function firstBatch(pod: Pod, spec: UpdateSpec): Set<string> {
  const touched = new Set([...Object.keys(spec.containerImages), ...Object.keys(spec.containerRefMetadata), ...Object.keys(spec.containerResources)]);
  const chosen = new Set<string>();
  let highest: number | undefined;
  let top: string[] = [];
  for (const c of pod.spec.containers) {
    if (!touched.has(c.name)) continue;
    const p = priorityOf(pod, c.name);
    if (p === undefined) chosen.add(c.name);
    else if (highest === undefined || p > highest) { highest = p; top = [c.name]; }
    else if (p === highest) top.push(c.name);
  }
  for (const n of top) chosen.add(n);
  addSharedKeyContainers(chosen, spec.containerRefMetadata);
  return chosen;
}

/** Applies `spec` to `pod` (metadata, then the first container batch) and records it in `state`, written to the pod. */
export function patchSpecToPod(pod: Pod, spec: UpdateSpec, state: InPlaceUpdateState, now: Date): Pod {
  if (spec.metaDataPatch) applyMetadataPatch(pod, spec.metaDataPatch);
  const batch = firstBatch(pod, spec);
  const statuses = new Map((pod.status?.containerStatuses ?? []).map((s) => [s.name, s]));
  state.nextContainerImages = {};
  state.nextContainerRefMetadata = {};
  state.nextContainerResources = {};
  for (const c of pod.spec.containers) {
    const image = spec.containerImages[c.name];
    const resources = spec.containerResources[c.name];
    if (!batch.has(c.name)) {
      if (image !== undefined) state.nextContainerImages[c.name] = image;
      if (resources) state.nextContainerResources[c.name] = resources;
      continue;
    }
    if (image !== undefined) {
      c.image = image;
      const was = statuses.get(c.name);
      if (was) state.lastContainerStatuses[c.name] = { ...state.lastContainerStatuses[c.name], imageID: was.imageID };
    }
    if (resources) applyResources(c, resources);
  }
  for (const [name, meta] of Object.entries(spec.containerRefMetadata)) {
    if (!batch.has(name)) { state.nextContainerRefMetadata[name] = meta; continue; }
    applyMetadataPatch(pod, meta);
  }
  const hasNext = [state.nextContainerImages, state.nextContainerRefMetadata, state.nextContainerResources].some((m) => Object.keys(m).length > 0);
  state.preCheckBeforeNext = hasNext ? { containersRequiredReady: [...batch].sort() } : undefined;
  state.containerBatchesRecord = [...(state.containerBatchesRecord ?? []), { timestamp: rfc3339(now), containers: [...batch].sort() }];
  writeState(pod, state);
  return pod;
}

export interface PreparePodUpdateInput {
  spec: UpdateSpec;
  now: Date;
  options?: Pick<InPlaceUpdateOptions, 'revisionLabels' | 'hooks'>;
}

/**
 * The pod as docs/design/inplace-update.md §4 writes it: revision labels, caller hooks, a fresh state; then either the
 * change applied now (grace ≤ 0, grace annotation removed) or the pending spec stored for later.
 */
export function preparePodUpdate(pod: Pod, { spec, now, options = {} }: PreparePodUpdateInput): Pod {
  const out = structuredClone(pod);
  const labels = options.revisionLabels?.(spec.revision) ?? { [ControllerRevisionHashLabel]: spec.revision };
  Object.assign((out.metadata.labels ??= {}), labels);
  out.metadata.annotations ??= {};
  for (const hook of options.hooks ?? []) hook(out);
  const state: InPlaceUpdateState = {
    revision: spec.revision, updateTimestamp: rfc3339(now), lastContainerStatuses: {},
    updateEnvFromMetadata: spec.updateEnvFromMetadata,
    updateImages: Object.keys(spec.containerImages).length > 0,
    updateResources: Object.keys(spec.containerResources).length > 0,
  };
  writeState(out, state);
  if (spec.graceSeconds > 0) {
    writeGrace(out, spec);
    return out;
  }
  patchSpecToPod(out, spec, state, now);
  removeGrace(out);
  return out;
}
