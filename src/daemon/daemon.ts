/**
 * kruise-daemon: one per node, the node half of OpenKruise. It watches only what concerns its node
 * (its NodeImage and NodePodProbe by name, the pods bound to it, the ContainerRecreateRequests
 * labelled with it) and acts through the node's container runtime over CRI. Its controllers are
 * registered in controllers.ts, each behind its feature gate. `/healthz` fails until every informer
 * synced; `/metrics` serves the runtime metrics (docs/design/daemon.md).
 */
import type { Client } from '../client/client.js';
import type { Clock } from '../machinery/clock.js';
import { logger } from '../machinery/log.js';
import { startHealthServer, type HealthServer } from '../runtime/health-server.js';
import { Manager } from '../runtime/manager.js';
import { daemonControllers, type DaemonContext } from './controllers.js';
import { hostNetwork, type ProbeNetwork } from './podprobe/network.js';
import type { RuntimeRegistry } from './runtime/registry.js';

export interface KruiseDaemonOptions {
  /** A client identifying itself as `kruise-daemon`. */
  client: Client;
  nodeName: string;
  runtimes: RuntimeRegistry;
  gate: (name: string) => boolean;
  /** Concurrent image pulls (`--max-workers-for-pull-image`; -1: unlimited). */
  maxWorkersForPullImage?: number;
  /** `/healthz` and `/metrics` (`--addr`); false for none (in-process daemons of `kruise up`). */
  health?: { host: string; port: number } | false;
  clock?: Clock;
  /** How probes reach pods (default the host's network; simulated nodes pass theirs). */
  network?: ProbeNetwork;
}

export interface KruiseDaemon {
  readonly nodeName: string;
  /** The health server's port, when it serves one. */
  healthPort(): number | undefined;
  /** Every controller's informers have synced. */
  ready(): boolean;
  /** Resolves once every informer has synced (false: stopped first). */
  synced(): Promise<boolean>;
  /** Names of the controllers running. */
  controllers(): string[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createKruiseDaemon(o: KruiseDaemonOptions): KruiseDaemon {
  if (!o.nodeName) throw new Error('kruise-daemon needs its node name (--node-name or NODE_NAME)');
  const log = logger('kruise-daemon').child({ node: o.nodeName });
  const mgr = new Manager({ client: o.client, clock: o.clock, log, health: false, leaderElection: false });
  const ctx: DaemonContext = { mgr, nodeName: o.nodeName, runtimes: o.runtimes, gate: o.gate, log, maxWorkersForPullImage: o.maxWorkersForPullImage ?? -1, network: o.network ?? hostNetwork };
  const enabled = daemonControllers.filter((c) => c.enabled(o.gate));
  let health: HealthServer | undefined;
  let started = false;
  return {
    nodeName: o.nodeName,
    healthPort: () => health?.port,
    ready: () => started && mgr.ready(),
    synced: () => mgr.informers.waitForSync(),
    controllers: () => enabled.map((c) => c.name),
    async start() {
      for (const c of enabled) c.setup(ctx);
      if (o.health) {
        const ready = () => started && mgr.ready();
        health = await startHealthServer({ ...o.health, ready, healthy: ready, registry: mgr.metrics.registry });
      }
      await mgr.start();
      // started means synced: the ready line (and the node daemons of `kruise up`) come after the first lists
      await mgr.informers.waitForSync();
      started = true;
      log.info({ controllers: enabled.map((c) => c.name), runtimes: o.runtimes.names() }, 'kruise-daemon started');
    },
    async stop() {
      await mgr.stop();
      await health?.close();
    },
  };
}
