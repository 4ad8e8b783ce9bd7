/**
 * The embedded cluster the property sequences run on: Kruise webhooks, the scheduler, simulated
 * nodes with scriptable readiness, the observer's own informers, and a Kruise manager (CloneSet +
 * pod readiness) on a RecordingClient that can be killed and started again.
 */
import { pino } from 'pino';
import { CloneSets } from '../../../api/kruise/resource-types.js';
import type { CloneSet } from '../../../api/kruise/workloads/cloneset.js';
import { Pods } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { startCluster } from '../../../cluster/cluster.js';
import { createSimulatedNodes, type SimulatedNodes } from '../../../cluster/kubelet/index.js';
import { setupCloneSetController } from '../../../controllers/cloneset/index.js';
import { setupPodReadinessController } from '../../../controllers/podreadiness/index.js';
import { setRootLogger } from '../../../machinery/log.js';
import { Informer } from '../../../runtime/informer.js';
import { Manager } from '../../../runtime/manager.js';
import { startKruiseTestEnv, type KruiseTestEnv } from '../../../testing/kruise-env.js';
import { ns, type Pod } from './model.js';
import { RecordingClient } from '../../../testing/recording-client.js';
import { Observer, recordDecisions } from './recorder.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface PropertyEnvOptions {
  nodes?: number;
  /** Container start delay of the simulated nodes. */
  startDelayMs?: number;
  /** Least time between the end of one restart and the start of the next (default 1 s). */
  restartGapMs?: number;
  /** Time the manager stays down (default 100 ms). */
  restartDownMs?: number;
}

export interface PropertyEnv {
  env: KruiseTestEnv;
  /** The user's client (not recorded, never killed). */
  client: Client;
  nodes: SimulatedNodes;
  observer: Observer;
  /** Kills the manager and starts a fresh one; concurrent calls share one restart. */
  restart(): Promise<void>;
  kill(): Promise<void>;
  start(): Promise<void>;
  restarts(): number;
  stop(): Promise<void>;
}

export async function startPropertyEnv(o: PropertyEnvOptions = {}): Promise<PropertyEnv> {
  if (!process.env.TEST_LOG) setRootLogger(pino({ level: 'silent' }));
  const env = await startKruiseTestEnv();
  const stops: (() => Promise<void> | void)[] = [() => env.stop()];
  const stopAll = async () => {
    for (const s of stops.reverse()) await s();
  };
  try {
    const cluster = await startCluster({ client: env.client, nodes: 0, controllers: false });
    stops.push(() => cluster.stop());
    const nodes = createSimulatedNodes({ client: env.client, count: o.nodes ?? 3, startDelayMs: o.startDelayMs });
    await nodes.start();
    stops.push(() => nodes.stop());
    const observer = new Observer();
    await startInformers(env.client, observer, stops);
    const manager = managerSwitch(env.client, observer, o);
    await manager.start();
    stops.push(manager.kill);
    return { env, client: env.client, nodes, observer, ...manager, stop: stopAll };
  } catch (e) {
    await stopAll();
    throw e;
  }
}

/** The observer's own view of pods and CloneSets, independent of the manager's cache. */
async function startInformers(client: Client, observer: Observer, stops: (() => void)[]): Promise<void> {
  const pods = new Informer<Pod>({ client, type: Pods, namespace: ns });
  pods.addEventHandler({ onAdd: (p) => observer.onPod(p, false), onUpdate: (_, p) => observer.onPod(p, false), onDelete: (p) => observer.onPod(p, true) });
  const sets = new Informer<CloneSet>({ client, type: CloneSets, namespace: ns });
  sets.addEventHandler({ onAdd: (cs) => observer.onCloneSet(cs), onUpdate: (_, cs) => observer.onCloneSet(cs) });
  for (const inf of [pods, sets] as { start(): void; stop(): void; waitForSync(): Promise<boolean> }[]) {
    inf.start();
    stops.push(() => inf.stop());
    await inf.waitForSync();
  }
}

/** start/kill/restart of the manager process stand-in; each start gets a fresh client and cache. */
function managerSwitch(inner: Client, observer: Observer, o: PropertyEnvOptions): Pick<PropertyEnv, 'start' | 'kill' | 'restart' | 'restarts'> {
  let current: { manager: Manager; client: RecordingClient } | undefined;
  const start = async () => {
    if (current) return;
    const client = new RecordingClient(inner, recordDecisions(observer));
    const manager = new Manager({ client, health: false, leaderElection: false, gracefulShutdownMs: 5_000 });
    setupCloneSetController(manager);
    setupPodReadinessController(manager);
    await manager.start();
    current = { manager, client };
  };
  const kill = async () => {
    const c = current;
    current = undefined;
    c?.client.kill();
    await c?.manager.stop();
  };
  let pending: Promise<void> | undefined;
  let lastDone = 0;
  let restarts = 0;
  const restart = () => {
    pending ??= (async () => {
      const gap = lastDone + (o.restartGapMs ?? 1_000) - Date.now();
      if (gap > 0) await sleep(gap);
      await kill();
      await sleep(o.restartDownMs ?? 100);
      await start();
      restarts++;
      lastDone = Date.now();
    })().finally(() => { pending = undefined; });
    return pending;
  };
  return { start, kill, restart, restarts: () => restarts };
}
