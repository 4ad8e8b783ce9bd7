/** `kruise up`: the embedded control plane in the foreground, with a kubeconfig for kubectl. */
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { startControlPlane } from '../apiserver/server.js';
import { buildKubeconfig, writeKubeconfig } from '../apiserver/auth/kubeconfig.js';
import { createInProcessClient } from '../client/index.js';
import { installKruise } from '../install/install.js';
import { startCluster, type Cluster } from '../cluster/cluster.js';
import { serviceAccountUser, type ClientAs } from '../cluster/identities.js';
import { daemonServiceAccount } from '../install/daemon-rbac.js';
import { managerServiceAccount } from '../install/manager-rbac.js';
import { kruiseNamespace } from '../install/manifests.js';
import { loadNodeBehaviour } from './node-behaviour.js';
import { startNodeDaemons, type NodeDaemons } from '../daemon/node-daemons.js';
import { kruiseFeatureGates, tryItOutGates } from '../features/kruise.js';
import { gateReportLines } from '../features/readers.js';
import { mergeKruiseContext, userKubeconfigPath } from './merge-kubeconfig.js';
import { upSummary } from './up-summary.js';
import { configureLogging, logger, type LogFormat } from '../machinery/log.js';
import { Manager } from '../runtime/manager.js';
import { setupKruiseControllers } from '../controllers/index.js';
import type { SharedInformerFactory } from '../runtime/informer-factory.js';
import { startKruiseWebhooks, type KruiseWebhooks } from '../webhooks/index.js';
import { webhookSecretName, webhookServiceName } from '../api/kruise/webhook-inventory.js';
import type { Client } from '../client/client.js';
import { startDashboard, type Dashboard } from '../dashboard/index.js';
import type { AuthorizationMode } from '../apiserver/authz/authorizer.js';

/**
 * A deleted pod stays this long after its containers stopped, as a real kubelet's cleanup takes a
 * moment: removed at once, a same-named replacement can land between kubectl delete's GET and its
 * watch, which then waits for a DELETED event that already went by (simulated-nodes.md §22).
 */
const kubeletPodCleanupMs = 250;

export interface UpOptions {
  dataDir: string;
  port: number;
  host: string;
  kubeconfig?: string;
  nodes: number;
  /** Zone labels of the nodes, round-robin (`--zones a,b,c`; default zone-a, zone-b, zone-c). */
  zones?: string;
  /** Pods each simulated node holds (`--node-pods`; default 110). */
  nodePods?: number;
  inMemory: boolean;
  /**
   * RBAC (default) or AlwaysAllow (docs/design/authorization.md §1). The in-process components act
   * as their own users and ServiceAccounts (§15), with the roles `kruise install` and kube's
   * bootstrap policy give them.
   */
  authorizationMode?: AuthorizationMode;
  pullDelayMs: number;
  startDelayMs: number;
  /** YAML file of node behaviour rules and image registry facts (docs/design/simulated-nodes.md §10). */
  nodeBehaviour?: string;
  featureGates: string;
  logLevel: string;
  /** `text` for a person at a terminal, `json` (default) for log collectors. */
  logFormat?: LogFormat;
  /** Merge a `kruise` context into the user's kubeconfig ($KUBECONFIG or ~/.kube/config), as kind does. */
  updateKubeconfig?: boolean;
  /** Port of the in-process webhook server (0 picks a free port). */
  webhookPort: number;
  /**
   * Run the Kruise manager (controllers and webhooks) in this process (default). `false`
   * (`--no-kruise-manager`) serves the CRDs and the rest of the cluster only, for a separate
   * `kruise manager --kubeconfig <kubeconfig>` to attach to, e.g. to measure it on its own.
   */
  kruiseManager?: boolean;
  /** false: no Kruise CRDs or configuration either (install them with helm or `kruise install`). */
  kruiseInstall?: boolean;
  /**
   * Run one kruise-daemon per simulated node in this process (default). `false` (`--no-kruise-daemon`)
   * leaves them out, for `kruise daemon --node-name N --socket-file <data-dir>/cri/N.sock` to attach.
   */
  kruiseDaemon?: boolean;
  /** Serve the web dashboard under `/dashboard/` (default; `--no-dashboard` leaves it out). */
  dashboard?: boolean;
  /** Dashboard buttons that pause/resume rollouts and set partitions (`--dashboard-actions`). */
  dashboardActions?: boolean;
}

export interface RunningUp {
  url: string;
  kubeconfigPath: string;
  nodeNames: string[];
  /** The dashboard's URL, unless `--no-dashboard`. */
  dashboardUrl?: string;
  stop(): Promise<void>;
}

