/**
 * `kruise manager`: the webhook server and its certificate/configuration controller on every
 * replica, then every registered Kruise controller on the elected leader (docs/design/manager.md §2).
 */
import { splitAddress } from './address.js';
import { createHttpClient } from '../client/index.js';
import { Manager } from '../runtime/manager.js';
import { startHealthServer } from '../runtime/health-server.js';
import { kruiseFeatureGates } from '../features/kruise.js';
import { gateReportLines } from '../features/readers.js';
import { setupKruiseControllers } from '../controllers/index.js';
import { configureLogging, logger, type LogFormat } from '../machinery/log.js';
import { parseRenewBefore } from '../webhooks/certs/index.js';
import { startKruiseWebhooks } from '../webhooks/index.js';
import { configureDeletionProtection } from '../webhooks/protection/index.js';
import { pubMetrics } from '../control/pubcontrol/index.js';
import { webhookSecretName, webhookServiceName } from '../api/kruise/webhook-inventory.js';
import { idleTuningEnabled, tuneHeapWhenIdle } from './manager-v8.js';

export interface ManagerWebhookEnv {
  namespace: string;
  port: number;
  webhookHost?: string;
  certDir: string;
  certWriter: 'secret' | 'fs';
  secretName: string;
  serviceName: string;
  renewBeforeMs?: number;
}

export interface ManagerCommandOptions {
  kubeconfig?: string;
  featureGates: string;
  logLevel: string;
  /** `text` for a person at a terminal, `json` (default) for log collectors. */
  logFormat?: LogFormat;
  healthAddr: string;
  /** A second address serving /metrics (the chart's manager.metrics.port); unset: metrics on the health address only. */
  metricsAddr?: string;
  leaderElect: boolean;
  leaderElectionNamespace: string;
  leaseDuration: number;
  renewDeadline: number;
  retryPeriod: number;
  /** Seconds the first webhook-configuration sync may take before the process exits. */
  webhookInitializeTimeout: number;
  webhookBindAddress: string;
  /** Directory of protection.log; empty: no log (upstream's default `/log` needs a container). */
  protectionLogPath: string;
  webhook: ManagerWebhookEnv;
}

/** The manager's webhook environment (docs/design/manager.md §3): POD_NAMESPACE, WEBHOOK_PORT, WEBHOOK_HOST, ... */
export function webhookEnv(env: NodeJS.ProcessEnv): ManagerWebhookEnv {
  const port = Number(env.WEBHOOK_PORT ?? 9876);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid WEBHOOK_PORT ${JSON.stringify(env.WEBHOOK_PORT)}`);
  const webhookHost = env.WEBHOOK_HOST || undefined;
  const writer = env.WEBHOOK_CERT_WRITER || (webhookHost ? 'fs' : 'secret');
  if (writer !== 'secret' && writer !== 'fs') throw new Error(`invalid WEBHOOK_CERT_WRITER ${JSON.stringify(writer)}: expected secret or fs`);
  return {
    namespace: env.POD_NAMESPACE || 'kruise-system',
    port,
    webhookHost,
    certDir: env.WEBHOOK_CERT_DIR || '/tmp/kruise-webhook-certs',
    certWriter: writer,
    secretName: env.SECRET_NAME || webhookSecretName,
    serviceName: env.SERVICE_NAME || webhookServiceName,
    renewBeforeMs: env.CERTS_RENEW_BEFORE ? parseRenewBefore(env.CERTS_RENEW_BEFORE) : undefined,
  };
}

export async function runManager(options: ManagerCommandOptions): Promise<void> {
  configureLogging({ level: options.logLevel, format: options.logFormat });
  const log = logger('kruise-manager');
  const gates = kruiseFeatureGates(options.featureGates);
  const [host, port] = splitAddress(options.healthAddr, '--health-addr', '127.0.0.1');
  const client = createHttpClient({ kubeconfigPath: options.kubeconfig, userAgent: 'kruise-manager' });
  const manager = new Manager({
    client,
    health: false,
    leaderElection: options.leaderElect
      ? { namespace: options.leaderElectionNamespace, name: 'kruise-manager', leaseDurationMs: options.leaseDuration * 1000, renewDeadlineMs: options.renewDeadline * 1000, retryPeriodMs: options.retryPeriod * 1000 }
      : false,
  });
  configureDeletionProtection({ registry: manager.metrics.registry, logDir: options.protectionLogPath || undefined });
  pubMetrics.registerOn(manager.metrics.registry);
  let webhooksReady = false;
  const ready = () => webhooksReady && manager.ready();
  const health = await startHealthServer({ host, port, ready, registry: manager.metrics.registry });
  const metricsServer = options.metricsAddr ? await startHealthServer({ ...hostPort(options.metricsAddr, '--metrics-addr'), ready, registry: manager.metrics.registry }) : undefined;
  // The webhooks' reads get connections of their own: on the controllers' pool they would queue
  // behind pod creates that are themselves waiting for these webhooks (docs/design/webhooks.md §17).
  const webhookClient = createHttpClient({ kubeconfigPath: options.kubeconfig, userAgent: 'kruise-manager' });
  const webhooks = await startKruiseWebhooks({
    ...options.webhook, client: webhookClient, gates: (g) => gates.enabled(g), host: options.webhookBindAddress, registry: manager.metrics.registry,
    informers: manager.informers,
  });
  await withTimeout(webhooks.ready, options.webhookInitializeTimeout * 1000).catch((e: unknown) => {
    log.error({ err: e }, 'Webhooks failed to initialize');
    console.error(`kruise manager: webhooks not initialized within ${options.webhookInitializeTimeout}s: ${(e as Error).message}`);
    process.exit(1);
  });
  webhooksReady = true;
  const controllers = setupKruiseControllers(manager, (g) => gates.enabled(g));
  await manager.start();
  const healthAddress = { host: health.host, port: health.port };
  log.info({ gates: gates.enabledNames(), controllers, health: healthAddress, webhookPort: webhooks.port }, 'manager started');
  const [gatesLine, ...warnings] = gateReportLines(gates);
  console.log(`kruise manager ready; health on ${JSON.stringify(healthAddress)}; webhooks on port ${webhooks.port}; ${gatesLine.replace('kruise ', '')}`);
  for (const w of warnings) console.log(w);
  const stopTuning = idleTuningEnabled(process.env)
    ? tuneHeapWhenIdle(undefined, undefined, (idle) => log.debug({ idle }, idle ? 'idle: heap tuned for size' : 'working: heap tuned for speed'))
    : () => undefined;
  const stop = () => {
    stopTuning();
    void manager.stop().then(() => webhooks.stop()).then(() => health.close()).then(() => metricsServer?.close()).then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

function hostPort(addr: string, flag: string): { host: string; port: number } {
  const [host, port] = splitAddress(addr, flag, '127.0.0.1');
  return { host, port };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('timed out')), ms); });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
