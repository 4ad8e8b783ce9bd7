/**
 * The cluster of `bench:workloads`, in the benchmark process: what `kruise up --nodes N` runs (API
 * server with the Kruise CRDs, scheduler, simulated nodes, core controllers) minus the Kruise
 * manager and its webhooks, which run as a separate `kruise manager` process so that its RSS and CPU
 * can be read: `kruise up --no-kruise-manager` in this process, with one in-process client per
 * agent (scheduler, kubelets, controllers) so that every request the API server handles is counted
 * by User-Agent (see workloads-requests.ts), and the store at hand for the milestones.
 */
import type { Client } from '../client/client.js';
import { createInProcessClient } from '../client/index.js';
import { setupCoreControllers } from '../cluster/controllers/index.js';
import { createSimulatedNodes } from '../cluster/kubelet/index.js';
import { createScheduler } from '../cluster/scheduler/index.js';
import { promRegistry } from '../apiserver/http/metrics.js';
import type { Store } from '../apiserver/storage/store.js';
import { installKruise } from '../install/install.js';
import { Manager } from '../runtime/manager.js';
import { startTestControlPlane } from '../testing/control-plane.js';
import { parseCalls, type CallTable } from './admission-procs.js';
import { RequestCounter } from './workloads-requests.js';

export interface PlaneOptions {
  nodes: number;
  pullDelayMs: number;
  startDelayMs: number;
}

export interface BenchPlane {
  kubeconfig: string;
  /** In-process client of the benchmark itself (User-Agent kruise-bench). */
  client: Client;
  store: Store;
  requests: RequestCounter;
  /** Admission webhook calls the API server made, by webhook name. */
  webhookCalls(): Promise<CallTable>;
  stop(): Promise<void>;
}

export const agents = { bench: 'kruise-bench', controllers: 'kube-controller-manager', scheduler: 'kube-scheduler', kubelet: 'kubelet', manager: 'kruise-manager' };

export async function startBenchPlane(o: PlaneOptions): Promise<BenchPlane> {
  const env = await startTestControlPlane({ inMemory: true });
  const requests = new RequestCounter();
  requests.wrap(env.plane.handler);
  const clientAs = (agent: string) => createInProcessClient(env.plane.handler, undefined, agent);
  const client = clientAs(agents.bench);
  await installKruise(client);
  const stops: (() => Promise<void>)[] = [() => env.stop()];
  const stop = async () => {
    for (const s of stops.splice(0).reverse()) await s();
  };
  try {
    const controllers = new Manager({ client: clientAs(agents.controllers), health: false, leaderElection: false });
    setupCoreControllers(controllers);
    await controllers.start();
    stops.push(() => controllers.stop());
    const scheduler = createScheduler({ client: clientAs(agents.scheduler) });
    await scheduler.start();
    stops.push(() => scheduler.stop());
    const nodes = createSimulatedNodes({ client: clientAs(agents.kubelet), count: o.nodes, pullDelayMs: o.pullDelayMs, startDelayMs: o.startDelayMs });
    await nodes.start();
    stops.push(() => nodes.stop());
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    kubeconfig: env.kubeconfig, client, store: env.plane.store, requests,
    webhookCalls: async () => parseCalls(await promRegistry.metrics()),
    stop,
  };
}
