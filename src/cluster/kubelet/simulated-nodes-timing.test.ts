import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Leases, Nodes, Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import { isNotFound } from '../../machinery/errors.js';
import { FakeClock, flush } from '../../machinery/clock.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { waitFor } from '../../testing/wait-for.js';
import { createSimulatedNodes, type SimulatedNodes } from './index.js';
import type { Pod } from '../../api/core/index.js';

let env: TestControlPlane;
let client: Client;
let nodes: SimulatedNodes;
const clock = new FakeClock(Date.now());

/**
 * Advances fake time in steps until `check` holds; returns how much fake time that took. Stepping
 * (rather than one jump) lets timers the kubelet sets while reacting still fire in order.
 */
async function advanceUntil(what: string, check: () => Promise<boolean>, maxMs: number, stepMs = 100): Promise<number> {
  let elapsed = 0;
  for (;;) {
    if (await check()) return elapsed;
    if (elapsed >= maxMs) throw new Error(`${what}: not reached within ${maxMs} ms of fake time`);
    clock.advance(stepMs);
    elapsed += stepMs;
    await flush();
    await new Promise((r) => setTimeout(r, 2));
  }
}

const podIs = (name: string, ok: (p: Pod) => boolean) => async () => ok(await client.get<Pod>(Pods, 'default', name));
const podWhere = (name: string, ok: (p: Pod) => boolean, what: string) =>
  waitFor(`${name}: ${what}`, async () => { const p = await client.get<Pod>(Pods, 'default', name); return ok(p) && p; }, 5000);
const isReady = (p: Pod) => !!p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
const podObject = (name: string, annotations?: Record<string, string>, extra: Partial<Pod['spec']> = {}): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', annotations },
  spec: { nodeName: 'slow-0', containers: [{ name: 'app', image: 'redis:7' }], ...extra },
});

before(async () => {
  env = await startTestControlPlane();
  client = createInProcessClient(env.plane.handler);
  nodes = createSimulatedNodes({ client, count: 1, namePrefix: 'slow-', clock, pullDelayMs: 3000, startDelayMs: 1000, readiness: { delayMs: 2000 } });
  await nodes.start();
});

after(async () => {
  await nodes.stop();
  await env.stop();
});

test('pulls, starts and readiness take their configured time; a second pod reuses the image', async () => {
  await client.create(Pods, podObject('a'));
  const pod = await podWhere('a', (p) => !!p.status?.podIP, 'sandbox');
  assert.equal(pod.status!.containerStatuses![0].state?.waiting?.reason, 'ContainerCreating');
  const toRunning = await advanceUntil('a Running', podIs('a', (p) => p.status?.phase === 'Running'), 10_000);
  assert.ok(toRunning >= 4000, `pull (3 s) and start (1 s) took ${toRunning} ms`);
  assert.equal(isReady(await client.get<Pod>(Pods, 'default', 'a')), false);
  const toReady = await advanceUntil('a Ready', podIs('a', isReady), 10_000);
  assert.ok(toReady >= 2000, `readiness delay (2 s) took ${toReady} ms`);
  assert.equal(nodes.runtime('slow-0')!.pullCount(), 1);
  await client.create(Pods, podObject('b'));
  await podWhere('b', (p) => !!p.status?.podIP, 'sandbox');
  const second = await advanceUntil('b Running', podIs('b', (p) => p.status?.phase === 'Running'), 10_000);
  assert.ok(second >= 1000 && second < 3000, `no second pull: only the start delay, took ${second} ms`);
  assert.equal(nodes.runtime('slow-0')!.pullCount(), 1);
});

test('a crashing container is restarted at once, then after the back-off; a killed one too', async () => {
  const spec = { containers: [{ name: 'app', image: 'busybox:crash', command: ['sleep', 'infinity'] }] };
  await client.create(Pods, podObject('crash', { 'kruise-ts.io/simulate-exit-code': '1', 'kruise-ts.io/simulate-run-seconds': '1' }, spec));
  const restartCount = (p: Pod) => p.status?.containerStatuses?.[0].restartCount ?? 0;
  await advanceUntil('first restart', podIs('crash', (p) => restartCount(p) === 1), 10_000);
  const pod = await client.get<Pod>(Pods, 'default', 'crash');
  assert.equal(pod.status!.containerStatuses![0].lastState?.terminated?.exitCode, 1);
  await advanceUntil('back-off', podIs('crash', (p) => p.status?.containerStatuses?.[0].state?.waiting?.reason === 'CrashLoopBackOff'), 5000);
  assert.equal((await client.get<Pod>(Pods, 'default', 'crash')).status!.phase, 'Running');
  const backoff = await advanceUntil('second restart', podIs('crash', (p) => restartCount(p) === 2), 20_000);
  assert.ok(backoff >= 9000, `the 10 s back-off took ${backoff} ms`);

  await client.create(Pods, podObject('killed', undefined, spec));
  const running = (p: Pod) => !!p.status?.containerStatuses?.[0].state?.running;
  await advanceUntil('killed running', podIs('killed', running), 5000);
  const before = await client.get<Pod>(Pods, 'default', 'killed');
  const id = before.status!.containerStatuses![0].containerID!.replace('containerd://', '');
  nodes.runtime('slow-0')!.killContainer(id, 137, 'OOMKilled');
  await advanceUntil('killed restarted', podIs('killed', (p) => restartCount(p) === 1 && running(p)), 5000);
  const after = await client.get<Pod>(Pods, 'default', 'killed');
  assert.equal(after.status!.containerStatuses![0].lastState?.terminated?.reason, 'OOMKilled');
  assert.equal(after.status!.containerStatuses![0].lastState?.terminated?.exitCode, 137);
});

test('addNode registers a node; removeNode deletes the Node and its Lease', async () => {
  await nodes.addNode('extra');
  const node = await client.get(Nodes, undefined, 'extra');
  assert.equal(node.metadata.labels?.['topology.kubernetes.io/zone'], 'zone-b');
  assert.deepEqual(nodes.nodeNames().sort(), ['extra', 'slow-0']);
  await assert.rejects(nodes.addNode('extra'), /already simulated/);
  await nodes.removeNode('extra');
  await assert.rejects(client.get(Nodes, undefined, 'extra'), (e) => isNotFound(e));
  await assert.rejects(client.get(Leases, 'kube-node-lease', 'extra'), (e) => isNotFound(e));
  assert.equal(nodes.runtime('extra'), undefined);
});

test('options are validated', () => {
  assert.throws(() => createSimulatedNodes({ client, count: -1 }), /count/);
  assert.throws(() => createSimulatedNodes({ client, count: 1, leaseRenewIntervalMs: 50_000 }), /shorter than the lease duration/);
  assert.throws(() => createSimulatedNodes({ client, count: 1, zones: [] }), /zones/);
});
