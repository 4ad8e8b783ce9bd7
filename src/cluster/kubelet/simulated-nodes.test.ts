import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { Leases, Namespaces, Nodes, Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { createHttpClient } from '../../client/http-client.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import { isNotFound } from '../../machinery/errors.js';
import { FakeClock, flush } from '../../machinery/clock.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { waitFor } from '../../testing/wait-for.js';
import { createSimulatedNodes, type SimulatedNodes } from './index.js';
import type { Lease, Node, Pod, PodCondition } from '../../api/core/index.js';

let env: TestControlPlane;
let client: Client;
let nodes: SimulatedNodes;
const clock = new FakeClock(Date.now());

const getPod = (ns: string, name: string) => client.get<Pod>(Pods, ns, name);
const condition = (pod: Pod, type: string): PodCondition | undefined => pod.status?.conditions?.find((c) => c.type === type);
const podWhere = (ns: string, name: string, ok: (p: Pod) => boolean, what = 'pod state') =>
  waitFor(`${ns}/${name}: ${what}`, async () => { const p = await getPod(ns, name); return ok(p) && p; });
const ready = (p: Pod) => condition(p, 'Ready')?.status === 'True';

function podObject(ns: string, name: string, spec: Partial<Pod['spec']> = {}, annotations?: Record<string, string>): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns, annotations }, spec: { nodeName: 'kruise-node-0', containers: [{ name: 'app', image: 'nginx:1.25' }], ...spec } };
}

