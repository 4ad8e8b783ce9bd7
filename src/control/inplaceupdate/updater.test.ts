import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { Namespaces, Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import { createSimulatedNodes, type SimulatedNodes } from '../../cluster/kubelet/index.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { isPodUpdateCompleted } from './completion.js';
import { markInPlaceUpdateStarted, podCondition } from './conditions.js';
import { revision, template } from './test-kit.js';
import { InPlaceUpdater } from './updater.js';
import type { Pod } from '../../api/core/index.js';

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
  const first = await updater.refresh(running);
  assert.equal(first.error, undefined);
  assert.match(first.newResourceVersion ?? '', /^\d+$/, 'the write reports the new resourceVersion');
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

  assert.equal((await updater.refresh(restarted)).error, undefined);
  const done = await podWhere('Ready again', ready);
  assert.deepEqual([podCondition(done, 'InPlaceUpdateReady')?.status, done.spec.containers[0].image], ['True', 'nginx:1.26']);
  assert.equal(updater.canUpdateInPlace(oldRev, revision('web-env', template([{ name: 'app', image: 'nginx:1.26', env: [{ name: 'A', value: '1' }] }]))), false);
});

test('update starts from the given pod and re-reads it only after a conflict', async () => {
  const gets: string[] = [];
  const counting = new Proxy(client, {
    get: (target, prop, receiver) => (prop === 'get'
      ? (type: Parameters<Client['get']>[0], ns: string, name: string) => { gets.push(name); return target.get(type, ns, name); }
      : Reflect.get(target, prop, receiver)),
  });
  const oldRev = revision('web-old', template([{ name: 'app', image: 'nginx:1.25' }]));
  const newRev = revision('web-new', template([{ name: 'app', image: 'nginx:1.26' }]));
  const create = (name: string) => client.create(Pods, {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace: 'ipu', labels: { app: 'demo', 'controller-revision-hash': 'web-old' } },
    spec: { containers: [{ name: 'app', image: 'nginx:1.25' }], readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] },
  } as Pod);
  const updater = new InPlaceUpdater(counting);
  const fresh = await create('fresh');
  const r1 = await updater.update(fresh, oldRev, newRev);
  assert.equal(r1.error, undefined);
  assert.deepEqual(gets, [], 'an up-to-date pod needs no read');
  const stale = await create('stale');
  await client.patch(Pods, 'ipu', 'stale', 'merge', { metadata: { labels: { touched: 'yes' } } });
  const r2 = await updater.update(stale, oldRev, newRev);
  assert.equal(r2.error, undefined);
  assert.deepEqual(gets, ['stale'], 'a stale copy conflicts once and is re-read');
  const written = await client.get<Pod>(Pods, 'ipu', 'stale');
  assert.deepEqual([written.metadata.labels!.touched, written.spec.containers[0].image, podCondition(written, 'InPlaceUpdateReady')?.status], ['yes', 'nginx:1.26', 'False']);
  assert.equal(written.metadata.resourceVersion, r2.newResourceVersion);
});

test('admit judges the version each attempt writes over: after a conflict the re-read pod is asked again, and a no writes nothing', async () => {
  const oldRev = revision('web-old', template([{ name: 'app', image: 'nginx:1.25' }]));
  const newRev = revision('web-new', template([{ name: 'app', image: 'nginx:1.26' }]));
  const stale = await client.create<Pod>(Pods, {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: 'admit', namespace: 'ipu', labels: { app: 'demo', 'controller-revision-hash': 'web-old' } },
    spec: { containers: [{ name: 'app', image: 'nginx:1.25' }], readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] },
  } as Pod);
  // the pod changed since the caller's copy (as a pod turning Ready does): the first write conflicts
  const changed = await client.patch<Pod>(Pods, 'ipu', 'admit', 'merge', { metadata: { labels: { touched: 'yes' } } });
  const asked: string[] = [];
  const r = await new InPlaceUpdater(client).update(stale, oldRev, newRev, {
    admit: async (p) => { asked.push(p.metadata.resourceVersion!); return p.metadata.resourceVersion === stale.metadata.resourceVersion; },
  });
  assert.deepEqual(asked, [stale.metadata.resourceVersion, changed.metadata.resourceVersion]);
  assert.deepEqual([r.refused, r.error, r.newResourceVersion], [true, undefined, undefined]);
  const after = await client.get<Pod>(Pods, 'ipu', 'admit');
  assert.deepEqual([after.metadata.resourceVersion, after.spec.containers[0].image, podCondition(after, 'InPlaceUpdateReady')], [changed.metadata.resourceVersion, 'nginx:1.25', undefined]);
});

