/**
 * The container runtimes a kruise-daemon talks to, found as upstream finds them: the socket named
 * by `--socket-file`, else the well-known CRI sockets under the host's /var/run (mounted in the
 * daemon's pod, by default at /hostvarrun). A candidate counts when it answers Version and
 * ListImages over CRI v1 gRPC; the first one serves images, and each is addressable by the
 * `runtimeName` its Version reports — the prefix of the `<runtime>://<id>` container IDs the
 * kubelet writes into pod status. No runtime found is an error naming every path tried.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { connectCri, type CriClient } from '../cri/grpc/client.js';
import type { ImageService, RuntimeService } from '../cri/services.js';

/** Upstream's candidates, relative to the var-run directory, in order. */
export const wellKnownSockets = [
  'containerd.sock', 'containerd/containerd.sock', 'crio.sock', 'crio/crio.sock', 'cri-dockerd.sock', 'cri-dockerd/cri-dockerd.sock',
];

export interface RuntimeDiscoveryOptions {
  /** The socket to use (absolute, or relative to `varRunDir`); skips the well-known list. */
  socketFile?: string;
  /** Where the host's /var/run is mounted (default `/hostvarrun`). */
  varRunDir?: string;
  /** Connects to a socket (default: CRI v1 over gRPC). */
  connect?: (socketPath: string) => CriClient;
}

export interface RuntimeRegistry {
  /** The first usable runtime's image service. */
  readonly images: ImageService;
  /** Runtime names (`containerd`, `cri-o`, ...) in discovery order. */
  names(): string[];
  byName(runtimeName: string): RuntimeService | undefined;
  /** The runtime of a `<runtime>://<id>` container ID and the bare ID; undefined for an unknown runtime. */
  forContainerId(containerId: string): { runtime: RuntimeService; id: string; runtimeName: string } | undefined;
  close(): void;
}

export async function discoverRuntimes(o: RuntimeDiscoveryOptions = {}): Promise<RuntimeRegistry> {
  const varRun = o.varRunDir ?? '/hostvarrun';
  const connect = o.connect ?? connectCri;
  const candidates = o.socketFile ? [path.resolve(varRun, o.socketFile)] : wellKnownSockets.map((s) => path.join(varRun, s));
  const found: { name: string; client: CriClient }[] = [];
  const problems: string[] = [];
  for (const socket of candidates) {
    if (!existsSync(socket)) {
      problems.push(`${socket}: no such socket`);
      continue;
    }
    const client = connect(socket);
    try {
      const { runtimeName } = await client.version();
      await client.listImages();
      if (found.some((f) => f.name === runtimeName)) client.close();
      else found.push({ name: runtimeName, client });
    } catch (e) {
      client.close();
      problems.push(`${socket}: ${(e as Error).message}`);
    }
  }
  if (found.length === 0) throw new Error(`no CRI runtime found: ${problems.join('; ')}`);
  return registryOf(found);
}

function registryOf(found: { name: string; client: CriClient }[]): RuntimeRegistry {
  const byName = new Map(found.map((f) => [f.name, f.client]));
  return {
    images: found[0]!.client,
    names: () => [...byName.keys()],
    byName: (name) => byName.get(name),
    forContainerId(containerId) {
      const m = /^([^:/]+):\/\/(.+)$/.exec(containerId);
      const runtime = m ? byName.get(m[1]!) : undefined;
      return runtime && m ? { runtime, id: m[2]!, runtimeName: m[1]! } : undefined;
    },
    close: () => { for (const f of found) f.client.close(); },
  };
}
