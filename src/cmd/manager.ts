/** `kruise manager`: every registered Kruise controller, against any API server, with leader election. */
import { createHttpClient } from '../client/index.js';
import { Manager } from '../runtime/manager.js';
import { kruiseFeatureGates } from '../features/kruise.js';
import { setupKruiseControllers } from '../controllers/index.js';
import { logger, setLogLevel } from '../machinery/log.js';

export interface ManagerCommandOptions {
  kubeconfig?: string;
  featureGates: string;
  logLevel: string;
  healthAddr: string;
  leaderElect: boolean;
  leaderElectionNamespace: string;
  leaseDuration: number;
  renewDeadline: number;
  retryPeriod: number;
}

export async function runManager(options: ManagerCommandOptions): Promise<void> {
  setLogLevel(options.logLevel);
  const log = logger('kruise-manager');
  const gates = kruiseFeatureGates(options.featureGates);
  const [host, port] = splitAddress(options.healthAddr);
  const manager = new Manager({
    client: createHttpClient({ kubeconfigPath: options.kubeconfig, userAgent: 'kruise-manager' }),
    health: { host, port },
    leaderElection: options.leaderElect
      ? { namespace: options.leaderElectionNamespace, name: 'kruise-manager', leaseDurationMs: options.leaseDuration * 1000, renewDeadlineMs: options.renewDeadline * 1000, retryPeriodMs: options.retryPeriod * 1000 }
      : false,
  });
  const controllers = setupKruiseControllers(manager, (g) => gates.enabled(g));
  await manager.start();
  log.info({ gates: gates.enabledNames(), controllers, health: manager.healthAddress() }, 'manager started');
  console.log(`kruise manager ready; health on ${JSON.stringify(manager.healthAddress())}; feature gates on: ${gates.enabledNames().join(',')}`);
  const stop = () => void manager.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

function splitAddress(addr: string): [string, number] {
  const i = addr.lastIndexOf(':');
  const host = i > 0 ? addr.slice(0, i) : '127.0.0.1';
  const port = Number(addr.slice(i + 1));
  if (!Number.isInteger(port) || port < 0) throw new Error(`invalid address ${JSON.stringify(addr)}: expected host:port`);
  return [host, port];
}
