/**
 * Options of createSimulatedNodes, checked and with defaults filled (kwok-style constructor
 * contract: reject conflicting or impossible settings rather than guess).
 */
import type { Client } from '../../client/client.js';
import type { AuthConfig } from '../../daemon/cri/types.js';

export type NodePullError = (image: string, auth: AuthConfig | undefined, nodeName: string) => string | undefined;
import { realClock, type Clock } from '../../machinery/clock.js';
import { checkNodeBehaviour, type NodeBehaviour } from './behaviour/behaviour-file.js';
import { BehaviourResolver } from './behaviour/container-behaviour.js';
import { defaultCapacity, type NodeCapacity } from './node-object.js';
import type { ReadinessPolicy } from './readiness.js';

export interface SimulatedNodesOptions {
  /** What the nodes share (their pod, ConfigMap and Secret watches) runs with this client. */
  client: Client;
  /** Each node's own writes (its Node, Lease, pod statuses, events) use this client (default `client`). */
  clientFor?: (node: string) => Client;
  /** Nodes registered by start(). */
  count: number;
  /** Node names are `<namePrefix><i>` (default `kruise-node-`). */
  namePrefix?: string;
  /** Zone labels, assigned round-robin (default zone-a, zone-b, zone-c). */
  zones?: string[];
  /** Default cpu 32, memory 256Gi, pods 110. */
  capacity?: Partial<NodeCapacity>;
  /** Extra node labels (e.g. `type: virtual-kubelet`). */
  labels?: Record<string, string>;
  /** One image pull per image per node takes this long (default 0). */
  pullDelayMs?: number;
  /** Starting a container (and so each init container) takes this long (default 0). */
  startDelayMs?: number;
  /**
   * Time a container takes to exit after SIGTERM (default 0, like a process that handles it). The pod's
   * grace period caps it: with Infinity, deletions and in-place restarts take the full grace period.
   */
  terminationDelayMs?: number;
  /**
   * Time between a deleted pod's containers being down (status written) and the kubelet's final
   * removal of the pod, standing for volume unmount and cgroup cleanup (default 0; `kruise up`: 250).
   */
  podCleanupDelayMs?: number;
  clock?: Clock;
  readiness?: ReadinessPolicy;
  /** Makes pulls fail with the returned message; told the node, so one node's registry can fail alone. */
  pullError?: NodePullError;
  /** Node lease: duration 40 s, renewed every 10 s. */
  leaseDurationSeconds?: number;
  leaseRenewIntervalMs?: number;
  /** Node status (heartbeat times) is re-reported this often (default 5 min, kubelet's report frequency). */
  nodeStatusReportIntervalMs?: number;
  /** Concurrent pod syncs (default 32). */
  workers?: number;
  /** Restart back-off of crashing containers (default 10 s doubling to 300 s). */
  crashLoopBackoff?: { initialMs: number; maxMs: number };
  kubeletVersion?: string;
  /**
   * Keep each node's container runtime state in `<stateDir>/<node>.json`: stopping and starting
   * the nodes again leaves running containers running (same ids, restart counts and start times).
   */
  stateDir?: string;
  /**
   * Also serve each node's runtime as a CRI v1 gRPC endpoint at `<criSocketDir>/<nodeName>.sock`
   * (for crictl; the kubelets keep calling their runtime in-process). The directory must exist.
   */
  criSocketDir?: string;
  /**
   * Cluster-wide behaviour as data (`kruise up --node-behaviour FILE`): rules setting run times, exit
   * codes, delays and readiness per pod and container, what unreadable commands do, and image
   * registry facts (docs/design/simulated-nodes.md §10). Checked here like every other option.
   */
  behaviour?: NodeBehaviour;
}

export interface ResolvedOptions extends Required<Omit<SimulatedNodesOptions, 'capacity' | 'labels' | 'pullError' | 'behaviour' | 'stateDir' | 'criSocketDir'>> {
  capacity: NodeCapacity;
  labels: Record<string, string>;
  pullError?: NodePullError;
  behaviour: BehaviourResolver;
  stateDir?: string;
  criSocketDir?: string;
}

/** The readiness policy with the behaviour's delays and flaps laid over it (per container, when set). */
function withBehaviour(policy: ReadinessPolicy, behaviour: BehaviourResolver): ReadinessPolicy {
  const base = policy.delayMs;
  return {
    ...policy,
    delayMs: (pod, container) => behaviour.readiness(pod, container).delayMs ?? (typeof base === 'function' ? base(pod, container) : base ?? 0),
    flaps: (pod, container) => behaviour.readiness(pod, container).flaps ?? policy.flaps?.(pod, container),
  };
}

export function resolveOptions(o: SimulatedNodesOptions): ResolvedOptions {
  if (!Number.isInteger(o.count) || o.count < 0) throw new Error(`createSimulatedNodes: count must be a non-negative integer, got ${o.count}`);
  for (const key of ['pullDelayMs', 'startDelayMs', 'terminationDelayMs', 'podCleanupDelayMs', 'leaseRenewIntervalMs', 'nodeStatusReportIntervalMs'] as const) {
    const v = o[key];
    if (v !== undefined && !(v >= 0)) throw new Error(`createSimulatedNodes: ${key} must be a non-negative number, got ${v}`);
  }
  const zones = o.zones ?? ['zone-a', 'zone-b', 'zone-c'];
  if (zones.length === 0) throw new Error('createSimulatedNodes: zones must not be empty');
  const leaseDurationSeconds = o.leaseDurationSeconds ?? 40;
  const leaseRenewIntervalMs = o.leaseRenewIntervalMs ?? 10_000;
  if (leaseRenewIntervalMs <= 0 || leaseRenewIntervalMs >= leaseDurationSeconds * 1000) {
    throw new Error(`createSimulatedNodes: leaseRenewIntervalMs (${leaseRenewIntervalMs}) must be positive and shorter than the lease duration (${leaseDurationSeconds} s)`);
  }
  const behaviour = new BehaviourResolver(o.behaviour && checkNodeBehaviour(o.behaviour, 'given to createSimulatedNodes'));
  const capacity = { ...defaultCapacity, ...o.capacity };
  if (!(Number(capacity.pods) > 0)) throw new Error(`createSimulatedNodes: capacity.pods must be a positive number, got ${capacity.pods}`);
  return {
    client: o.client, clientFor: o.clientFor ?? (() => o.client), count: o.count, namePrefix: o.namePrefix ?? 'kruise-node-', zones, capacity, labels: o.labels ?? {},
    pullDelayMs: o.pullDelayMs ?? 0, startDelayMs: o.startDelayMs ?? 0, terminationDelayMs: o.terminationDelayMs ?? 0, podCleanupDelayMs: o.podCleanupDelayMs ?? 0,
    clock: o.clock ?? realClock, readiness: withBehaviour(o.readiness ?? {}, behaviour), pullError: o.pullError, behaviour,
    leaseDurationSeconds, leaseRenewIntervalMs, nodeStatusReportIntervalMs: o.nodeStatusReportIntervalMs ?? 300_000,
    workers: o.workers ?? 32, crashLoopBackoff: o.crashLoopBackoff ?? { initialMs: 10_000, maxMs: 300_000 },
    kubeletVersion: o.kubeletVersion ?? 'v1.32.4', stateDir: o.stateDir, criSocketDir: o.criSocketDir,
  };
}