/** Advances fake time in steps until `check` holds; returns the fake time that took. */
async function advanceUntil(what: string, check: () => Promise<boolean>, maxMs: number, stepMs = 250): Promise<number> {
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

const podIs = (ns: string, name: string, ok: (p: Pod) => boolean) => async () => ok(await getPod(ns, name));
const gone = (ns: string, name: string) => async () => getPod(ns, name).then(() => false, (e: unknown) => isNotFound(e));

before(async () => {
  env = await startTestControlPlane();
  client = createInProcessClient(env.plane.handler);
  await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sim' } } as KObject);
  nodes = createSimulatedNodes({ client, count: 3, clock });
  await nodes.start();
});

after(async () => {
  await nodes.stop();
  await env.stop();
});

describe('nodes', () => {
  test('register with labels, capacity, addresses, nodeInfo and a Ready condition', async () => {
    const node = await client.get<Node>(Nodes, undefined, 'kruise-node-1');
    const l = node.metadata.labels!;
    assert.deepEqual([l['kubernetes.io/hostname'], l['topology.kubernetes.io/zone'], l['kubernetes.io/arch'], l['kubernetes.io/os']], ['kruise-node-1', 'zone-b', 'amd64', 'linux']);
    assert.deepEqual(node.status!.capacity!.pods, '110');
    assert.deepEqual([node.status!.allocatable!.cpu, node.status!.allocatable!.memory], ['32', '256Gi']);
    assert.deepEqual(node.status!.addresses, [{ type: 'InternalIP', address: '10.0.0.3' }, { type: 'Hostname', address: 'kruise-node-1' }]);
    assert.match(node.status!.nodeInfo!.kubeletVersion, /^v1\.32\./);
    assert.match(node.status!.nodeInfo!.containerRuntimeVersion, /^containerd:\/\/1\.7\./);
    const types = node.status!.conditions!.map((c) => `${c.type}=${c.status}`).sort();
    assert.deepEqual(types, ['DiskPressure=False', 'MemoryPressure=False', 'NetworkUnavailable=False', 'PIDPressure=False', 'Ready=True']);
    assert.ok(node.status!.conditions!.every((c) => c.lastHeartbeatTime && c.lastTransitionTime));
    assert.equal(node.spec!.podCIDR, '10.244.1.0/24');
  });

  test('the node lease is held by the node and renewed every 10 s', async () => {
    const first = await client.get<Lease>(Leases, 'kube-node-lease', 'kruise-node-0');
    assert.deepEqual([first.spec!.holderIdentity, first.spec!.leaseDurationSeconds], ['kruise-node-0', 40]);
    assert.equal(first.metadata.ownerReferences?.[0].kind, 'Node');
    let renewed = first;
    await advanceUntil('lease renewal', async () => {
      renewed = await client.get<Lease>(Leases, 'kube-node-lease', 'kruise-node-0');
      return renewed.spec!.renewTime !== first.spec!.renewTime;
    }, 15_000, 1000);
    assert.equal(Date.parse(renewed.spec!.renewTime!) - Date.parse(first.spec!.renewTime!), 10_000);
  });
});

describe('pods', () => {
  test('a bound pod becomes Running and Ready with real-looking statuses', async () => {
    await client.create(Pods, podObject('sim', 'web-0'));
    await client.create(Pods, podObject('sim', 'web-1'));
    const pod = await podWhere('sim', 'web-0', ready, 'Ready');
    const other = await podWhere('sim', 'web-1', ready, 'Ready');
    assert.equal(pod.status!.phase, 'Running');
    assert.equal(pod.status!.hostIP, '10.0.0.2');
    assert.match(pod.status!.podIP!, /^10\.244\.0\.\d+$/);
    assert.notEqual(pod.status!.podIP, other.status!.podIP);
    for (const t of ['Initialized', 'ContainersReady', 'PodScheduled', 'PodReadyToStartContainers']) assert.equal(condition(pod, t)?.status, 'True', t);
    const [c] = pod.status!.containerStatuses!;
    assert.equal(c.name, 'app');
    assert.equal(c.image, 'docker.io/library/nginx:1.25');
    assert.match(c.imageID, /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    assert.match(c.containerID!, /^containerd:\/\/[0-9a-f]{64}$/);
    assert.deepEqual([c.ready, c.started, c.restartCount], [true, true, 0]);
    assert.ok(c.state?.running?.startedAt);
    assert.equal(c.imageID, other.status!.containerStatuses![0].imageID);
    assert.notEqual(c.containerID, other.status!.containerStatuses![0].containerID);
  });

  test('a pod bound through pods/binding starts on that node', async () => {
    await client.create(Pods, podObject('sim', 'bound', { nodeName: undefined }));
    await client.createSubresource(Pods, 'sim', 'bound', 'binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'bound' }, target: { kind: 'Node', name: 'kruise-node-2' } });
    const pod = await podWhere('sim', 'bound', ready, 'Ready');
    assert.equal(pod.status!.hostIP, '10.0.0.4');
  });

  test('init containers run in order before the app starts', async () => {
    const inits = [{ name: 'i1', image: 'busybox:1.36' }, { name: 'i2', image: 'busybox:1.36' }];
    await client.create(Pods, podObject('sim', 'init', { initContainers: inits }, { 'kruise-ts.io/simulate-run-seconds.i1': '5' }));
    let pod = await podWhere('sim', 'init', (p) => !!p.status?.initContainerStatuses?.[0].state?.running, 'i1 running');
    assert.equal(pod.status!.phase, 'Pending');
    assert.equal(condition(pod, 'Initialized')?.status, 'False');
    assert.ok(!pod.status!.initContainerStatuses![1].state?.running && !pod.status!.initContainerStatuses![1].state?.terminated);
    assert.equal(pod.status!.containerStatuses![0].state?.waiting?.reason, 'PodInitializing');
    await advanceUntil('init done', podIs('sim', 'init', ready), 10_000);
    pod = await getPod('sim', 'init');
    const [i1, i2] = pod.status!.initContainerStatuses!;
    assert.deepEqual([i1.state?.terminated?.reason, i2.state?.terminated?.reason, i1.ready, i2.ready], ['Completed', 'Completed', true, true]);
    assert.ok(Date.parse(i1.state!.terminated!.finishedAt!) <= Date.parse(i2.state!.terminated!.startedAt!));
    assert.ok(Date.parse(i2.state!.terminated!.finishedAt!) <= Date.parse(pod.status!.containerStatuses![0].state!.running!.startedAt!));
    assert.equal(Date.parse(i1.state!.terminated!.finishedAt!) - Date.parse(i1.state!.terminated!.startedAt!), 5000);
  });

  test('readiness gates keep Ready False until the gate condition is True', async () => {
    await client.create(Pods, podObject('sim', 'gated', { readinessGates: [{ conditionType: 'apps.kruise.io/gate' }] }));
    let pod = await podWhere('sim', 'gated', (p) => condition(p, 'ContainersReady')?.status === 'True', 'ContainersReady');
    assert.equal(condition(pod, 'Ready')?.status, 'False');
    assert.equal(condition(pod, 'Ready')?.reason, 'ReadinessGatesNotReady');
    await client.patch(Pods, 'sim', 'gated', 'strategic', { status: { conditions: [{ type: 'apps.kruise.io/gate', status: 'True' }] } }, { subresource: 'status' });
    pod = await podWhere('sim', 'gated', ready, 'Ready');
    assert.equal(condition(pod, 'apps.kruise.io/gate')?.status, 'True');
  });

  test('setContainerReady(false) flips ContainersReady and Ready to False, true flips them back', async () => {
    await client.create(Pods, podObject('sim', 'probe'));
    await podWhere('sim', 'probe', ready, 'Ready');
    nodes.setContainerReady('sim', 'probe', 'app', false);
    const pod = await podWhere('sim', 'probe', (p) => condition(p, 'Ready')?.status === 'False', 'unready');
    assert.equal(condition(pod, 'ContainersReady')?.status, 'False');
    assert.deepEqual([pod.status!.phase, pod.status!.containerStatuses![0].ready], ['Running', false]);
    nodes.setContainerReady('sim', 'probe', 'app', true);
    await podWhere('sim', 'probe', ready, 'Ready again');
  });

  test('an image change restarts only that container, in place', async () => {
    await client.create(Pods, podObject('sim', 'inplace', { containers: [{ name: 'app', image: 'nginx:1.25' }, { name: 'side', image: 'busybox:1.36', command: ['sleep', 'infinity'] }] }));
    const before = await podWhere('sim', 'inplace', ready, 'Ready');
    await client.patch(Pods, 'sim', 'inplace', 'strategic', { spec: { containers: [{ name: 'app', image: 'nginx:1.26' }] } });
    const updated = await podWhere('sim', 'inplace', (p) => p.status!.containerStatuses![0].restartCount === 1 && ready(p), 'restarted');
    const [was, side0] = before.status!.containerStatuses!;
    const [now, side1] = updated.status!.containerStatuses!;
    assert.equal(updated.metadata.uid, before.metadata.uid);
    assert.equal(updated.status!.podIP, before.status!.podIP);
    assert.notEqual(now.containerID, was.containerID);
    assert.notEqual(now.imageID, was.imageID);
    assert.equal(now.image, 'docker.io/library/nginx:1.26');
    assert.equal(now.lastState?.terminated?.containerID, was.containerID);
    assert.deepEqual([side1.containerID, side1.restartCount], [side0.containerID, 0]);
  });

  test('deletion waits for the containers within the grace period, then removes the pod', async () => {
    await client.create(Pods, podObject('sim', 'slow', { terminationGracePeriodSeconds: 30 }, { 'kruise-ts.io/simulate-termination-seconds': '3600' }));
    await client.create(Pods, podObject('sim', 'quick', { terminationGracePeriodSeconds: 30 }));
    await podWhere('sim', 'slow', ready, 'Ready');
    await podWhere('sim', 'quick', ready, 'Ready');
    await client.delete(Pods, 'sim', 'slow');
    await client.delete(Pods, 'sim', 'quick');
    await waitFor('quick pod gone', gone('sim', 'quick'));
    const terminating = await getPod('sim', 'slow');
    assert.ok(terminating.metadata.deletionTimestamp);
    const waited = await advanceUntil('slow pod gone', gone('sim', 'slow'), 40_000, 1000);
    assert.ok(waited >= 30_000, `removed after ${waited} ms of a 30 s grace period`);
  });

  test('restartPolicy Never pods end Succeeded or Failed after their scripted run', async () => {
    const job = (name: string, code: string) => podObject('sim', name, { restartPolicy: 'Never' }, { 'kruise-ts.io/simulate-exit-code': code, 'kruise-ts.io/simulate-run-seconds': '3' });
    await client.create(Pods, job('job-ok', '0'));
    await client.create(Pods, job('job-bad', '2'));
    await podWhere('sim', 'job-ok', (p) => p.status?.phase === 'Running', 'Running');
    const ran = await advanceUntil('job done', podIs('sim', 'job-ok', (p) => p.status?.phase === 'Succeeded'), 10_000);
    assert.ok(ran >= 3000, `ran ${ran} ms of 3 s`);
    const ok = await getPod('sim', 'job-ok');
    const bad = await podWhere('sim', 'job-bad', (p) => p.status?.phase === 'Failed', 'Failed');
    assert.deepEqual(ok.status!.containerStatuses![0].state?.terminated?.reason, 'Completed');
    assert.deepEqual(bad.status!.containerStatuses![0].state?.terminated?.exitCode, 2);
    assert.equal(condition(ok, 'Ready')?.reason, 'PodCompleted');
  });
});

describe('over HTTP', () => {
  test('the same kubelets work through the HTTP client (kubeconfig, TLS, watch)', async () => {
    const http = createHttpClient({ kubeconfigPath: env.kubeconfig });
    const remote = createSimulatedNodes({ client: http, count: 1, namePrefix: 'http-node-', clock });
    await remote.start();
    try {
      await http.create(Pods, podObject('sim', 'over-http', { nodeName: 'http-node-0' }));
      const pod = await podWhere('sim', 'over-http', ready, 'Ready');
      assert.match(pod.status!.containerStatuses![0].containerID!, /^containerd:\/\//);
      // the in-process kubelets ignore pods of nodes they do not run
      assert.deepEqual(nodes.nodeNames().includes('http-node-0'), false);
    } finally {
      await remote.stop();
    }
  });
});
