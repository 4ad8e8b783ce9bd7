/**
 * Node obligations K1-K3 (docs/design/simulated-nodes.md §19): what a container is, seen from the
 * API and from the node's CRI socket: the kubelet's labels and annotations, restarts per
 * restartPolicy with the phase kubelet derives, and an in-place image change.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Pods } from '../../api/resource-type.js';
import { KubeletAnnotations, KubeletLabels } from '../../daemon/cri/types.js';
import { containerNamed } from '../../testing/kubelet-env.js';
import { busybox, server, startNodesEnv, type NodesEnv } from './nodes-kit.js';
import type { Pod } from '../../api/core/index.js';

let k: NodesEnv;
const [node0, node1] = ['kruise-node-0', 'kruise-node-1'];

before(async () => {
  k = await startNodesEnv({ count: 2 });
});

after(() => k.stop());

const running = (p: Pod, name = 'app') => !!containerNamed(p, name)?.state?.running;
const idOf = (p: Pod, name = 'app') => containerNamed(p, name)!.containerID!.replace(/^\w+:\/\//, '');

test('K1: containers carry the kubelet labels and annotations; status containerID is <runtimeName>://<id> and restartCount mirrors the annotation', async () => {
  const preStop = { exec: { command: ['/bin/drain', '--quiet'] } };
  const ports = [{ name: 'http', containerPort: 80, protocol: 'TCP' }];
  await k.createPod('k1', {
    nodeName: node0, terminationGracePeriodSeconds: 45,
    containers: [server('app', 'nginx:1.25', { ports, lifecycle: { preStop } }), busybox('log', ['sleep', 'infinity'])],
  });
  let pod = await k.podWhere('k1', (p) => running(p) && running(p, 'log'), 'both running');
  const { runtimeName } = await k.cri().version();
  assert.equal(runtimeName, 'containerd');
  const containers = await k.criContainers(pod);
  assert.deepEqual(containers.map((c) => c.metadata.name).sort(), ['app', 'log']);
  for (const c of containers) {
    const name = c.metadata.name;
    assert.deepEqual([KubeletLabels.podName, KubeletLabels.podNamespace, KubeletLabels.podUid, KubeletLabels.containerName].map((l) => c.labels[l]),
      ['k1', 'default', pod.metadata.uid, name]);
    assert.equal(c.annotations[KubeletAnnotations.restartCount], '0');
    assert.match(c.annotations[KubeletAnnotations.hash], /^[0-9a-f]+$/);
    assert.equal(c.annotations[KubeletAnnotations.terminationGracePeriod], '45');
    assert.equal(containerNamed(pod, name)!.containerID, `${runtimeName}://${c.id}`);
  }
  const [app, log] = [containers.find((c) => c.metadata.name === 'app')!, containers.find((c) => c.metadata.name === 'log')!];
  assert.deepEqual(JSON.parse(app.annotations[KubeletAnnotations.preStopHandler]), preStop);
  assert.deepEqual(JSON.parse(app.annotations[KubeletAnnotations.ports]), ports);
  assert.deepEqual([log.annotations[KubeletAnnotations.preStopHandler], log.annotations[KubeletAnnotations.ports]], [undefined, undefined]);

  // someone stops the container on the node (crictl stop): the kubelet starts the next attempt
  await k.cri().stopContainer(app.id, 0);
  await k.advanceUntil('k1', (p) => running(p) && containerNamed(p, 'app')!.restartCount === 1, 'app restarted', 30_000, 1000);
  pod = await k.getPod('k1');
  const next = (await k.criContainers(pod)).find((c) => c.metadata.name === 'app' && c.state === 'CONTAINER_RUNNING')!;
  assert.equal(next.annotations[KubeletAnnotations.restartCount], '1');
  assert.equal(next.annotations[KubeletAnnotations.hash], app.annotations[KubeletAnnotations.hash], 'same spec, same hash');
  assert.equal(containerNamed(pod, 'app')!.containerID, `containerd://${next.id}`);
  assert.notEqual(next.id, app.id);
});

test('K2: exited containers restart per restartPolicy with a new id, restartCount+1 and lastState; the phase follows the exit codes', async () => {
  const once = (name: string, restartPolicy: Pod['spec']['restartPolicy'], command: string[]) =>
    k.createPod(name, { nodeName: node0, restartPolicy, containers: [busybox('main', command)] });
  await Promise.all([
    once('k2-always', 'Always', ['sleep', '1']),
    once('k2-onfailure-fails', 'OnFailure', ['sh', '-c', 'exit 3']),
    once('k2-onfailure-ok', 'OnFailure', ['sleep', '1']),
    once('k2-never-fails', 'Never', ['sh', '-c', 'exit 3']),
    once('k2-never-ok', 'Never', ['sleep', '1']),
  ]);
  const main = (p: Pod) => containerNamed(p, 'main')!;
  const restarted = (p: Pod) => (containerNamed(p, 'main')?.restartCount ?? 0) >= 1;
  await k.advanceUntil('k2-always', (p) => restarted(p) && running(p, 'main'), 'restarted', 30_000, 500);
  const always = await k.getPod('k2-always');
  const last = main(always).lastState!.terminated!;
  assert.deepEqual([always.status!.phase, last.exitCode, last.reason], ['Running', 0, 'Completed']);
  assert.ok(Date.parse(last.finishedAt!) - Date.parse(last.startedAt!) >= 1000, `${last.startedAt} .. ${last.finishedAt}`);
  assert.notEqual(last.containerID, main(always).containerID, 'a new container');
  const attempts = await k.criContainers(always);
  assert.deepEqual(attempts.slice(0, 2).map((c) => [c.metadata.attempt, `containerd://${c.id}`]), [[0, last.containerID], [1, main(always).containerID]]);
  assert.equal(attempts[0].state, 'CONTAINER_EXITED');

  await k.advanceUntil('k2-onfailure-fails', restarted, 'restarted', 30_000, 500);
  const onFailure = await k.getPod('k2-onfailure-fails');
  assert.equal(onFailure.status!.phase, 'Running', 'OnFailure keeps restarting a failing container');
  assert.deepEqual([main(onFailure).lastState!.terminated!.exitCode, main(onFailure).lastState!.terminated!.reason], [3, 'Error']);
  for (const [name, phase, exitCode] of [['k2-onfailure-ok', 'Succeeded', 0], ['k2-never-fails', 'Failed', 3], ['k2-never-ok', 'Succeeded', 0]] as const) {
    const pod = await k.getPod(name);
    assert.deepEqual([pod.status!.phase, main(pod).restartCount, main(pod).state!.terminated?.exitCode], [phase, 0, exitCode], name);
    assert.equal((await k.criContainers(pod)).length, 1, `${name}: never restarted`);
  }
});

test('K3: an in-place image change stops the old container and starts one with the new image and its own deterministic imageID', async () => {
  await k.createPod('k3', { nodeName: node0, containers: [server('app', 'nginx:1.25')] });
  const before = containerNamed(await k.podWhere('k3', (p) => running(p), 'running'), 'app')!;
  await k.client.patch(Pods, 'default', 'k3', 'strategic', { spec: { containers: [{ name: 'app', image: 'nginx:1.26' }] } });
  await k.advanceUntil('k3', (p) => running(p) && containerNamed(p, 'app')!.image === 'docker.io/library/nginx:1.26', 'new image running', 30_000, 500);
  const pod = await k.getPod('k3');
  const now = containerNamed(pod, 'app')!;
  assert.deepEqual([now.restartCount, now.lastState?.terminated?.containerID], [1, before.containerID]);
  assert.notEqual(now.containerID, before.containerID);
  assert.match(now.imageID, /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
  assert.notEqual(now.imageID, before.imageID, 'another image, another digest');
  const [old, current] = await k.criContainers(pod);
  assert.deepEqual([old.state, old.image.image, current.state, current.image.image, current.id],
    ['CONTAINER_EXITED', 'nginx:1.25', 'CONTAINER_RUNNING', 'nginx:1.26', idOf(pod)]);

  // the same images pulled on another node resolve to the same digests
  await k.createPod('k3-elsewhere', { nodeName: node1, containers: [server('new', 'nginx:1.26'), server('old', 'nginx:1.25')] });
  const elsewhere = await k.podWhere('k3-elsewhere', (p) => running(p, 'new') && running(p, 'old'), 'running on the other node');
  assert.equal(containerNamed(elsewhere, 'new')!.imageID, now.imageID);
  assert.equal(containerNamed(elsewhere, 'old')!.imageID, before.imageID);
});
