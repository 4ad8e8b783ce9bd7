/**
 * Which pod events are worth a look (docs/design/container-meta.md §5): only pods a Kruise
 * workload controls or a SidecarSet injected into, and only when what the daemon reported no
 * longer matches them: no meta yet, a container ID the meta does not know, a container count
 * change, or (with env from metadata) a container whose extracted-env hash differs from the one
 * the pod's labels and annotations ask for. A pod first seen with no meta at all is left until its
 * next change, as upstream does, so a daemon restart does not rewrite every pod of the node.
 */
import { SidecarSetHashAnnotation } from '../../api/kruise/ops/sidecarset-keys.js';
import { expectedEnvHash, readRuntimeMetaSet } from '../../control/containermeta/index.js';
import type { Pod } from '../../api/core/index.js';

const kruiseGroup = 'apps.kruise.io';

/** Controlled by an apps.kruise.io workload, or injected by a SidecarSet. */
export function kruisePod(pod: Pod): boolean {
  const owner = pod.metadata.ownerReferences?.find((r) => r.controller);
  const owned = !!owner && owner.apiVersion.split('/')[0] === kruiseGroup;
  return owned || pod.metadata.annotations?.[SidecarSetHashAnnotation] !== undefined;
}

/** The pod's report is out of date (upstream's event filter, `old` absent on add). */
export function reportOutdated(old: Pod | undefined, pod: Pod, envFromMetadata: boolean): boolean {
  if (!kruisePod(pod)) return false;
  if (old && old.spec.containers.length !== pod.spec.containers.length) return true;
  const set = readRuntimeMetaSet(pod);
  const statuses = pod.status?.containerStatuses ?? [];
  return statuses.some((status, i) => {
    if (!status.containerID) return false;
    if (!set || set.containers.length !== statuses.length) return true;
    const meta = set.containers[i];
    if (meta?.containerID !== status.containerID) return true;
    const spec = pod.spec.containers.find((c) => c.name === status.name);
    return envFromMetadata && !!spec && meta.hashes.extractedEnvFromMetadataHash !== expectedEnvHash(spec, pod.metadata);
  });
}

/** On add, a pod without any report waits for its next change (no burst of writes after a restart). */
export const worthAdding = (pod: Pod, envFromMetadata: boolean): boolean =>
  readRuntimeMetaSet(pod) !== undefined && reportOutdated(undefined, pod, envFromMetadata);
