/**
 * Test kit for the scheduler's integration tests: an embedded control plane, an in-process client,
 * a scheduler on a fake clock, and helpers to create nodes (status written through the status
 * subresource) and pods and to wait for their placement.
 */
import { pino } from 'pino';
import { Events, Nodes, Pods } from '../../api/resource-type.js';
import type { KObject } from '../../api/meta.js';
import type { Client } from '../../client/client.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import { setRootLogger } from '../../machinery/log.js';
import { FakeClock } from '../../machinery/clock.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { createScheduler, type EmbeddedScheduler, type SchedulerOptions } from './index.js';
import type { Node, Pod } from '../../api/core/index.js';

setRootLogger(pino({ level: 'silent' }));

export interface Env {
  env: TestControlPlane;
  client: Client;
  clock: FakeClock;
  scheduler: EmbeddedScheduler;
  stop(): Promise<void>;
}

export async function startEnv(options: Partial<SchedulerOptions> = {}): Promise<Env> {
  const env = await startTestControlPlane();
  const client = createInProcessClient(env.plane.handler);
  const clock = new FakeClock(Date.now());
  const scheduler = createScheduler({ client, clock, seed: 1, ...options });
  return {
    env, client, clock, scheduler,
    async stop() {
      await scheduler.stop();
      await env.stop();
    },
  };
}

/** Creates the node, then writes its status (allocatable, conditions) through `nodes/status`. */
export async function addNode(client: Client, node: Node): Promise<void> {
  const { status, ...rest } = node;
  await client.create(Nodes, rest as Node);
  await client.patch(Nodes, undefined, node.metadata.name!, 'merge', { status }, { subresource: 'status' });
}

export async function addPods(client: Client, ...pods: Pod[]): Promise<void> {
  for (const p of pods) await client.create(Pods, p);
}

/** Polls `check` (on real time, in short steps) until it returns a value other than undefined. */
export async function waitFor<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function nodeOf(client: Client, name: string, namespace = 'default'): Promise<string | undefined> {
  const pod = await client.get<Pod>(Pods, namespace, name);
  return pod.spec?.nodeName || undefined;
}

/** Waits until every named pod is bound; returns pod name -> node. */
export async function placements(client: Client, names: string[], namespace = 'default'): Promise<Record<string, string>> {
  return waitFor(async () => {
    const list = await client.list<Pod>(Pods, { namespace });
    const out: Record<string, string> = {};
    for (const p of list.items) if (names.includes(p.metadata.name!) && p.spec?.nodeName) out[p.metadata.name!] = p.spec.nodeName;
    return Object.keys(out).length === names.length ? out : undefined;
  }, `pods ${names.join(', ')} to be bound`);
}

export async function podCondition(client: Client, name: string, namespace = 'default') {
  const pod = await client.get<Pod>(Pods, namespace, name);
  return pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
}

export async function eventsFor(client: Client, name: string, namespace = 'default'): Promise<KObject[]> {
  const list = await client.list(Events, { namespace, fieldSelector: `involvedObject.name=${name}` });
  return list.items;
}

/** Waits for the pod's Unschedulable condition and returns its message. */
export async function unschedulableMessage(client: Client, name: string): Promise<string> {
  const c = await waitFor(async () => {
    const cond = await podCondition(client, name);
    return cond?.reason === 'Unschedulable' ? cond : undefined;
  }, `${name} to be marked Unschedulable`);
  return c.message!;
}
