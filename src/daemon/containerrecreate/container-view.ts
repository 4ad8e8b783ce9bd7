/**
 * What the node's runtime says about a pod's containers (docs/design/container-recreate.md §4.3):
 * for each container name, its newest attempt with state, start time and restart count, read over
 * CRI by the kubelet's pod UID label, so it works the same against containerd and the simulation.
 */
import type { RuntimeService } from '../cri/services.js';
import { KubeletAnnotations, KubeletLabels, type ContainerState } from '../cri/types.js';

export interface RuntimeContainer {
  name: string;
  /** `<runtimeName>://<id>`, as the kubelet writes it into pod status. */
  containerID: string;
  id: string;
  podSandboxId: string;
  state: ContainerState;
  /** Milliseconds since the epoch; 0 when it never started. */
  startedAt: number;
  restartCount: number;
}

/** The newest attempt of each of `names` (only those are asked about: one CRI call each). */
export async function podContainers(runtime: RuntimeService, runtimeName: string, podUid: string, names: string[]): Promise<Map<string, RuntimeContainer>> {
  const listed = await runtime.listContainers({ labelSelector: { [KubeletLabels.podUid]: podUid } });
  const newest = new Map<string, (typeof listed)[number]>();
  for (const c of listed) {
    const name = c.labels[KubeletLabels.containerName] ?? c.metadata.name;
    if (!names.includes(name)) continue;
    const seen = newest.get(name);
    if (!seen || c.createdAt > seen.createdAt) newest.set(name, c);
  }
  const out = new Map<string, RuntimeContainer>();
  await Promise.all([...newest].map(async ([name, c]) => {
    const status = await runtime.containerStatus(c.id);
    out.set(name, {
      name, id: c.id, containerID: `${runtimeName}://${c.id}`, podSandboxId: c.podSandboxId, state: status.state,
      startedAt: Math.floor(status.startedAt / 1e6), restartCount: Number(status.annotations[KubeletAnnotations.restartCount] ?? 0),
    });
  }));
  return out;
}
