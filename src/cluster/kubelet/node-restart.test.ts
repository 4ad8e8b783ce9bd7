/**
 * Simulated nodes over a state dir survive a restart as a real node survives a kubelet restart:
 * running containers keep running (same container ids, restart counts, start times, pod IPs and
 * Ready), a scripted exit still happens at its time, sandboxes of pods deleted meanwhile go, and
 * nodes beyond the new count leave the cluster.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { KObject } from '../../api/meta.js';
import { Namespaces, Nodes, Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import { isNotFound } from '../../machinery/errors.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { waitFor } from '../../testing/wait-for.js';
import { createSimulatedNodes, type SimulatedNodes } from './index.js';
import type { Pod } from '../../api/core/index.js';

let env: TestControlPlane;
let client: Client;
let stateDir: string;

const getPod = (name: string) => client.get<Pod>(Pods, 'restart', name);
const ready = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const runningReady = (name: string) => waitFor(`${name} ready`, async () => { const p = await getPod(name); return ready(p) && p; });
const pod = (name: string, node: string, annotations?: Record<string, string>): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'restart', annotations },
  spec: { nodeName: node, restartPolicy: 'Never', containers: [{ name: 'app', image: 'nginx:1.25' }] },
});
const nodesOver = (count: number): SimulatedNodes => createSimulatedNodes({ client, count, stateDir });

before(async () => {
  env = await startTestControlPlane();
  client = createInProcessClient(env.plane.handler);
  await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'restart' } } as KObject);
  stateDir = await mkdtemp(path.join(tmpdir(), 'kruise-nodes-'));
});

after(async () => {
  await env.stop();
  await rm(stateDir, { recursive: true, force: true });
});

describe('simulated nodes over a state dir', () => {
  test('a restart leaves running containers running and cleans up what changed meanwhile', async () => {
    let nodes = nodesOver(3);
    await nodes.start();
    await client.create(Pods, pod('web', 'kruise-node-0'));
    await client.create(Pods, pod('gone', 'kruise-node-1'));
    await client.create(Pods, pod('later', 'kruise-node-2', { 'kruise-ts.io/simulate-run-seconds': '3', 'kruise-ts.io/simulate-exit-code': '0' }));
    const before = await runningReady('web');
    await runningReady('gone');
    await runningReady('later');
    await nodes.stop();

    // meanwhile: a pod goes away while no kubelet runs
    await client.delete(Pods, 'restart', 'gone', { gracePeriodSeconds: 0 });
    nodes = nodesOver(2);
    await nodes.start();
    const after = await getPod('web');
    const c0 = before.status!.containerStatuses![0]!;
    const c1 = after.status!.containerStatuses![0]!;
    assert.equal(c1.containerID, c0.containerID, 'same container');
    assert.equal(c1.restartCount, 0);
    assert.equal(c1.state?.running?.startedAt, c0.state?.running?.startedAt);
    assert.equal(after.status!.podIP, before.status!.podIP);
    assert.ok(ready(after), 'still Ready');
    assert.equal((await nodes.runtime('kruise-node-1')!.listPodSandbox()).length, 0, 'the deleted pod\'s sandbox was removed');

    // node 2 is no longer simulated: it left the cluster with its state file
    await waitFor('kruise-node-2 deleted', () => client.get(Nodes, undefined, 'kruise-node-2').then(() => false, (e: unknown) => isNotFound(e)));
    assert.deepEqual((await readdir(stateDir)).sort(), ['kruise-node-0.json', 'kruise-node-1.json']);
    await nodes.stop();
  });

  test('a scripted exit happens at its time, counted from the first start, across a restart', async () => {
    let nodes = nodesOver(1);
    await nodes.start();
    await client.create(Pods, pod('job', 'kruise-node-0', { 'kruise-ts.io/simulate-run-seconds': '2', 'kruise-ts.io/simulate-exit-code': '3' }));
    const started = await runningReady('job');
    await nodes.stop();
    nodes = nodesOver(1);
    await nodes.start();
    const failed = await waitFor('job failed', async () => { const p = await getPod('job'); return p.status?.phase === 'Failed' && p; });
    const t = failed.status!.containerStatuses![0]!.state!.terminated!;
    assert.equal(t.exitCode, 3);
    assert.equal(t.containerID, started.status!.containerStatuses![0]!.containerID);
    assert.equal(Date.parse(t.finishedAt!) - Date.parse(t.startedAt!), 2000);
    await nodes.stop();
  });
});
