import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Pods } from '../../api/resource-type.js';
import { containerNamed, podCondition, podObject, startKubeletEnv, type KubeletEnv } from '../../testing/kubelet-env.js';
import type { Container, Pod } from '../../api/core/index.js';

let k: KubeletEnv;

before(async () => {
  k = await startKubeletEnv();
});

after(() => k.stop());

const sidecar = (name: string, extra: Partial<Container> = {}): Container => ({ name, image: 'envoy:1.30', restartPolicy: 'Always', ...extra });
const state = (p: Pod, name: string) => containerNamed(p, name)?.state ?? {};
const time = (s: string | null | undefined) => Date.parse(s ?? '');

test('native sidecars start in order, each started (startup probe passed) before the next init container', async () => {
  const initContainers = [sidecar('proxy', { startupProbe: { tcpSocket: { port: 15000 }, periodSeconds: 2, failureThreshold: 10 } }), { name: 'migrate', image: 'busybox:1.36' }];
  await k.client.create(Pods, podObject(k.node, 'meshed', { initContainers }, { 'kruise-ts.io/simulate-startup.proxy': 'succeed-after=5s' }));
  let pod = await k.podWhere('meshed', (p) => !!state(p, 'proxy').running, 'proxy running');
  assert.deepEqual([containerNamed(pod, 'proxy')!.started, podCondition(pod, 'Initialized'), pod.status!.phase], [false, 'False', 'Pending']);
  assert.ok(!state(pod, 'migrate').running && !state(pod, 'migrate').terminated, 'migrate waits for the proxy to start');
  const took = await k.advanceUntil('meshed', (p) => !!state(p, 'app').running, 'app running', 10_000);
  assert.ok(took >= 6000 && took < 7000, `app running after ${took} ms (proxy started at 6 s)`);
  pod = await k.getPod('meshed');
  assert.equal(state(pod, 'migrate').terminated?.reason, 'Completed');
  assert.ok(state(pod, 'proxy').running, 'the sidecar keeps running');
  assert.deepEqual([pod.status!.phase, podCondition(pod, 'Initialized')], ['Running', 'True']);
});

test('a sidecar that exits is restarted; the pod keeps running', async () => {
  const id = containerNamed(await k.getPod('meshed'), 'proxy')!.containerID!.replace('containerd://', '');
  k.nodes.runtime(k.node)!.killContainer(id, 1);
  await k.advanceUntil('meshed', (p) => containerNamed(p, 'proxy')?.restartCount === 1 && !!state(p, 'proxy').running, 'proxy restarted', 10_000);
  const pod = await k.getPod('meshed');
  assert.equal(containerNamed(pod, 'proxy')!.lastState?.terminated?.exitCode, 1);
  assert.deepEqual([pod.status!.phase, podCondition(pod, 'Initialized'), containerNamed(pod, 'app')!.restartCount], ['Running', 'True', 0]);
});

test('on deletion sidecars stop after the regular containers, in reverse order', async () => {
  const annotations = { 'kruise-ts.io/simulate-termination-seconds.app': '3', 'kruise-ts.io/simulate-termination-seconds.first': '2', 'kruise-ts.io/simulate-termination-seconds.second': '2' };
  const pod = podObject(k.node, 'ordered', { initContainers: [sidecar('first'), sidecar('second')] }, annotations);
  pod.metadata.finalizers = ['example.com/keep'];
  await k.client.create(Pods, pod);
  await k.podWhere('ordered', (p) => !!state(p, 'app').running, 'running');
  await k.client.delete(Pods, 'default', 'ordered');
  await k.advanceUntil('ordered', (p) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed', 'terminal', 20_000);
  const done = await k.getPod('ordered');
  const finished = (name: string) => time(state(done, name).terminated?.finishedAt);
  assert.equal(finished('second') - finished('app'), 2000, 'second stops once app exited');
  assert.equal(finished('first') - finished('second'), 2000, 'first stops once second exited');
  await k.client.patch(Pods, 'default', 'ordered', 'merge', { metadata: { finalizers: null } });
});

test('a Job pod completes when its regular containers are done; its sidecar is stopped', async () => {
  const annotations = { 'kruise-ts.io/simulate-exit-code.app': '0', 'kruise-ts.io/simulate-run-seconds.app': '2' };
  await k.client.create(Pods, podObject(k.node, 'job', { restartPolicy: 'Never', initContainers: [sidecar('logger')] }, annotations));
  await k.podWhere('job', (p) => !!state(p, 'app').running, 'running');
  await k.advanceUntil('job', (p) => p.status?.phase === 'Succeeded', 'Succeeded', 10_000);
  await k.advanceUntil('job', (p) => !!state(p, 'logger').terminated, 'sidecar stopped', 5000);
  assert.equal(podCondition(await k.getPod('job'), 'Ready'), 'False');
});

test('past activeDeadlineSeconds the pod fails with DeadlineExceeded and its containers stop', async () => {
  await k.client.create(Pods, podObject(k.node, 'deadline', { activeDeadlineSeconds: 10 }));
  await k.podWhere('deadline', (p) => !!state(p, 'app').running, 'running');
  const took = await k.advanceUntil('deadline', (p) => p.status?.phase === 'Failed', 'Failed', 15_000);
  assert.ok(took >= 9000 && took <= 11_000, `failed after ${took} ms`);
  const pod = await k.advanceUntil('deadline', (p) => !!state(p, 'app').terminated, 'stopped', 5000).then(() => k.getPod('deadline'));
  assert.deepEqual([pod.status!.reason, pod.status!.message], ['DeadlineExceeded', 'Pod was active on the node longer than the specified deadline']);
  assert.equal(podCondition(pod, 'Ready'), 'False');
  assert.ok((await k.events('deadline')).includes('Normal Killing: Stopping container app'));
});

test('an ephemeral container is started, reported in ephemeralContainerStatuses, and never restarted', async () => {
  await k.client.create(Pods, podObject(k.node, 'debugged', {}, { 'kruise-ts.io/simulate-run-seconds.debugger': '3', 'kruise-ts.io/simulate-exit-code.debugger': '1' }));
  await k.podWhere('debugged', (p) => !!state(p, 'app').running, 'running');
  const debug = { name: 'debugger', image: 'busybox:1.36', targetContainerName: 'app' };
  await k.client.patch(Pods, 'default', 'debugged', 'strategic', { spec: { ephemeralContainers: [debug] } }, { subresource: 'ephemeralcontainers' });
  let pod = await k.podWhere('debugged', (p) => !!p.status?.ephemeralContainerStatuses?.[0]?.state?.running, 'debugger running');
  assert.equal(pod.status!.ephemeralContainerStatuses![0].name, 'debugger');
  await k.advance(20_000, 500);
  pod = await k.getPod('debugged');
  const [dbg] = pod.status!.ephemeralContainerStatuses!;
  assert.deepEqual([dbg.state?.terminated?.exitCode, dbg.restartCount, pod.status!.phase, podCondition(pod, 'Ready')], [1, 0, 'Running', 'True']);
});
