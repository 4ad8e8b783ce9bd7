/**
 * `kruise daemon`: the per-node agent against any API server (kubeconfig or in-cluster), talking
 * to the node's container runtime over CRI v1 gRPC (docs/design/daemon.md). Exits with a message
 * when no node name is given or no runtime socket answers.
 */
import { splitAddress } from './address.js';
import { createHttpClient } from '../client/index.js';
import { createKruiseDaemon } from '../daemon/daemon.js';
import { discoverRuntimes } from '../daemon/runtime/registry.js';
import { kruiseFeatureGates } from '../features/kruise.js';
import { configureLogging, logger, type LogFormat } from '../machinery/log.js';

export interface DaemonCommandOptions {
  kubeconfig?: string;
  nodeName?: string;
  addr: string;
  socketFile?: string;
  varRunDir: string;
  maxWorkersForPullImage: number;
  featureGates: string;
  restConfigQps: number;
  logLevel: string;
  /** `text` for a person at a terminal, `json` (default) for log collectors. */
  logFormat?: LogFormat;
}

export async function runDaemon(options: DaemonCommandOptions): Promise<void> {
  configureLogging({ level: options.logLevel, format: options.logFormat });
  const log = logger('kruise-daemon');
  const nodeName = options.nodeName || process.env.NODE_NAME;
  if (!nodeName) throw new Error('kruise daemon: no node name: set --node-name or NODE_NAME');
  const runtimes = await discoverRuntimes({ socketFile: options.socketFile, varRunDir: options.varRunDir });
  const gates = kruiseFeatureGates(options.featureGates);
  const client = createHttpClient({ kubeconfigPath: options.kubeconfig, userAgent: 'kruise-daemon', qps: options.restConfigQps || undefined });
  const [host, port] = splitAddress(options.addr, '--addr', '0.0.0.0');
  const daemon = createKruiseDaemon({
    client, nodeName, runtimes, gate: (g) => gates.enabled(g), maxWorkersForPullImage: options.maxWorkersForPullImage, health: { host, port },
  });
  await daemon.start();
  console.log(`kruise-daemon ready on node ${nodeName}: runtimes ${runtimes.names().join(', ')}; /healthz and /metrics on ${host}:${daemon.healthPort()}`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await daemon.stop();
    runtimes.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
