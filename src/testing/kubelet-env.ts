/**
 * Test kit: an embedded control plane with simulated nodes on a fake clock, and the waits the
 * kubelet tests share: poll the API without moving time (`podWhere`), or step fake time until a pod
 * looks a certain way (`advanceUntil`, which returns how much fake time that took), plus the pod's
 * Events as `Type Reason: message` lines.
 */
import { Events, Pods } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { createInProcessClient } from '../client/in-process-client.js';
import { FakeClock, flush } from '../machinery/clock.js';
import { createSimulatedNodes, type SimulatedNodes, type SimulatedNodesOptions } from '../cluster/kubelet/index.js';
import { startTestControlPlane, type TestControlPlane } from './control-plane.js';
import type { Pod } from '../api/core/index.js';

export interface KubeletEnv {
  env: TestControlPlane;
  client: Client;
  nodes: SimulatedNodes;
  clock: FakeClock;
  /** The first node's name (pods built with `podObject` run there). */
  node: string;
  getPod(name: string, namespace?: string): Promise<Pod>;
  /** Polls (10 ms, real time) until `ok` holds; no fake time passes. */
  podWhere(name: string, ok: (p: Pod) => boolean, what: string, timeoutMs?: number): Promise<Pod>;
  /** Steps fake time until `ok` holds for the pod; returns the fake time that took. */
  advanceUntil(name: string, ok: (p: Pod) => boolean, what: string, maxMs: number, stepMs?: number): Promise<number>;
  /** Steps fake time by `ms`. */
  advance(ms: number, stepMs?: number): Promise<void>;
  /** The pod's events, as `Type Reason: message`, oldest first. */
  events(name: string, namespace?: string): Promise<string[]>;
  /** How many times the pod's events of `reason` happened (their counts added up). */
  eventCount(name: string, reason: string): Promise<number>;
  stop(): Promise<void>;
}

export async function startKubeletEnv(options: Partial<SimulatedNodesOptions> = {}): Promise<KubeletEnv> {
  const env = await startTestControlPlane();
  const client = createInProcessClient(env.plane.handler);
  const clock = new FakeClock(Math.floor(Date.now() / 1000) * 1000);
  const nodes = createSimulatedNodes({ count: 1, namePrefix: 'probe-node-', clock, ...options, client });
  await nodes.start();
  const getPod = (name: string, namespace = 'default') => client.get<Pod>(Pods, namespace, name);
  const step = async (ms: number) => {
    clock.advance(ms);
    await flush();
    await new Promise((r) => setTimeout(r, 2));
  };
  const kit: KubeletEnv = {
    env, client, nodes, clock, node: nodes.nodeNames()[0], getPod,
    async podWhere(name, ok, what, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const pod = await getPod(name);
        if (ok(pod)) return pod;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${name}: ${what}\n${JSON.stringify(pod.status, null, 1)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async advanceUntil(name, ok, what, maxMs, stepMs = 250) {
      let elapsed = 0;
      for (;;) {
        const pod = await getPod(name).catch(() => undefined);
        if (pod && ok(pod)) return elapsed;
        if (elapsed >= maxMs) throw new Error(`${name}: ${what} not reached within ${maxMs} ms of fake time\n${JSON.stringify(pod?.status, null, 1)}`);
        await step(stepMs);
        elapsed += stepMs;
      }
    },
    async advance(ms, stepMs = 250) {
      for (let left = ms; left > 0; left -= stepMs) await step(Math.min(stepMs, left));
    },
    async events(name, namespace = 'default') {
      const items = await eventsOf(client, name, namespace);
      return items.sort((a, b) => (a.firstTimestamp ?? '').localeCompare(b.firstTimestamp ?? '')).map((e) => `${e.type} ${e.reason}: ${e.message}`);
    },
    async eventCount(name, reason) {
      return (await eventsOf(client, name, 'default')).filter((e) => e.reason === reason).reduce((n, e) => n + (e.count ?? 1), 0);
    },
    async stop() {
      await nodes.stop();
      await env.stop();
    },
  };
  return kit;
}

interface EventShape { type?: string; reason?: string; message?: string; firstTimestamp?: string; count?: number }

async function eventsOf(client: Client, name: string, namespace: string): Promise<EventShape[]> {
  return (await client.list<Pod & EventShape>(Events, { namespace, fieldSelector: `involvedObject.name=${name}` })).items;
}

/** A pod bound to `node` with one container `app` (nginx), its spec and annotations extended. */
export function podObject(node: string, name: string, spec: Partial<Pod['spec']> = {}, annotations?: Record<string, string>): Pod {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', annotations },
    spec: { nodeName: node, containers: [{ name: 'app', image: 'nginx:1.25' }], ...spec },
  };
}

export const podCondition = (pod: Pod, type: string): string | undefined => pod.status?.conditions?.find((c) => c.type === type)?.status;
export const containerNamed = (pod: Pod, name: string) =>
  [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? []), ...(pod.status?.ephemeralContainerStatuses ?? [])].find((c) => c.name === name);
