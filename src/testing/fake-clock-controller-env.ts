/**
 * Test kit for the workload controllers' integration tests (StatefulSet, DaemonSet, Job, CronJob):
 * a Manager on a fake clock over an in-process client, `eventually` that nudges the fake clock so
 * rate-limited retries still happen, and pod/node drivers standing in for the scheduler and kubelets
 * by writing pod status through the status subresource. Imported only by *.test.ts files.
 */
import { after, before } from 'node:test';
import type { KObject } from '../api/meta.js';
import { Nodes, Pods } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { createInProcessClient } from '../client/in-process-client.js';
import type { RequestHandler } from '../api/request.js';
import { FakeClock, flush } from '../machinery/clock.js';
import { Manager } from '../runtime/manager.js';
import type { Pod } from '../api/core/index.js';
import { startTestControlPlane, type TestControlPlane } from './control-plane.js';

export interface ControllerTestEnv {
  client: Client;
  clock: FakeClock;
  mgr: Manager;
  stop(): Promise<void>;
}

/** A started Manager whose controllers `setup` registers; the clock starts at the current second. */
export async function startControllerEnv(handler: RequestHandler, setup: (mgr: Manager) => void): Promise<ControllerTestEnv> {
  const clock = new FakeClock(Math.floor(Date.now() / 1000) * 1000);
  const mgr = new Manager({ client: createInProcessClient(handler), clock, health: false, leaderElection: false, freezeCache: true });
  setup(mgr);
  await mgr.start();
  return { client: createInProcessClient(handler), clock, mgr, stop: () => mgr.stop() };
}

/**
 * For a `describe` block: an embedded control plane and a controller env over it, started in `before`
 * and stopped in `after`. The handle reads the running env, so tests write `env.client` as before.
 */
export function controllerEnvForSuite(setup: (mgr: Manager) => void): ControllerTestEnv {
  let plane: TestControlPlane | undefined;
  let started: ControllerTestEnv | undefined;
  before(async () => {
    plane = await startTestControlPlane();
    started = await startControllerEnv(plane.plane.handler, setup);
  });
  after(async () => {
    await started?.stop();
    await plane?.stop();
  });
  const running = (): ControllerTestEnv => {
    if (!started) throw new Error('controller env used before the suite\'s before() started it');
    return started;
  };
  return {
    get client() { return running().client; },
    get clock() { return running().clock; },
    get mgr() { return running().mgr; },
    stop: () => running().stop(),
  };
}

/**
 * Polls `check` until it returns a value other than undefined/false, advancing the fake clock by
 * `stepMs` per poll (retries back off on the fake clock). Fails with the last value after `timeoutMs`.
 */
export async function eventually<T>(clock: FakeClock, check: () => Promise<T | undefined | false> | T | undefined | false, what = 'condition', stepMs = 20, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    clock.advance(stepMs);
    await flush();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Lets the controllers run for a while of real time without moving the fake clock (for "nothing happens" checks). */
export async function settle(ms = 200): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

const at = (clock: FakeClock) => new Date(clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');

export type PodState = 'Pending' | 'Running' | 'Ready' | 'Succeeded' | 'Failed';

/** Writes the pod's status as a kubelet would report `state` (Ready means Running and Ready). */
export async function setPodState(client: Client, clock: FakeClock, namespace: string, name: string, state: PodState): Promise<Pod> {
  const now = at(clock);
  const ready = state === 'Ready' ? 'True' : 'False';
  const phase = state === 'Ready' ? 'Running' : state;
  const terminated = state === 'Succeeded' || state === 'Failed'
    ? { terminated: { exitCode: state === 'Succeeded' ? 0 : 1, reason: state === 'Succeeded' ? 'Completed' : 'Error', startedAt: now, finishedAt: now } }
    : undefined;
  const pod = await client.get<Pod>(Pods, namespace, name);
  const containers = ((pod.spec?.containers as { name: string; image?: string }[] | undefined) ?? []).map((c) => ({
    name: c.name, image: c.image ?? '', imageID: '', ready: ready === 'True', restartCount: 0, started: phase === 'Running',
    state: terminated ?? (phase === 'Running' ? { running: { startedAt: now } } : { waiting: { reason: 'ContainerCreating' } }),
  }));
  const status = {
    phase,
    conditions: [
      { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: now },
      { type: 'Ready', status: ready, lastProbeTime: null, lastTransitionTime: now },
      { type: 'ContainersReady', status: ready, lastProbeTime: null, lastTransitionTime: now },
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now },
    ],
    containerStatuses: containers,
    startTime: now,
  };
  return client.patch<Pod>(Pods, namespace, name, 'merge', { status }, { subresource: 'status' });
}

/** A Ready node named `name`, with optional labels and taints. */
export async function createNode(client: Client, name: string, options: { labels?: Record<string, string>; taints?: unknown[] } = {}): Promise<KObject> {
  return client.create(Nodes, {
    apiVersion: 'v1', kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', ...options.labels } },
    spec: options.taints ? { taints: options.taints } : {},
    status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }], allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
  });
}

/** The pods of `namespace` matching `labelSelector`, sorted by name. */
export async function listPods(client: Client, namespace: string, labelSelector?: string): Promise<Pod[]> {
  const list = await client.list<Pod>(Pods, { namespace, labelSelector });
  return list.items.sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
}

/** A minimal container list for templates. */
export const sleeper = [{ name: 'main', image: 'busybox:1.36', command: ['sleep', '3600'] }];
