import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { Namespaces, Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import { createSimulatedNodes, type SimulatedNodes } from '../../controlplane/kubelet/index.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { isPodUpdateCompleted } from './completion.js';
import { podCondition } from './conditions.js';
import { revision, template } from './test-kit.js';
import type { Pod } from './types.js';
import { InPlaceUpdater } from './updater.js';

let env: TestControlPlane;
let client: Client;
let nodes: SimulatedNodes;

async function waitFor(what: string, check: () => Promise<Pod | false>): Promise<Pod> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
const podWhere = (what: string, ok: (p: Pod) => boolean) => waitFor(what, async () => { const p = await client.get<Pod>(Pods, 'ipu', 'web-0'); return ok(p) && p; });
const ready = (p: Pod) => podCondition(p, 'Ready')?.status === 'True';

before(async () => {
  env = await startTestControlPlane();
  client = createInProcessClient(env.plane.handler);
  await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ipu' } } as KObject);
  nodes = createSimulatedNodes({ client, count: 1 });
  await nodes.start();
});

after(async () => {
  await nodes.stop();
  await env.stop();
});

test('an image change is applied in place on a running pod and the gate turns True again', async () => {
  const oldRev = revision('web-old', template([{ name: 'app', image: 'nginx:1.25' }]));
  const newRev = revision('web-new', template([{ name: 'app', image: 'nginx:1.26' }]));
  await client.create(Pods, {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: 'web-0', namespace: 'ipu', labels: { app: 'demo', 'controller-revision-hash': 'web-old' } },
    spec: { nodeName: 'kruise-node-0', containers: [{ name: 'app', image: 'nginx:1.25' }], readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] },
  } as Pod);
  const updater = new InPlaceUpdater(client);
  // a fresh pod has no InPlaceUpdateReady condition: refresh creates it, then the kubelet reports Ready
  const running = await podWhere('running', (p) => p.status?.containerStatuses?.[0]?.ready === true);
  assert.deepEqual(await updater.refresh(running), {});
  const before = await podWhere('Ready', ready);

  const result = await updater.update(before, oldRev, newRev);
  assert.equal(result.error, undefined);
  assert.equal(result.inPlaceUpdate, true);
  const updated = await client.get<Pod>(Pods, 'ipu', 'web-0');
  assert.equal(updated.metadata.labels!['controller-revision-hash'], 'web-new');
  assert.equal(podCondition(updated, 'InPlaceUpdateReady')?.reason, 'StartInPlaceUpdate');

  const restarted = await podWhere('container restarted', (p) => p.status?.containerStatuses?.[0]?.restartCount === 1 && !!p.status.containerStatuses[0].ready);
  assert.equal(restarted.metadata.uid, before.metadata.uid);
  assert.equal(restarted.status!.podIP, before.status!.podIP);
  assert.notEqual(restarted.status!.containerStatuses![0].containerID, before.status!.containerStatuses![0].containerID);
  assert.equal(isPodUpdateCompleted(restarted), true);
  assert.equal(ready(restarted), false, 'still gated');

  assert.deepEqual(await updater.refresh(restarted), {});
  const done = await podWhere('Ready again', ready);
  assert.deepEqual([podCondition(done, 'InPlaceUpdateReady')?.status, done.spec.containers[0].image], ['True', 'nginx:1.26']);
  assert.equal(updater.canUpdateInPlace(oldRev, revision('web-env', template([{ name: 'app', image: 'nginx:1.26', env: [{ name: 'A', value: '1' }] }]))), false);
});