/** Starts everything and returns once the plane serves; `runUp` adds the console and signals. */
export async function startUp(options: UpOptions): Promise<RunningUp> {
  configureLogging({ level: options.logLevel, format: options.logFormat });
  const nodeBehaviour = await loadNodeBehaviour(options.nodeBehaviour); // a bad file fails before anything starts
  const gates = kruiseFeatureGates(options.featureGates, tryItOutGates);
  const dataDir = path.resolve(options.dataDir);
  const plane = await startControlPlane({ dataDir, port: options.port, host: options.host, inMemory: options.inMemory, authorizationMode: options.authorizationMode, serviceAccountAdmission: true });
  let webhooks: KruiseWebhooks | undefined;
  let kruise: Manager | undefined;
  let cluster: Cluster | undefined;
  let daemons: NodeDaemons | undefined;
  let dashboard: Dashboard | undefined;
  const stop = async () => {
    dashboard?.stop();
    await daemons?.stop();
    await kruise?.stop();
    await cluster?.stop();
    await webhooks?.stop();
    await plane.stop();
  };
  try {
    // each component acts as itself (docs/design/authorization.md §15); only the install is admin
    const clientAs: ClientAs = (user, userAgent) => createInProcessClient(plane.handler, user, userAgent);
    const client = createInProcessClient(plane.handler, undefined, 'kruise-up');
    if (options.kruiseInstall !== false) await installKruise(client);
    if (options.kruiseManager !== false && options.kruiseInstall !== false) {
      const managerClient = clientAs(serviceAccountUser(kruiseNamespace, managerServiceAccount), 'kruise-manager');
      kruise = new Manager({ client: managerClient, health: false, leaderElection: false });
      // the webhooks' cached reads share the manager's informers: one cache and one watch per kind
      webhooks = await startUpWebhooks(managerClient, dataDir, options.webhookPort, (g) => gates.enabled(g), kruise.informers);
      setupKruiseControllers(kruise, (g) => gates.enabled(g));
      await kruise.start();
    }
    const nodeStateDir = options.inMemory ? undefined : path.join(dataDir, 'nodes');
    const criSocketDir = await criSocketDirIn(dataDir);
    cluster = await startCluster({
      client, clientAs, nodes: options.nodes, zones: options.zones ? options.zones.split(',').filter(Boolean) : undefined,
      nodeCapacity: options.nodePods ? { pods: String(options.nodePods) } : undefined, pullDelayMs: options.pullDelayMs, startDelayMs: options.startDelayMs, podCleanupDelayMs: kubeletPodCleanupMs, nodeBehaviour, nodeStateDir, criSocketDir,
      rootCaPem: plane.pki.ca.certPem,
    });
    if (cluster.nodes) plane.kubelets.attach(cluster.nodes.streams());
    if (options.kruiseDaemon !== false && cluster.nodes) {
      daemons = await startNodeDaemons(clientAs(serviceAccountUser(kruiseNamespace, daemonServiceAccount), 'kruise-daemon'), cluster.nodes, (g) => gates.enabled(g));
    }
    if (options.dashboard !== false) {
      // clientAs: a signed-in user reviews their own access in-process, as the identity the API server authenticated.
      dashboard = startDashboard({
        client: createInProcessClient(plane.handler, undefined, 'kruise-dashboard'), actions: options.dashboardActions,
        clientAs: (u) => createInProcessClient(plane.handler, { username: u.username, uid: u.uid, groups: u.groups, extra: u.extra }, 'kruise-dashboard'),
      });
      const served = dashboard;
      plane.mount(served.base, (req, res, user) => void served.handle(req, res, user));
    }
    const kubeconfigPath = path.resolve(options.kubeconfig ?? path.join(dataDir, 'kubeconfig'));
    await writeKubeconfig(kubeconfigPath, buildKubeconfig({ server: plane.url, caPem: plane.pki.ca.certPem, user: 'admin', token: plane.pki.adminToken, clusterName: 'kruise' }));
    const dashboardUrl = dashboard && `${plane.url}${dashboard.base}`;
    return { url: plane.url, kubeconfigPath, nodeNames: cluster.nodes?.nodeNames() ?? [], dashboardUrl, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

export async function runUp(options: UpOptions): Promise<void> {
  const started = Date.now();
  const up = await startUp(options);
  const mergedInto = options.updateKubeconfig ? await mergeKruiseContext(up.kubeconfigPath, userKubeconfigPath(process.env)) : undefined;
  const lines = upSummary({
    url: up.url, startedMs: Date.now() - started, kubeconfigPath: up.kubeconfigPath, mergedInto, nodeNames: up.nodeNames,
    daemons: options.kruiseDaemon !== false, manager: options.kruiseManager !== false,
    gateLines: gateReportLines(kruiseFeatureGates(options.featureGates, tryItOutGates)),
    dataDir: path.resolve(options.dataDir), inMemory: options.inMemory, dashboardUrl: up.dashboardUrl, dashboardActions: options.dashboardActions,
  });
  for (const line of lines) console.log(line);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`received ${signal}, shutting down`);
    await up.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

/**
 * `<data-dir>/cri`, where each simulated node serves its runtime as `<node>.sock` (crictl
 * --runtime-endpoint unix://...). Owner only: whoever reaches a CRI socket runs the node's containers.
 */
async function criSocketDirIn(dataDir: string): Promise<string> {
  const dir = path.join(dataDir, 'cri');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  logger('kruise-up').debug({ criSocketDir: dir }, 'simulated nodes serve CRI v1 over gRPC');
  return dir;
}

/**
 * The manager's webhooks in-process on loopback, in URL form (the API server calls 127.0.0.1),
 * with certificates kept in the data dir; ready before `kruise up` reports ready.
 */
async function startUpWebhooks(client: Client, dataDir: string, port: number, gate: (name: string) => boolean, informers: SharedInformerFactory): Promise<KruiseWebhooks> {
  const webhooks = await startKruiseWebhooks({
    client, gates: gate, namespace: 'kruise-system', host: '127.0.0.1', port, informers,
    certDir: path.join(dataDir, 'webhook-certs'), certWriter: 'fs', secretName: webhookSecretName, serviceName: webhookServiceName,
    // ECDSA keeps a fresh `kruise up` fast; the manager in a cluster mints RSA 2048 as upstream.
    webhookHost: '127.0.0.1', keyAlgorithm: 'ecdsa-p256',
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('webhooks not ready after 60 s')), 60_000); });
  try {
    await Promise.race([webhooks.ready, timeout]);
  } catch (e) {
    await webhooks.stop();
    throw e;
  } finally {
    clearTimeout(timer);
  }
  return webhooks;
}
