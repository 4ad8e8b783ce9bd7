/**
 * The cluster around the API server: scheduler, simulated nodes and the controller-manager pieces,
 * all talking through a Client (in-process for `kruise up`, HTTP when pointed at another server).
 */
import type { Client } from '../client/client.js';
import { Manager } from '../runtime/manager.js';
import { createScheduler } from './scheduler/index.js';
import { createSimulatedNodes, type NodeBehaviour, type SimulatedNodes, type SimulatedNodesOptions } from './kubelet/index.js';
import { setupCoreControllers, type CoreControllerOptions } from './controllers/index.js';
import { ensureStorageDefaults } from './controllers/volume/index.js';

export interface ClusterOptions {
  client: Client;
  /** Simulated nodes to register (0 for none). */
  nodes: number;
  pullDelayMs?: number;
  startDelayMs?: number;
  /** Keep the simulated nodes' container state here, so containers survive a restart (SimulatedNodesOptions.stateDir). */
  nodeStateDir?: string;
  /** What simulated containers do beyond their commands (`kruise up --node-behaviour FILE`). */
  nodeBehaviour?: NodeBehaviour;
  /** Injected pull failures, per image and node (SimulatedNodesOptions.pullError). */
  pullError?: SimulatedNodesOptions['pullError'];
  /** Zone labels of the simulated nodes, round-robin (SimulatedNodesOptions.zones). */
  zones?: string[];
  /** Capacity of every simulated node (SimulatedNodesOptions.capacity): a small `pods` leaves pods Unschedulable. */
  nodeCapacity?: SimulatedNodesOptions['capacity'];
  /** Run the scheduler (default true). */
  scheduler?: boolean;
  /** Run the core controllers: ReplicaSet, Deployment, StatefulSet, DaemonSet, Job, CronJob, node lifecycle (default true). */
  controllers?: boolean;
  /** The simulated kubelets' crash-loop back-off (default 10 s doubling to 5 min). */
  crashLoopBackoff?: SimulatedNodesOptions['crashLoopBackoff'];
  /** Serve each simulated node's runtime over CRI gRPC at `<criSocketDir>/<node>.sock` (for crictl). */
  criSocketDir?: string;
  /** HorizontalPodAutoscaler timings (CoreControllerOptions.hpa). */
  hpa?: CoreControllerOptions['hpa'];
}

export interface Cluster {
  /** The simulated nodes, when any run. */
  readonly nodes?: SimulatedNodes;
  stop(): Promise<void>;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const stops: (() => Promise<void>)[] = [];
  let simulated: SimulatedNodes | undefined;
  if (options.controllers !== false) {
    const manager = new Manager({ client: options.client, health: false, leaderElection: false });
    setupCoreControllers(manager, { hpa: options.hpa });
    await manager.start();
    stops.push(() => manager.stop());
    await ensureStorageDefaults(options.client);
  }
  if (options.scheduler !== false) {
    const scheduler = createScheduler({ client: options.client });
    await scheduler.start();
    stops.push(() => scheduler.stop());
  }
  // with a state dir even zero nodes run, so the nodes of an earlier run leave cleanly
  if (options.nodes > 0 || options.nodeStateDir) {
    const nodes = createSimulatedNodes({
      client: options.client, count: options.nodes, pullDelayMs: options.pullDelayMs, startDelayMs: options.startDelayMs,
      behaviour: options.nodeBehaviour, pullError: options.pullError, stateDir: options.nodeStateDir, criSocketDir: options.criSocketDir,
      zones: options.zones, capacity: options.nodeCapacity,
      crashLoopBackoff: options.crashLoopBackoff,
    });
    await nodes.start();
    stops.push(() => nodes.stop());
    simulated = nodes;
  }
  return {
    nodes: simulated,
    async stop() {
      for (const stop of stops.reverse()) await stop();
    },
  };
}