test('markReadyIfMissing adds True only where the condition is missing, whatever the resourceVersion', async () => {
  const updater = new InPlaceUpdater(client);
  const newPod = await client.create(Pods, {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'new', namespace: 'ipu' },
    spec: { containers: [{ name: 'app', image: 'nginx:1.25' }], readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] },
  } as Pod);
  await client.patch(Pods, 'ipu', 'new', 'merge', { metadata: { labels: { moved: 'on' } } }); // the copy we hold is now stale
  const r = await updater.markReadyIfMissing(newPod);
  assert.equal(r.error, undefined);
  const written = await client.get<Pod>(Pods, 'ipu', 'new');
  assert.equal(podCondition(written, 'InPlaceUpdateReady')?.status, 'True');
  assert.equal(written.metadata.resourceVersion, r.newResourceVersion);
  const updating = markInPlaceUpdateStarted(written, new Date())!;
  const held = await client.updateStatus(Pods, updating);
  assert.deepEqual(await updater.markReadyIfMissing(held), {}, 'a False condition is the refresh\'s to flip, not this');
  assert.equal(podCondition(await client.get<Pod>(Pods, 'ipu', 'new'), 'InPlaceUpdateReady')?.status, 'False');
  const ungated = await client.create(Pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ungated', namespace: 'ipu' }, spec: { containers: [{ name: 'app', image: 'x' }] } } as Pod);
  assert.deepEqual(await updater.markReadyIfMissing(ungated), {});
  assert.equal(podCondition(await client.get<Pod>(Pods, 'ipu', 'ungated'), 'InPlaceUpdateReady'), undefined);
});

test('onReady rides on the InPlaceUpdateReady=True write, a flip or a missing condition, and returns the written pod', async () => {
  const updater = new InPlaceUpdater(client);
  const move = (p: Pod) => { p.metadata.labels = { ...p.metadata.labels, state: 'Normal' }; p.metadata.annotations = { ...p.metadata.annotations, at: 'now' }; };
  const gated = (name: string) => client.create(Pods, {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ipu', labels: { state: 'Updating', stale: 'x' } },
    spec: { containers: [{ name: 'app', image: 'nginx:1.25' }], readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] },
  } as Pod);
  // a missing condition: a patch carrying the labels onReady set or removed, whatever the resourceVersion
  const fresh = await gated('missing');
  await client.patch(Pods, 'ipu', 'missing', 'merge', { metadata: { labels: { other: 'on' } } });
  const r1 = await updater.markReadyIfMissing(fresh, { onReady: (p) => { move(p); delete p.metadata.labels!.stale; } });
  assert.equal(r1.error, undefined);
  const got1 = await client.get<Pod>(Pods, 'ipu', 'missing');
  assert.deepEqual(r1.pod, got1, 'the written pod is returned');
  assert.deepEqual([got1.metadata.labels, got1.metadata.annotations?.at, podCondition(got1, 'InPlaceUpdateReady')?.status],
    [{ state: 'Normal', other: 'on' }, 'now', 'True']);
  // the False-to-True flip: one status update with onReady's changes
  const held = await client.updateStatus(Pods, markInPlaceUpdateStarted(await gated('flip'), new Date())!);
  const r2 = await updater.refresh(held, { onReady: move });
  assert.equal(r2.error, undefined);
  const got2 = await client.get<Pod>(Pods, 'ipu', 'flip');
  assert.equal(r2.pod?.metadata.resourceVersion, got2.metadata.resourceVersion);
  assert.deepEqual([got2.metadata.labels?.state, got2.metadata.annotations?.at, podCondition(got2, 'InPlaceUpdateReady')?.status], ['Normal', 'now', 'True']);
  // no flip to make: onReady is not called and nothing is written
  let called = false;
  const r3 = await updater.refresh(got2, { onReady: () => { called = true; } });
  assert.deepEqual([called, r3.pod, (await client.get<Pod>(Pods, 'ipu', 'flip')).metadata.resourceVersion], [false, undefined, got2.metadata.resourceVersion]);
});
