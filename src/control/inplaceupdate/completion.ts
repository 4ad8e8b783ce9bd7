/**
 * Whether an in-place update has finished (docs/design/inplace-update.md §6): each container whose
 * image was changed reports a new imageID, or the same imageID with the spec image (as image names,
 * not text: §13); resized containers report their spec resources; env-from-metadata updates need
 * the node daemon's runtime-containers-meta to show every container running with the expected
 * extracted-env hash (docs/design/container-meta.md §4). Metadata-only updates are done on the next
 * look.
 */
import { envHashesConsistent, readRuntimeMetaSet } from '../containermeta/index.js';
import { sameImageName } from '../imagejob/index.js';
import { sameResources } from './resources.js';
import { hasGrace, readState } from './state.js';
import type { InPlaceUpdateState } from './types.js';
import type { Pod } from '../../api/core/index.js';

export type Completion = { completed: true } | { completed: false; reason: string };

const done: Completion = { completed: true };
const notDone = (reason: string): Completion => ({ completed: false, reason });

/** Hash consistency of runtime-containers-meta (callers may supply their own). */
export type RuntimeMetaCheck = (pod: Pod, meta: unknown, hash: 'PlainHash' | 'ExtractedEnvFromMetadataHash') => boolean;

/**
 * The extracted-env hashes are checked against the pod's metadata. The plain hash is the
 * kubelet's own hash of a container spec, whose algorithm depends on the kubelet's version, so it
 * is never taken as proof of completion here: the image checks below decide instead
 * (docs/design/container-meta.md §4).
 */
export const defaultRuntimeMetaCheck: RuntimeMetaCheck = (pod, _meta, hash) => {
  const set = hash === 'ExtractedEnvFromMetadataHash' ? readRuntimeMetaSet(pod) : undefined;
  return !!set && envHashesConsistent(pod, set);
};

/** The containers recorded in `state` have been updated (upstream's container check). */
export function checkContainersUpdateCompleted(pod: Pod, state: InPlaceUpdateState, runtimeCheck: RuntimeMetaCheck = defaultRuntimeMetaCheck): Completion {
  const meta = readRuntimeMetaSet(pod);
  if (state.updateEnvFromMetadata) {
    if (meta === undefined) return notDone('waiting for all containers hash consistent, but runtime-container-meta not found');
    if (!runtimeCheck(pod, meta, 'ExtractedEnvFromMetadataHash')) return notDone('waiting for all containers hash consistent');
  }
  if (meta !== undefined && runtimeCheck(pod, meta, 'PlainHash')) return done;
  const specImages = new Map(pod.spec.containers.map((c) => [c.name, c.image ?? '']));
  const statuses = new Map((pod.status?.containerStatuses ?? []).map((s) => [s.name, s]));
  for (const [name, last] of Object.entries(state.lastContainerStatuses ?? {})) {
    const status = statuses.get(name);
    if (!status) return notDone(`not found status of container ${name}`);
    // the same imageID is done only when the spec asks for the image that runs (an update back to
    // the image the state recorded); the kubelet reports `nginx:1.25` as `docker.io/library/nginx:1.25`
    if (last.imageID === status.imageID && !sameImageName(specImages.get(name) ?? '', status.image)) return notDone(`container ${name} imageID not changed`);
  }
  if (state.updateResources) {
    for (const c of pod.spec.containers) {
      if (!sameResources(c.resources, statuses.get(c.name)?.resources)) return notDone(`container ${c.name} resources not yet resized`);
    }
  }
  return done;
}

export const hasNextWork = (s: InPlaceUpdateState): boolean =>
  [s.nextContainerImages, s.nextContainerRefMetadata, s.nextContainerResources].some((m) => !!m && Object.keys(m).length > 0);

/** The pod's in-place update (if any) is over: not in grace, no later batches, containers done. */
export function checkPodUpdateCompleted(pod: Pod, runtimeCheck?: RuntimeMetaCheck): Completion {
  if (hasGrace(pod)) return notDone('still in grace period of in-place update');
  const state = readState(pod);
  if (!state) return done;
  if (hasNextWork(state)) return notDone('existing containers to in-place update in next batches');
  return checkContainersUpdateCompleted(pod, state, runtimeCheck);
}

export const isPodUpdateCompleted = (pod: Pod, runtimeCheck?: RuntimeMetaCheck): boolean => checkPodUpdateCompleted(pod, runtimeCheck).completed;
