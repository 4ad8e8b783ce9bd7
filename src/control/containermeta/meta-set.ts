/**
 * The pod annotation `apps.kruise.io/runtime-containers-meta` (docs/design/container-meta.md §2):
 * what the node daemon saw of each container in the runtime. Its JSON shape is upstream's, key for
 * key and in upstream's order, so a pod written by either daemon reads the same to either manager.
 */
import { RuntimeContainersMetaAnnotation } from '../../api/kruise/workloads/labels.js';
import { expectedEnvHash } from './env-hash.js';
import type { Pod } from '../../api/core/index.js';

export interface RuntimeContainerHashes {
  /** The kubelet's hash of the container spec (its `io.kubernetes.container.hash`, hex, as a number). */
  plainHash: number;
  /** The kubelet's hash without resources, where it records one; else 0. */
  plainHashWithoutResources: number;
  /** The extracted-env hash the container runs with; absent (0) until read from a running container. */
  extractedEnvFromMetadataHash?: number;
}

export interface RuntimeContainerMeta {
  name: string;
  /** `<runtime>://<id>` as in the pod's container statuses. */
  containerID: string;
  restartCount: number;
  hashes: RuntimeContainerHashes;
}

export interface RuntimeContainerMetaSet {
  containers: RuntimeContainerMeta[];
}

/** The pod's meta set; undefined when absent or unreadable (both mean: not reported). */
export function readRuntimeMetaSet(pod: Pod): RuntimeContainerMetaSet | undefined {
  const text = pod.metadata.annotations?.[RuntimeContainersMetaAnnotation];
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<RuntimeContainerMetaSet> | null;
    return parsed && Array.isArray(parsed.containers) ? { containers: parsed.containers } : undefined;
  } catch {
    return undefined;
  }
}

/** The annotation value: upstream's key order; a zero extracted-env hash is left out, as upstream omits it. */
export function formatRuntimeMetaSet(set: RuntimeContainerMetaSet): string {
  return JSON.stringify({
    containers: set.containers.map((c) => ({
      name: c.name, containerID: c.containerID, restartCount: c.restartCount,
      hashes: {
        plainHash: c.hashes.plainHash, plainHashWithoutResources: c.hashes.plainHashWithoutResources,
        ...(c.hashes.extractedEnvFromMetadataHash ? { extractedEnvFromMetadataHash: c.hashes.extractedEnvFromMetadataHash } : {}),
      },
    })),
  });
}

/**
 * Every spec container has a status and a meta entry with the same container ID, and the meta's
 * extracted-env hash is the one the pod's metadata asks for: the containers run with the current
 * label and annotation values.
 */
export function envHashesConsistent(pod: Pod, set: RuntimeContainerMetaSet): boolean {
  const statuses = pod.status?.containerStatuses ?? [];
  return pod.spec.containers.every((c) => {
    const status = statuses.find((s) => s.name === c.name);
    const meta = set.containers.find((m) => m.name === c.name);
    return !!status && !!meta && meta.containerID === status.containerID
      && meta.hashes.extractedEnvFromMetadataHash === expectedEnvHash(c, pod.metadata);
  });
}
