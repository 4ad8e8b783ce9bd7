/**
 * Test kit for workload controllers end to end: an embedded control plane with Kruise installed
 * and webhooks served (kruise-env), the scheduler, simulated nodes and core controllers, and a
 * Kruise manager running the chosen controllers on a RecordingClient. The manager can be stopped
 * and started again, gracefully or as a crash (a restart mid-rollout), without touching the cluster.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { Client } from '../client/client.js';
import { startCluster, type Cluster, type ClusterOptions } from '../cluster/cluster.js';
import type { SimulatedNodes } from '../cluster/kubelet/index.js';
import { createInProcessClient } from '../client/index.js';
import { startNodeDaemons, type NodeDaemons } from '../daemon/node-daemons.js';
import { kruiseFeatureGates } from '../features/kruise.js';
import { setRootLogger } from '../machinery/log.js';
import { Manager } from '../runtime/manager.js';
import { startKruiseTestEnv, type KruiseTestEnv, type KruiseTestEnvOptions } from './kruise-env.js';
import { RecordingClient, type Around } from './recording-client.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface WorkloadEnvOptions extends KruiseTestEnvOptions {
  /** Simulated nodes (default 3). */
  nodes?: number;
  pullDelayMs?: number;
  startDelayMs?: number;
  /** Registers the controllers under test on a fresh manager (called again on every restart). */
  controllers(manager: Manager): void;
  /** Sees every write of every manager (restarts included) before it is sent. */
  around?: Around;
  /** Run one kruise-daemon per simulated node (over the nodes' CRI sockets), with the env's gates. */
  daemons?: boolean;
  /** Options of those daemons. */
  daemonOptions?: Parameters<typeof startNodeDaemons>[3];
  /** Registry facts and container rules of the simulated nodes. */
  nodeBehaviour?: ClusterOptions['nodeBehaviour'];
  /** Injected pull failures, per image and node. */
  pullError?: ClusterOptions['pullError'];
  /** Zone labels (`topology.kubernetes.io/zone`) of the nodes, round-robin. */
  zones?: ClusterOptions['zones'];
  /** Capacity of every node, e.g. `{ pods: '3' }`. */
  nodeCapacity?: ClusterOptions['nodeCapacity'];
  /** The kubelets' crash-loop back-off (default 10 s doubling to 5 min). */
  crashLoopBackoff?: ClusterOptions['crashLoopBackoff'];
  /** HorizontalPodAutoscaler timings (short sync periods in tests). */
  hpa?: ClusterOptions['hpa'];
}

export interface RestartOptions {
  /** Kill instead of a graceful stop: in-flight and later calls fail, the lease is kept. */
  crash?: boolean;
  /** Time the manager stays down (default 0). */
  downMs?: number;
}

export interface WorkloadEnv {
  env: KruiseTestEnv;
  /** The simulated nodes (for CRI sockets and runtimes). */
  nodes(): SimulatedNodes;
  /** The kruise-daemons, when `daemons` was set. */
  daemons(): NodeDaemons | undefined;
  /** Stops every kruise-daemon and starts new ones (a daemon restart on every node). */
  restartDaemons(): Promise<void>;
  client: Client;
  /** The manager running now (replaced by restartManager). */
  manager(): Manager;
  /** Stops the manager and starts a new one with the same controllers and an empty cache; concurrent calls share one restart. */
  restartManager(options?: RestartOptions): Promise<void>;
  /** Restarts done so far. */
  restarts(): number;
  stopManager(): Promise<void>;
  startManager(): Promise<void>;
  stop(): Promise<void>;
}

export async function startWorkloadEnv(options: WorkloadEnvOptions): Promise<WorkloadEnv> {
  if (!process.env.TEST_LOG) setRootLogger(pino({ level: 'silent' }));
  const env = await startKruiseTestEnv(options);
  let cluster: Cluster | undefined;
  let current: { manager: Manager; client: RecordingClient } | undefined;
  let restarting: Promise<void> | undefined;
  let restarts = 0;
  const startManager = async () => {
    if (current) return;
    const client = new RecordingClient(env.client, options.around);
    const manager = new Manager({ client, health: false, leaderElection: false, gracefulShutdownMs: 5_000 });
    options.controllers(manager);
    await manager.start();
    current = { manager, client };
  };
  const stopManager = async (crash = false) => {
    const c = current;
    current = undefined;
    if (crash) c?.client.kill();
    await c?.manager.stop({ releaseLease: !crash });
  };
  let daemons: NodeDaemons | undefined;
  const startDaemons = () => {
    const gates = kruiseFeatureGates(options.gates ?? '');
    return startNodeDaemons(createInProcessClient(env.plane.handler, undefined, 'kruise-daemon'), cluster!.nodes!, (g) => gates.enabled(g), options.daemonOptions);
  };
  const criSocketDir = options.daemons ? await mkdtemp(path.join(tmpdir(), 'kt-cri-')) : undefined;
  try {
    cluster = await startCluster({
      client: env.client, nodes: options.nodes ?? 3, controllers: true, pullDelayMs: options.pullDelayMs, startDelayMs: options.startDelayMs,
      criSocketDir, nodeBehaviour: options.nodeBehaviour, pullError: options.pullError, zones: options.zones, nodeCapacity: options.nodeCapacity,
      crashLoopBackoff: options.crashLoopBackoff, rootCaPem: env.plane.pki.ca.certPem, hpa: options.hpa,
    });
    if (options.daemons) daemons = await startDaemons();
    await startManager();
  } catch (e) {
    await daemons?.stop();
    await cluster?.stop();
    await env.stop();
    throw e;
  }
  return {
    env,
    client: env.client,
    nodes: () => cluster!.nodes!,
    daemons: () => daemons,
    async restartDaemons() {
      await daemons?.stop();
      daemons = await startDaemons();
    },
    manager: () => {
      if (!current) throw new Error('manager is stopped');
      return current.manager;
    },
    startManager,
    stopManager: () => stopManager(),
    restartManager(o: RestartOptions = {}) {
      restarting ??= (async () => {
        await stopManager(o.crash);
        if (o.downMs) await sleep(o.downMs);
        await startManager();
        restarts++;
      })().finally(() => { restarting = undefined; });
      return restarting;
    },
    restarts: () => restarts,
    async stop() {
      await stopManager();
      await daemons?.stop();
      await cluster?.stop();
      await env.stop();
      if (criSocketDir) await rm(criSocketDir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` every 25 ms until it returns a value other than undefined/false. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
      last = undefined;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Resolves after `ms`, checking `invariant` every 25 ms (throws its first failure). */
export async function holds(what: string, invariant: () => Promise<string | undefined>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const broken = await invariant();
    if (broken) throw new Error(`${what}: ${broken}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
