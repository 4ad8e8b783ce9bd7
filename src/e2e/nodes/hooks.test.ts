/**
 * Node obligation K12 (docs/design/simulated-nodes.md §19): exec lifecycle hooks, simulated (the
 * kubelet does not route them through CRI ExecSync), hold a container's start (postStart) and its
 * stop (preStop) for as long as the hook-duration annotations say, within the grace period.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Pods } from '../../api/resource-type.js';
import { isNotFound } from '../../machinery/errors.js';
import { containerNamed } from '../../testing/kubelet-env.js';
import { busybox, server, startNodesEnv, type NodesEnv } from './nodes-kit.js';
import type { Pod } from '../../api/core/index.js';

let k: NodesEnv;
const node = 'kruise-node-0';

before(async () => {
  k = await startNodesEnv({ count: 1 });
});

after(() => k.stop());

const running = (p: Pod, name = 'app') => !!containerNamed(p, name)?.state?.running;

/** Deletes the pod and steps fake time until it is gone; checks `meanwhile` at `atMs`. Returns the time it took. */
async function deleteAndTime(name: string, atMs: number, meanwhile: (pod: Pod) => Promise<void>): Promise<number> {
  const pod = await k.getPod(name);
  await k.client.delete(Pods, 'default', name);
  for (let took = 0; took <= 20_000; took += 250) {
    if (took === atMs) await meanwhile(pod);
    const gone = await k.getPod(name).then(() => false, (e: unknown) => isNotFound(e));
    if (gone) return took;
    await k.advance(250);
  }
  throw new Error(`${name} not gone after 20 s`);
}

test('K12: exec postStart and preStop hooks hold the container\'s start and stop as the annotations say, within the grace period', async (t) => {
  await t.test('postStart holds the start (and the next container) for 3 s', async () => {
    const lifecycle = { postStart: { exec: { command: ['sh', '-c', 'warm-cache'] } }, preStop: { exec: { command: ['/bin/drain'] } } };
    const containers = [server('app', 'nginx:1.25', { lifecycle }), busybox('next', ['sleep', 'infinity'])];
    await k.createPod('k12', { nodeName: node, terminationGracePeriodSeconds: 30, containers },
      { annotations: { 'kruise-ts.io/simulate-poststart-seconds.app': '3', 'kruise-ts.io/simulate-prestop-seconds.app': '4' } });
    const pod = await k.podWhere('k12', (p) => !!p.status?.podIP, 'sandbox');
    assert.deepEqual([containerNamed(pod, 'app')!.state!.waiting?.reason, containerNamed(pod, 'app')!.started, pod.status!.phase], ['ContainerCreating', false, 'Pending']);
    assert.deepEqual((await k.criContainers(pod)).map((c) => [c.metadata.name, c.state]), [['app', 'CONTAINER_RUNNING']], 'the process runs; its hook holds the rest');
    const took = await k.advanceUntil('k12', (p) => running(p) && running(p, 'next'), 'both running', 10_000);
    assert.ok(took >= 3000 && took < 3500, `running after ${took} ms`);
  });

  await t.test('preStop holds the stop for 4 s of the 30 s grace period', async () => {
    const took = await deleteAndTime('k12', 3000, async (pod) => {
      const states = Object.fromEntries((await k.criContainers(pod)).map((c) => [c.metadata.name, c.state]));
      assert.deepEqual(states, { app: 'CONTAINER_RUNNING', next: 'CONTAINER_EXITED' }, 'only the container with the hook is still up');
    });
    assert.ok(took >= 4000 && took < 4500, `gone after ${took} ms`);
    assert.ok((await k.events('k12')).includes('Normal Killing: Stopping container app'));
  });

  await t.test('a preStop hook longer than the grace period is cut off at its end', async () => {
    const lifecycle = { preStop: { exec: { command: ['/bin/drain'] } } };
    await k.createPod('k12-cut', { nodeName: node, terminationGracePeriodSeconds: 5, containers: [server('app', 'nginx:1.25', { lifecycle })] },
      { annotations: { 'kruise-ts.io/simulate-prestop-seconds': '600' } });
    await k.podWhere('k12-cut', (p) => running(p), 'running');
    const took = await deleteAndTime('k12-cut', 4000, async (pod) => {
      assert.deepEqual((await k.criContainers(pod)).map((c) => c.state), ['CONTAINER_RUNNING']);
    });
    assert.ok(took >= 5000 && took < 5500, `gone after ${took} ms, at the end of the grace period`);
  });
});
