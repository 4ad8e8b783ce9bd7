/**
 * The plane `bench:daemon` measures: the embedded API server with Kruise installed and its webhooks,
 * simulated nodes serving CRI sockets with a fixed pull latency, the NodeImage and job controllers,
 * and a kruise-daemon per node: in-process for all but the last node, whose daemon runs as a
 * separate `kruise daemon` process so its CPU and RSS are its own.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NodeImages } from '../api/kruise/resource-types.js';
import { createInProcessClient } from '../client/index.js';
import { startCluster, type Cluster } from '../cluster/cluster.js';
import { setupImageListPullJobController } from '../controllers/imagelistpulljob/index.js';
import { setupImagePullJobController } from '../controllers/imagepulljob/index.js';
import { setupNodeImageController } from '../controllers/nodeimage/index.js';
import { startNodeDaemons, type NodeDaemons } from '../daemon/node-daemons.js';
import { Manager } from '../runtime/manager.js';
import { startKruiseTestEnv, type KruiseTestEnv } from '../testing/kruise-env.js';
import { startComponentProcess, stopChild } from '../testing/process.js';

export interface DaemonPlane {
  env: KruiseTestEnv;
  /** The node whose daemon is a separate process, and that process. */
  processNode: string;
  daemonProcess: ChildProcess;
  stop(): Promise<void>;
}

const gates = 'ImagePullJobGate=true';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startDaemonPlane(o: { nodes: number; pullDelayMs: number; maxWorkersForPullImage: number }): Promise<DaemonPlane> {
  const env = await startKruiseTestEnv({ gates });
  const criSocketDir = await mkdtemp(path.join(tmpdir(), 'kb-cri-'));
  const cluster: Cluster = await startCluster({ client: env.client, nodes: o.nodes, pullDelayMs: o.pullDelayMs, criSocketDir });
  const manager = new Manager({ client: env.client, health: false, leaderElection: false });
  setupNodeImageController(manager, { creationDelayMs: 0 });
  setupImagePullJobController(manager);
  setupImageListPullJobController(manager);
  await manager.start();
  const simulated = cluster.nodes!;
  const names = simulated.nodeNames();
  const processNode = names[names.length - 1]!;
  const inProcess = { nodeNames: () => names.filter((n) => n !== processNode), criSocket: (n: string) => simulated.criSocket(n) };
  const daemons: NodeDaemons = await startNodeDaemons(createInProcessClient(env.plane.handler, undefined, 'kruise-daemon'), inProcess,
    (g) => g === 'KruiseDaemon' || g === 'ImagePullJobGate', { maxWorkersForPullImage: o.maxWorkersForPullImage });
  const daemonProcess = await startComponentProcess([
    'daemon', '--node-name', processNode, '--socket-file', simulated.criSocket(processNode)!, '--kubeconfig', env.kubeconfig,
    '--addr', '127.0.0.1:0', '--feature-gates', gates, '--max-workers-for-pull-image', String(o.maxWorkersForPullImage), '--log-level', 'warn',
  ], /kruise-daemon ready/, 60_000);
  for (let i = 0; (await env.client.list(NodeImages)).items.length < o.nodes; i++) {
    if (i > 1200) throw new Error('NodeImages not created within 60 s');
    await sleep(50);
  }
  return {
    env, processNode, daemonProcess,
    async stop() {
      await stopChild(daemonProcess);
      await daemons.stop();
      await manager.stop();
      await cluster.stop();
      await env.stop();
      await rm(criSocketDir, { recursive: true, force: true });
    },
  };
}
