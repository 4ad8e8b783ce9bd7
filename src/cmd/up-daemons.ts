/**
 * The kruise-daemons of `kruise up`: one per simulated node, in this process but on the same paths
 * a separate `kruise daemon` takes: it finds its node's runtime over the node's CRI socket (gRPC,
 * no in-process shortcut) and reaches the API as user agent `kruise-daemon`.
 */
import type { RequestHandler } from '../api/request.js';
import { createInProcessClient } from '../client/index.js';
import type { SimulatedNodes } from '../cluster/kubelet/index.js';
import { createKruiseDaemon, type KruiseDaemon } from '../daemon/daemon.js';
import { discoverRuntimes, type RuntimeRegistry } from '../daemon/runtime/registry.js';

export interface UpDaemons {
  daemons: KruiseDaemon[];
  stop(): Promise<void>;
}

export async function startUpDaemons(handler: RequestHandler, nodes: SimulatedNodes, gate: (name: string) => boolean): Promise<UpDaemons> {
  const started: { daemon: KruiseDaemon; runtimes: RuntimeRegistry }[] = [];
  const client = createInProcessClient(handler, undefined, 'kruise-daemon');
  const stop = async () => {
    await Promise.all(started.map(async ({ daemon, runtimes }) => { await daemon.stop(); runtimes.close(); }));
  };
  try {
    for (const nodeName of nodes.nodeNames()) {
      const socketFile = nodes.criSocket(nodeName);
      if (!socketFile) throw new Error(`node ${nodeName} serves no CRI socket`);
      const runtimes = await discoverRuntimes({ socketFile });
      const daemon = createKruiseDaemon({ client, nodeName, runtimes, gate, health: false });
      started.push({ daemon, runtimes });
      await daemon.start();
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { daemons: started.map((s) => s.daemon), stop };
}
