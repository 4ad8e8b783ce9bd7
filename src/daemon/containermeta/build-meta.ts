/**
 * The pod's new runtime meta from what the runtime shows (docs/design/container-meta.md §3): one
 * entry per container status, for the newest runtime container of that name. An entry the old meta
 * has for the same container ID is kept as it is (its extracted-env hash was read once from that
 * very container); a new container gets the kubelet's restart count and hashes, and, with env from
 * metadata, the hash of the environment it runs with, read while it runs. Containers whose hash
 * differs from what the pod's metadata asks for are named for a restart, but only while an
 * in-place update is in flight (InPlaceUpdateReady False), as upstream.
 */
import { InPlaceUpdateReadyCondition } from '../../api/kruise/workloads/labels.js';
import { currentEnvHash, expectedEnvHash, type RuntimeContainerMeta, type RuntimeContainerMetaSet } from '../../control/containermeta/index.js';
import type { RuntimeContainer } from './runtime-containers.js';
import type { Pod } from '../../api/core/index.js';

export interface MetaInputs {
  pod: Pod;
  runtimeName: string;
  /** Newest runtime container by name. */
  containers: ReadonlyMap<string, RuntimeContainer>;
  old: RuntimeContainerMetaSet | undefined;
  envFromMetadata: boolean;
  /** The environment of a running container (throws when it cannot be read). */
  readEnv(id: string): Promise<ReadonlyMap<string, string>>;
}

export interface MetaOutcome {
  set: RuntimeContainerMetaSet;
  /** `<runtime>://<id>` of containers to restart. */
  restart: string[];
  /** Some running container's environment could not be read: look again soon. */
  envUnread: boolean;
}

const inPlaceUpdating = (pod: Pod): boolean =>
  (pod.status?.conditions ?? []).some((c) => c.type === InPlaceUpdateReadyCondition && c.status === 'False');

export async function buildMeta(inputs: MetaInputs): Promise<MetaOutcome> {
  const { pod, old } = inputs;
  const out: MetaOutcome = { set: { containers: [] }, restart: [], envUnread: false };
  for (const status of pod.status?.containerStatuses ?? []) {
    const rc = inputs.containers.get(status.name);
    const spec = pod.spec.containers.find((c) => c.name === status.name);
    if (!rc || !spec) continue;
    const containerID = `${inputs.runtimeName}://${rc.id}`;
    const kept = old?.containers.find((m) => m.containerID === containerID);
    const meta: RuntimeContainerMeta = kept ? structuredClone(kept) : {
      name: rc.name, containerID, restartCount: rc.restartCount,
      hashes: { plainHash: rc.plainHash, plainHashWithoutResources: rc.plainHashWithoutResources },
    };
    if (inputs.envFromMetadata) {
      if (!meta.hashes.extractedEnvFromMetadataHash && rc.running) {
        try {
          meta.hashes.extractedEnvFromMetadataHash = currentEnvHash(spec, await inputs.readEnv(rc.id));
        } catch {
          out.envUnread = true;
        }
      }
      const current = meta.hashes.extractedEnvFromMetadataHash;
      if (inPlaceUpdating(pod) && current && current !== expectedEnvHash(spec, pod.metadata)) out.restart.push(containerID);
    }
    out.set.containers.push(meta);
  }
  return out;
}
