/**
 * An embedded cluster (Kruise webhooks, scheduler, four simulated nodes) whose Kruise manager talks
 * through a recording Client: every pod delete the controller issues is reported, and kill() makes
 * every later call fail, as for a crashed process. restart() kills the manager and starts a fresh
 * one with an empty cache (concurrent calls share one restart).
 */
import { pino } from 'pino';
import type { KList, KObject } from '../../api/meta.js';
import type { ResourceType } from '../../api/resource-type.js';
import type { Client, DeleteOptions, ListOptions, PatchOptions, PatchType, WatchCallbacks, WatchHandle, WatchOptions, WriteOptions } from '../../client/client.js';
import { startCluster } from '../../controlplane/cluster.js';
import { setupAdvancedDaemonSetController } from '../../controllers/daemonset/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { setRootLogger } from '../../machinery/log.js';
import { Manager } from '../../runtime/manager.js';
import { startKruiseTestEnv } from '../../testing/kruise-env.js';

export type PodDeleteHook = (namespace: string, name: string) => void;

class RecordingClient implements Client {
  private dead = false;
  constructor(private readonly inner: Client, private readonly onPodDelete: PodDeleteHook) {}
  kill(): void { this.dead = true; }
  private alive(): void {
    if (this.dead) throw new Error('connection refused: the manager was killed');
  }
  get<T extends KObject = KObject>(t: ResourceType, ns: string | undefined, name: string): Promise<T> { this.alive(); return this.inner.get<T>(t, ns, name); }
  list<T extends KObject = KObject>(t: ResourceType, o?: ListOptions): Promise<KList<T>> { this.alive(); return this.inner.list<T>(t, o); }
  watch<T extends KObject = KObject>(t: ResourceType, o: WatchOptions, cb: WatchCallbacks<T>): WatchHandle { return this.inner.watch<T>(t, o, cb); }
  create<T extends KObject>(t: ResourceType, obj: T, o?: WriteOptions): Promise<T> { this.alive(); return this.inner.create(t, obj, o); }
  update<T extends KObject>(t: ResourceType, obj: T, o?: WriteOptions): Promise<T> { this.alive(); return this.inner.update(t, obj, o); }
  updateStatus<T extends KObject>(t: ResourceType, obj: T, o?: WriteOptions): Promise<T> { this.alive(); return this.inner.updateStatus(t, obj, o); }
  patch<T extends KObject = KObject>(t: ResourceType, ns: string | undefined, name: string, pt: PatchType, p: unknown, o?: PatchOptions): Promise<T> {
    this.alive();
    return this.inner.patch<T>(t, ns, name, pt, p, o);
  }
  delete(t: ResourceType, ns: string | undefined, name: string, o?: DeleteOptions): Promise<void> {
    this.alive();
    if (t.group === '' && t.resource === 'pods') this.onPodDelete(ns ?? '', name);
    return this.inner.delete(t, ns, name, o);
  }
  createSubresource(t: ResourceType, ns: string | undefined, name: string, sub: string, body: unknown): Promise<unknown> {
    this.alive();
    return this.inner.createSubresource(t, ns, name, sub, body);
  }
}

export interface KillableEnv {
  /** The user's client (not recorded, never killed). */
  client: Client;
  restart(): Promise<void>;
  restarts(): number;
  stop(): Promise<void>;
}

export async function startKillableEnv(o: { onPodDelete: PodDeleteHook; startDelayMs?: number; downMs?: number }): Promise<KillableEnv> {
  if (!process.env.TEST_LOG) setRootLogger(pino({ level: 'silent' }));
  const env = await startKruiseTestEnv();
  const cluster = await startCluster({ client: env.client, nodes: 4, controllers: true, startDelayMs: o.startDelayMs }).catch(async (e: unknown) => {
    await env.stop();
    throw e;
  });
  let current: { manager: Manager; client: RecordingClient } | undefined;
  let pending: Promise<void> | undefined;
  let count = 0;
  const start = async () => {
    const client = new RecordingClient(env.client, o.onPodDelete);
    const manager = new Manager({ client, health: false, leaderElection: false, gracefulShutdownMs: 2_000 });
    setupAdvancedDaemonSetController(manager);
    setupPodReadinessController(manager);
    await manager.start();
    current = { manager, client };
  };
  const kill = async () => {
    const c = current;
    current = undefined;
    c?.client.kill();
    await c?.manager.stop({ releaseLease: false });
  };
  await start();
  return {
    client: env.client,
    restart() {
      pending ??= (async () => {
        await kill();
        await new Promise((r) => setTimeout(r, o.downMs ?? 100));
        await start();
        count++;
      })().finally(() => { pending = undefined; });
      return pending;
    },
    restarts: () => count,
    async stop() {
      await kill();
      await cluster.stop();
      await env.stop();
    },
  };
}
