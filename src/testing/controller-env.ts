/**
 * Test kit for the kube-controller-manager controllers (imported only by tests): a Manager on the
 * in-process client of an embedded control plane, and stand-ins for scheduler and kubelet that the
 * test drives by hand: `markPodReady` binds a pod and writes Running/Ready through the status
 * subresource; `podFinalizer` removes pods once they are marked for deletion, as a kubelet would.
 */
import { pino } from 'pino';
import { Pods } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { createInProcessClient } from '../client/in-process-client.js';
import { isNotFound } from '../machinery/errors.js';
import { setRootLogger } from '../machinery/log.js';
import type { RequestHandler } from '../api/request.js';
import type { Clock } from '../machinery/clock.js';
import { Manager } from '../runtime/manager.js';
import { isPodReady, isPodTerminating } from '../control/podutil/index.js';
import { rfc3339 } from '../machinery/time.js';
import type { Pod, PodCondition } from '../api/core/index.js';

/**
 * The part of testing/control-plane's TestControlPlane these tests use. Test files start it
 * (`startTestControlPlane()`) and hand it in: code outside tests may not import testing/.
 */
export interface TestPlane {
  plane: { handler: RequestHandler };
  dir: string;
  kubeconfig: string;
  kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  stop(): Promise<void>;
}

export interface ControllerTestEnv {
  cp: TestPlane;
  client: Client;
  mgr: Manager;
  stop(): Promise<void>;
}

/** A Manager on `cp` (stopped with it), its controllers registered by `setup`, started. */
export async function startControllerTestEnv(cp: TestPlane, setup: (mgr: Manager) => void, options: { clock?: Clock } = {}): Promise<ControllerTestEnv> {
  if (!process.env.TEST_LOG) setRootLogger(pino({ level: 'silent' }));
  const client = createInProcessClient(cp.plane.handler);
  const mgr = new Manager({ client: createInProcessClient(cp.plane.handler), clock: options.clock, health: false, freezeCache: true });
  setup(mgr);
  await mgr.start();
  return {
    cp, client, mgr,
    async stop() {
      await mgr.stop();
      await cp.stop();
    },
  };
}

/** Polls `check` until it returns something truthy; fails with `what` and the last value after `timeoutMs`. */
export async function eventually<T>(what: string, check: () => Promise<T> | T, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await check();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function listPods(client: Client, namespace: string, labelSelector?: string): Promise<Pod[]> {
  return (await client.list<Pod>(Pods, { namespace, labelSelector })).items;
}

export const activePods = (pods: Pod[]): Pod[] => pods.filter((p) => !isPodTerminating(p));

/** Binds `pod` to `node` (if unbound) and reports it Running with Ready=`ready` as of `at`. */
export async function markPodReady(client: Client, pod: Pod, options: { node?: string; ready?: boolean; at?: number } = {}): Promise<Pod> {
  const { namespace, name } = pod.metadata;
  let current = await client.get<Pod>(Pods, namespace, name!);
  if (!current.spec?.nodeName) {
    await client.createSubresource(Pods, namespace, name!, 'binding', {
      apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace }, target: { apiVersion: 'v1', kind: 'Node', name: options.node ?? 'node-1' },
    });
    current = await client.get<Pod>(Pods, namespace, name!);
  }
  const status = options.ready === false ? 'False' : 'True';
  const at = rfc3339(options.at ?? Date.now());
  const set = (c: PodCondition[], type: string, s: 'True' | 'False') =>
    [...c.filter((x) => x.type !== type), { type, status: s, lastProbeTime: null, lastTransitionTime: at }];
  let conditions = current.status?.conditions ?? [];
  for (const type of ['Initialized', 'PodScheduled']) conditions = set(conditions, type, 'True');
  for (const type of ['ContainersReady', 'Ready']) conditions = set(conditions, type, status);
  return client.updateStatus(Pods, { ...current, status: { ...current.status, phase: 'Running', conditions } });
}

/** Marks every active, not yet ready pod matching `labelSelector` ready; returns how many it touched. */
export async function readyAllPods(client: Client, namespace: string, labelSelector?: string): Promise<number> {
  const pending = activePods(await listPods(client, namespace, labelSelector)).filter((p) => !isPodReady(p));
  for (const pod of pending) await markPodReady(client, pod);
  return pending.length;
}

/** Deletes pods for good once they carry a deletionTimestamp (the kubelet's final delete). */
export function podFinalizer(client: Client, namespace: string): { stop(): void } {
  const finish = (pod: Pod) => {
    if (!isPodTerminating(pod)) return;
    // Best effort, like a kubelet: a failure leaves the pod terminating, which the test then sees.
    client.delete(Pods, namespace, pod.metadata.name!, { gracePeriodSeconds: 0 }).catch((e: unknown) => {
      if (!isNotFound(e)) console.error('podFinalizer: delete failed', e);
    });
  };
  const handle = client.watch<Pod>(Pods, { namespace }, {
    onEvent: (ev) => { if (ev.type === 'ADDED' || ev.type === 'MODIFIED') finish(ev.object); },
    onClose: () => undefined,
  });
  return { stop: () => handle.stop() };
}
