/**
 * Many kruise-daemons in one process, one per node of a set of nodes that serve CRI sockets (the
 * simulated nodes of `kruise up` and of tests), on the same paths a separate `kruise daemon` takes:
 * each finds its node's runtime over the node's CRI socket (gRPC, no in-process shortcut) and
 * reaches the API through `client`, which should identify itself as `kruise-daemon`. Resolves once
 * every daemon synced its informers.
 */
import type { Client } from '../client/client.js';
import { createKruiseDaemon, type KruiseDaemon, type KruiseDaemonOptions } from './daemon.js';
import type { ProbeNetwork } from './podprobe/network.js';
import { discoverRuntimes, type RuntimeRegistry } from './runtime/registry.js';

/** Nodes whose runtimes are reachable over CRI sockets. */
export interface CriNodes {
  nodeNames(): string[];
  criSocket(nodeName: string): string | undefined;
  /** How the nodes' pods are reached by probes (simulated nodes have their own; default the host's). */
  probeNetwork?(): ProbeNetwork;
}

export interface NodeDaemons {
  daemons: KruiseDaemon[];
  stop(): Promise<void>;
}

export async function startNodeDaemons(
  client: Client, nodes: CriNodes, gate: (name: string) => boolean, options: Pick<KruiseDaemonOptions, 'maxWorkersForPullImage' | 'clock'> = {},
): Promise<NodeDaemons> {
  const started: { daemon: KruiseDaemon; runtimes: RuntimeRegistry }[] = [];
  const stop = async () => {
    await Promise.all(started.map(async ({ daemon, runtimes }) => { await daemon.stop(); runtimes.close(); }));
  };
  try {
    for (const nodeName of nodes.nodeNames()) {
      const socketFile = nodes.criSocket(nodeName);
      if (!socketFile) throw new Error(`node ${nodeName} serves no CRI socket`);
      const runtimes = await discoverRuntimes({ socketFile });
      const daemon = createKruiseDaemon({ ...options, client, nodeName, runtimes, gate, health: false, network: nodes.probeNetwork?.() });
      started.push({ daemon, runtimes });
      await daemon.start();
    }
    // hand back daemons that are ready (every informer synced), as a daemon pod that passed /healthz
    await Promise.all(started.map(({ daemon }) => daemon.synced()));
  } catch (e) {
    await stop();
    throw e;
  }
  return { daemons: started.map((s) => s.daemon), stop };
}
