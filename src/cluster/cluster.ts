/**
 * The cluster around the API server: scheduler, simulated nodes and the controller-manager pieces,
 * all talking through a Client (in-process for `kruise up`, HTTP when pointed at another server).
 */
import type { Client } from '../client/client.js';
import { Manager } from '../runtime/manager.js';
import { createScheduler } from './scheduler/index.js';
import { createSimulatedNodes, type NodeBehaviour, type SimulatedNodes, type SimulatedNodesOptions } from './kubelet/index.js';
import { setupCoreControllers, type CoreControllerOptions } from './controllers/index.js';
import { grantSimulatedKubelets, simulatedKubeletsUser } from './simulated-kubelets-access.js';
import { ensureStorageDefaults } from './controllers/volume/index.js';
import { controllerClient, controllerManagerUser, nodeUser, schedulerUser, type ClientAs } from './identities.js';

export interface ClusterOptions {
  client: Client;
  /**
   * Give each component its own identity (identities.ts): the scheduler, kube-controller-manager
   * and its controllers' ServiceAccounts, one `system:node:<name>` per simulated node. Without it
   * every component uses `client`.
   */
  clientAs?: ClientAs;
  /** Simulated nodes to register (0 for none). */
  nodes: number;
  pullDelayMs?: number;
  startDelayMs?: number;
  /** The simulated kubelets' pod cleanup time before the final removal (SimulatedNodesOptions). */
  podCleanupDelayMs?: number;
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
  /** The cluster CA (PEM) the root-CA publisher puts in every namespace as `kube-root-ca.crt`. */
  rootCaPem?: string;
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
  const as = options.clientAs;
  if (options.controllers !== false) {
    const manager = new Manager({
      client: as ? as(controllerManagerUser, 'kube-controller-manager') : options.client, health: false, leaderElection: false,
      // the simulated resizer, attacher and CSINode writer stand for components outside kube-controller-manager
      clientFor: as && ((controller) => controllerClient(as, controller) ?? options.client),
    });
    setupCoreControllers(manager, { rootCaPem: options.rootCaPem, hpa: options.hpa });
    await manager.start();
    stops.push(() => manager.stop());
    await ensureStorageDefaults(options.client);
  }
  if (options.scheduler !== false) {
    const scheduler = createScheduler({ client: as ? as(schedulerUser, 'kube-scheduler') : options.client });
    await scheduler.start();
    stops.push(() => scheduler.stop());
  }
  // with a state dir even zero nodes run, so the nodes of an earlier run leave cleanly
  if (options.nodes > 0 || options.nodeStateDir) {
    if (as) await grantSimulatedKubelets(options.client);
    const nodes = createSimulatedNodes({
      client: as ? as(simulatedKubeletsUser, 'kubelet') : options.client, count: options.nodes,
      clientFor: as && ((node) => as(nodeUser(node), 'kubelet')), pullDelayMs: options.pullDelayMs, startDelayMs: options.startDelayMs, podCleanupDelayMs: options.podCleanupDelayMs,
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
