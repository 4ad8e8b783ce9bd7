/**
 * Node obligations K4-K6 (docs/design/simulated-nodes.md §19): a pod's state as others shape it: a
 * missing ConfigMap holds its container back until created, readiness gates set through pods/status
 * decide Ready with the containers, and a terminal phase written by someone else is final.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { ConfigMaps, Pods } from '../../api/resource-type.js';
import { containerNamed, podCondition } from '../../testing/kubelet-env.js';
import { busybox, server, startNodesEnv, type NodesEnv } from './nodes-kit.js';
import type { Pod } from '../../api/core/index.js';

let k: NodesEnv;
const node = 'kruise-node-0';

before(async () => {
  k = await startNodesEnv({ count: 1 });
});

after(() => k.stop());

const running = (p: Pod, name = 'app') => !!containerNamed(p, name)?.state?.running;
const waiting = (p: Pod) => containerNamed(p, 'app')?.state?.waiting;
const setCondition = (name: string, type: string, status: 'True' | 'False') =>
  k.client.patch(Pods, 'default', name, 'strategic', { status: { conditions: [{ type, status }] } }, { subresource: 'status' });

test('K4: a missing ConfigMap or key holds the container in CreateContainerConfigError until it is created', async () => {
  const env = [{ name: 'MODE', valueFrom: { configMapKeyRef: { name: 'k4-settings', key: 'mode' } } }];
  let pod = await k.createPod('k4', { nodeName: node, containers: [server('app', 'nginx:1.25', { env })] });
  pod = await k.podWhere('k4', (p) => waiting(p)?.reason === 'CreateContainerConfigError', 'config error');
  assert.deepEqual([waiting(pod)!.message, pod.status!.phase], ['configmap "k4-settings" not found', 'Pending']);
  assert.deepEqual(await k.criContainers(pod), [], 'nothing created on the node');

  const configMap: KObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'k4-settings', namespace: 'default' }, data: { other: 'x' } };
  await k.client.create(ConfigMaps, configMap);
  pod = await k.podWhere('k4', (p) => waiting(p)?.message?.startsWith("couldn't") === true, 'key error');
  assert.equal(waiting(pod)!.message, "couldn't find key mode in ConfigMap default/k4-settings");

  await k.client.patch(ConfigMaps, 'default', 'k4-settings', 'merge', { data: { mode: 'fast' } });
  pod = await k.podWhere('k4', (p) => running(p), 'running once the key exists');
  assert.deepEqual((await k.criContainers(pod)).map((c) => c.state), ['CONTAINER_RUNNING']);
});

test('K5: Ready is all containers ready and every readiness gate condition True, set through pods/status', async () => {
  const gate = 'example.com/load-balancer-ready';
  await k.createPod('k5', { nodeName: node, readinessGates: [{ conditionType: gate }], containers: [server()] });
  let pod = await k.podWhere('k5', (p) => podCondition(p, 'ContainersReady') === 'True', 'containers ready');
  const ready = (p: Pod) => p.status!.conditions!.find((c) => c.type === 'Ready')!;
  assert.deepEqual([ready(pod).status, ready(pod).reason], ['False', 'ReadinessGatesNotReady']);

  await setCondition('k5', gate, 'True');
  pod = await k.podWhere('k5', (p) => podCondition(p, 'Ready') === 'True', 'Ready with the gate True');
  assert.equal(podCondition(pod, gate), 'True', 'the kubelet keeps the condition it does not own');

  k.nodes.setContainerReady('default', 'k5', 'app', false);
  pod = await k.podWhere('k5', (p) => podCondition(p, 'Ready') === 'False', 'not Ready with a container unready');
  assert.deepEqual([podCondition(pod, 'ContainersReady'), podCondition(pod, gate)], ['False', 'True']);
  k.nodes.setContainerReady('default', 'k5', 'app', true);
  await k.podWhere('k5', (p) => podCondition(p, 'Ready') === 'True', 'Ready again');

  await setCondition('k5', gate, 'False');
  pod = await k.podWhere('k5', (p) => podCondition(p, 'Ready') === 'False', 'not Ready with the gate False');
  assert.equal(podCondition(pod, 'ContainersReady'), 'True');
});

test('K6: a terminal phase written by someone else is final: the kubelet stops the containers and never leaves it', async () => {
  const spec = { nodeName: node, containers: [server(), busybox('worker', ['sleep', 'infinity'])] };
  await Promise.all([k.createPod('k6-failed', spec), k.createPod('k6-succeeded', spec)]);
  for (const [name, phase] of [['k6-failed', 'Failed'], ['k6-succeeded', 'Succeeded']] as const) {
    await k.podWhere(name, (p) => running(p) && running(p, 'worker'), 'running');
    await k.client.patch(Pods, 'default', name, 'strategic', { status: { phase, reason: 'Evicted', message: 'set by the test' } }, { subresource: 'status' });
  }
  await k.advance(60_000, 1000);
  for (const [name, phase] of [['k6-failed', 'Failed'], ['k6-succeeded', 'Succeeded']] as const) {
    const pod = await k.getPod(name);
    assert.deepEqual([pod.status!.phase, pod.status!.reason], [phase, 'Evicted'], name);
    assert.equal(podCondition(pod, 'Ready'), 'False', name);
    for (const c of ['app', 'worker']) assert.ok(containerNamed(pod, c)!.state!.terminated, `${name}/${c} terminated`);
    const onNode = await k.criContainers(pod);
    assert.deepEqual(onNode.map((c) => [c.metadata.name, c.metadata.attempt, c.state]).sort(),
      [['app', 0, 'CONTAINER_EXITED'], ['worker', 0, 'CONTAINER_EXITED']], `${name}: stopped, not restarted`);
  }
});
