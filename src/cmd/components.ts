/** `kruise scheduler` and `kruise nodes`: cluster components run out of process against any API server. */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createHttpClient } from '../client/index.js';
import { createScheduler } from '../cluster/scheduler/index.js';
import { createSimulatedNodes } from '../cluster/kubelet/index.js';
import { loadNodeBehaviour } from './node-behaviour.js';
import { ensureStorageDefaults, setupVolumeControllers } from '../cluster/controllers/volume/index.js';
import { Manager } from '../runtime/manager.js';

function stopOnSignal(stop: () => Promise<void>): void {
  const handler = () => void stop().then(() => process.exit(0));
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

export async function runScheduler(options: { kubeconfig?: string }): Promise<void> {
  const scheduler = createScheduler({ client: createHttpClient({ kubeconfigPath: options.kubeconfig, userAgent: 'kruise-scheduler' }) });
  await scheduler.start();
  console.log('scheduler ready');
  stopOnSignal(() => scheduler.stop());
}

export async function runNodes(options: { kubeconfig?: string; count: number; namePrefix: string; pullDelayMs: number; startDelayMs: number; nodeBehaviour?: string; criDir?: string }): Promise<void> {
  if (options.criDir) await mkdir(options.criDir, { recursive: true, mode: 0o700 });
  const client = createHttpClient({ kubeconfigPath: options.kubeconfig, userAgent: 'kruise-kubelet' });
  // the nodes come with their simulated CSI driver, as a real cluster's nodes come with a storage
  // driver: the default class `standard`, provisioning, binding and expansion (docs/design/storage-provisioning.md)
  await ensureStorageDefaults(client);
  const storage = new Manager({ client, health: false, leaderElection: false });
  setupVolumeControllers(storage);
  await storage.start();
  const nodes = createSimulatedNodes({
    client,
    count: options.count, namePrefix: options.namePrefix, pullDelayMs: options.pullDelayMs, startDelayMs: options.startDelayMs,
    behaviour: await loadNodeBehaviour(options.nodeBehaviour),
    criSocketDir: options.criDir && path.resolve(options.criDir),
  });
  await nodes.start();
  console.log(`${options.count} simulated nodes ready`);
  stopOnSignal(async () => { await nodes.stop(); await storage.stop(); });
}
