/**
 * What the runtime knows of one pod's containers, read over CRI as the kubelet's GetPodStatus
 * does: every container labelled with the pod's UID, the newest attempt of each container name,
 * with the kubelet's restart count and spec hash from its annotations, and the environment a
 * running container holds (ExecSync `env`, as upstream reads it: docs/design/container-meta.md §3).
 */
import type { RuntimeService } from '../cri/services.js';
import { KubeletAnnotations, KubeletLabels, type Container } from '../cri/types.js';

/** The kubelet's hash of the container spec without its resources (kubelets that record it). */
export const hashWithoutResourcesAnnotation = 'io.kubernetes.container.hashWithoutResources';

export interface RuntimeContainer {
  name: string;
  /** The bare runtime ID. */
  id: string;
  running: boolean;
  restartCount: number;
  /** The kubelet's hex hash as a number (0 when absent). */
  plainHash: number;
  plainHashWithoutResources: number;
}

const hexNumber = (hex: string | undefined): number => {
  const n = hex ? Number.parseInt(hex, 16) : 0;
  return Number.isFinite(n) ? n : 0;
};

function describe(c: Container): RuntimeContainer {
  const a = c.annotations ?? {};
  return {
    name: c.labels?.[KubeletLabels.containerName] ?? c.metadata.name,
    id: c.id,
    running: c.state === 'CONTAINER_RUNNING',
    restartCount: Number(a[KubeletAnnotations.restartCount] ?? c.metadata.attempt ?? 0) || 0,
    plainHash: hexNumber(a[KubeletAnnotations.hash]),
    plainHashWithoutResources: hexNumber(a[hashWithoutResourcesAnnotation]),
  };
}

/** The newest container of each name of the pod with UID `podUid`. */
export async function podContainers(runtime: RuntimeService, podUid: string): Promise<Map<string, RuntimeContainer>> {
  const all = await runtime.listContainers({ labelSelector: { [KubeletLabels.podUid]: podUid } });
  const newest = new Map<string, Container>();
  for (const c of all) {
    const name = c.labels?.[KubeletLabels.containerName] ?? c.metadata.name;
    const seen = newest.get(name);
    if (!seen || c.createdAt > seen.createdAt) newest.set(name, c);
  }
  return new Map([...newest].map(([name, c]) => [name, describe(c)]));
}

/** The environment of a running container, from `env` run in it (3 s at most, as upstream). */
export async function containerEnv(runtime: RuntimeService, id: string): Promise<Map<string, string>> {
  if (!runtime.execSync) throw new Error('the runtime does not serve ExecSync');
  const r = await runtime.execSync(id, ['env'], 3);
  if (r.exitCode !== 0) throw new Error(`env exited with code ${r.exitCode} in container ${id}`);
  const env = new Map<string, string>();
  for (const line of new TextDecoder().decode(r.stdout).trim().split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) env.set(line.slice(0, eq).trim(), line.slice(eq + 1));
  }
  return env;
}
