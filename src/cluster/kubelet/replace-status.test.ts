/**
 * What a watcher sees of a container replaced in place (image changed): the kubelet kills, pulls and
 * starts it as one step, so the status goes from the old attempt running straight to the new one
 * running, restartCount 1 and the old attempt as lastState; a readiness gate turned False before the
 * change still makes the pod unready first; a failed pull ends the step with ErrImagePull
 * (docs/design/simulated-nodes.md §23).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { waitFor } from '../../testing/wait-for.js';
import { createSimulatedNodes, type SimulatedNodes } from './index.js';
import type { Pod } from '../../api/core/index.js';

let env: TestControlPlane;
let client: Client;
let nodes: SimulatedNodes;

before(async () => {
  env = await startTestControlPlane({ inMemory: true });
  client = createInProcessClient(env.plane.handler);
  nodes = createSimulatedNodes({
    client, count: 1, pullDelayMs: 50, startDelayMs: 20,
    pullError: (image) => (image.endsWith(':absent') ? 'manifest unknown' : undefined),
  });
  await nodes.start();
});

after(async () => {
  await nodes.stop();
  await env.stop();
});

const gate = 'InPlaceUpdateReady';
const condition = (p: Pod, type: string) => p.status?.conditions?.find((c) => c.type === type)?.status;
const app = (p: Pod) => p.status?.containerStatuses?.find((c) => c.name === 'app');
const setGate = (name: string, status: 'True' | 'False') =>
  client.patch(Pods, 'default', name, 'strategic', { status: { conditions: [{ type: gate, status }] } }, { subresource: 'status' });

/** Creates a Ready pod with the gate True, then records every version of it the API server sends. */
async function readyPodWatched(name: string): Promise<{ pod: Pod; seen: Pod[]; stop: () => void }> {
  await client.create(Pods, {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
    spec: { nodeName: 'kruise-node-0', readinessGates: [{ conditionType: gate }], containers: [{ name: 'app', image: 'web.local/app:v1' }] },
  });
  await waitFor('container running', async () => app(await client.get<Pod>(Pods, 'default', name))?.state?.running);
  await setGate(name, 'True');
  const pod = await waitFor('Ready', async () => { const p = await client.get<Pod>(Pods, 'default', name); return condition(p, 'Ready') === 'True' && p; });
  const seen: Pod[] = [];
  const watch = client.watch<Pod>(Pods, { namespace: 'default', fieldSelector: `metadata.name=${name}`, resourceVersion: pod.metadata.resourceVersion }, { onEvent: (e) => { seen.push(e.object); }, onClose: () => undefined });
  return { pod, seen, stop: () => watch.stop() };
}

test('an image change shows the old attempt running until the new one runs; the gate makes the pod unready first', async () => {
  const { pod, seen, stop } = await readyPodWatched('swap');
  const old = app(pod)!;
  await setGate('swap', 'False');
  await client.patch(Pods, 'default', 'swap', 'strategic', { spec: { containers: [{ name: 'app', image: 'web.local/app:v2' }] } });
  await waitFor('new attempt running', async () => seen.some((p) => app(p)?.restartCount === 1 && app(p)?.state?.running));
  stop();
  for (const p of seen) {
    const c = app(p)!;
    const shown = c.restartCount === 0
      ? [c.containerID, c.image, !!c.state?.running, c.ready]
      : [c.lastState?.terminated?.containerID, c.image, !!c.state?.running, c.ready];
    assert.deepEqual(shown, [old.containerID, c.restartCount === 0 ? old.image : 'web.local/app:v2', true, true], `version ${p.metadata.resourceVersion}`);
  }
  const firstNew = seen.findIndex((p) => app(p)!.restartCount === 1);
  const firstUnready = seen.findIndex((p) => condition(p, 'Ready') === 'False');
  assert.ok(firstUnready >= 0 && firstUnready < firstNew, `Ready=False at ${firstUnready}, new attempt at ${firstNew}`);
  assert.notEqual(app(seen[firstNew]!)!.imageID, old.imageID);
  assert.equal(condition(seen[firstNew]!, 'ContainersReady'), 'True');
});

test('a replacement whose image cannot be pulled ends with ErrImagePull and the old attempt as lastState', async () => {
  const { pod, stop } = await readyPodWatched('nopull');
  stop();
  await client.patch(Pods, 'default', 'nopull', 'strategic', { spec: { containers: [{ name: 'app', image: 'web.local/app:absent' }] } });
  const failed = await waitFor('pull failure shown', async () => {
    const p = await client.get<Pod>(Pods, 'default', 'nopull');
    return app(p)?.state?.waiting?.reason === 'ErrImagePull' && p;
  });
  assert.equal(app(failed)!.lastState?.terminated?.containerID, app(pod)!.containerID);
  assert.deepEqual([app(failed)!.ready, condition(failed, 'ContainersReady'), condition(failed, 'Ready')], [false, 'False', 'False']);
});
