/** `kruise up`: the embedded control plane in the foreground, with a kubeconfig for kubectl. */
import path from 'node:path';
import { startControlPlane } from '../controlplane/control-plane.js';
import { buildKubeconfig, writeKubeconfig } from '../controlplane/auth/kubeconfig.js';
import { createInProcessClient } from '../client/index.js';
import { installKruise } from '../install/install.js';
import { startCluster } from '../controlplane/cluster.js';
import { kruiseFeatureGates, tryItOutGates } from '../features/kruise.js';
import { setLogLevel } from '../machinery/log.js';
import { Manager } from '../runtime/manager.js';
import { setupKruiseControllers } from '../controllers/index.js';

export interface UpOptions {
  dataDir: string;
  port: number;
  host: string;
  kubeconfig?: string;
  nodes: number;
  inMemory: boolean;
  pullDelayMs: number;
  startDelayMs: number;
  featureGates: string;
  logLevel: string;
}

export async function runUp(options: UpOptions): Promise<void> {
  const started = Date.now();
  setLogLevel(options.logLevel);
  const gates = kruiseFeatureGates(options.featureGates, tryItOutGates);
  const dataDir = path.resolve(options.dataDir);
  const plane = await startControlPlane({ dataDir, port: options.port, host: options.host, inMemory: options.inMemory });
  const client = createInProcessClient(plane.handler, undefined, 'kruise-up');
  await installKruise(client);
  const kruise = new Manager({ client, health: false, leaderElection: false });
  setupKruiseControllers(kruise, (g) => gates.enabled(g));
  await kruise.start();
  const cluster = await startCluster({ client, nodes: options.nodes, pullDelayMs: options.pullDelayMs, startDelayMs: options.startDelayMs });
  const kubeconfigPath = path.resolve(options.kubeconfig ?? path.join(dataDir, 'kubeconfig'));
  await writeKubeconfig(kubeconfigPath, buildKubeconfig({ server: plane.url, caPem: plane.pki.ca.certPem, user: 'admin', token: plane.pki.adminToken, clusterName: 'kruise' }));
  console.log(`kruise control plane ready at ${plane.url} in ${Date.now() - started} ms with ${options.nodes} simulated nodes; kubeconfig: ${kubeconfigPath}`);
  console.log(`kruise feature gates on: ${gates.enabledNames().join(', ')}`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`received ${signal}, shutting down`);
    await kruise.stop();
    await cluster.stop();
    await plane.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
