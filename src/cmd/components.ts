/** `kruise scheduler` and `kruise nodes`: cluster components run out of process against any API server. */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createHttpClient } from '../client/index.js';
import { createScheduler } from '../cluster/scheduler/index.js';
import { createSimulatedNodes } from '../cluster/kubelet/index.js';
import { loadNodeBehaviour } from './node-behaviour.js';

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
  const nodes = createSimulatedNodes({
    client: createHttpClient({ kubeconfigPath: options.kubeconfig, userAgent: 'kruise-kubelet' }),
    count: options.count, namePrefix: options.namePrefix, pullDelayMs: options.pullDelayMs, startDelayMs: options.startDelayMs,
    behaviour: await loadNodeBehaviour(options.nodeBehaviour),
    criSocketDir: options.criDir && path.resolve(options.criDir),
  });
  await nodes.start();
  console.log(`${options.count} simulated nodes ready`);
  stopOnSignal(() => nodes.stop());
}
