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

const app = (extra: Partial<Container>): Container[] => [{ name: 'app', image: 'nginx:1.25', ports: [{ name: 'http', containerPort: 8080 }], ...extra }];
const httpProbe = { httpGet: { path: '/healthz', port: 'http' } };
const restarts = (p: Pod) => containerNamed(p, 'app')?.restartCount ?? 0;
const running = (p: Pod) => !!containerNamed(p, 'app')?.state?.running;

test('a liveness probe failing past failureThreshold kills the container, which restarts with lastState and events', async () => {
  await k.client.create(Pods, podObject(k.node, 'live', { containers: app({ livenessProbe: httpProbe }) }, { 'kruise-ts.io/simulate-liveness.app': 'fail-after=30s' }));
  await k.podWhere('live', running, 'running');
  // probes at 0, 10 and 20 s succeed; 30, 40 and 50 s fail: the third failure (threshold 3) kills it
  const took = await k.advanceUntil('live', (p) => restarts(p) === 1 && running(p), 'restarted', 60_000);
  assert.ok(took >= 50_000 && took <= 51_000, `killed after ${took} ms`);
  const status = containerNamed(await k.getPod('live'), 'app')!;
  assert.ok(status.lastState?.terminated, 'lastState.terminated');
  assert.match(status.lastState!.terminated!.containerID!, /^containerd:\/\//);
  const events = await k.events('live');
  // three failed probes, one event counted three times (the recorder aggregates identical events)
  assert.deepEqual(events.filter((e) => e.includes('Unhealthy')), ['Warning Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 500']);
  assert.ok(events.includes('Normal Killing: Container app failed liveness probe, will be restarted'), events.join('\n'));
});

test('the startup probe gates liveness and readiness until it succeeds', async () => {
  const containers = app({ startupProbe: { ...httpProbe, periodSeconds: 5, failureThreshold: 10 }, livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] } }, readinessProbe: httpProbe });
  await k.client.create(Pods, podObject(k.node, 'slowstart', { containers }, { 'kruise-ts.io/simulate-startup': 'succeed-after=22s', 'kruise-ts.io/simulate-liveness': 'fail-after=60s' }));
  let pod = await k.podWhere('slowstart', running, 'running');
  assert.deepEqual([containerNamed(pod, 'app')!.started, containerNamed(pod, 'app')!.ready], [false, false]);
  // startup probes at 0, 5, ... 20 s fail, 25 s succeeds; readiness is probed at once
  const took = await k.advanceUntil('slowstart', (p) => podCondition(p, 'Ready') === 'True', 'Ready', 40_000);
  assert.ok(took >= 25_000 && took <= 26_000, `ready after ${took} ms`);
  pod = await k.getPod('slowstart');
  assert.deepEqual([containerNamed(pod, 'app')!.started, restarts(pod)], [true, 0]);
  const events = await k.events('slowstart');
  assert.equal(events.filter((e) => e.startsWith('Warning Unhealthy: Startup probe failed')).length, 1, 'one aggregated event');
  assert.ok(!events.some((e) => e.includes('Liveness')), events.join('\n'));
});

test('a startup probe failing past its threshold restarts the container', async () => {
  const containers = app({ startupProbe: { tcpSocket: { port: 8080 }, periodSeconds: 2, failureThreshold: 3 } });
  await k.client.create(Pods, podObject(k.node, 'neverstarts', { containers }, { 'kruise-ts.io/simulate-startup.app': 'fail' }));
  await k.podWhere('neverstarts', running, 'running');
  const took = await k.advanceUntil('neverstarts', (p) => restarts(p) === 1, 'restarted', 10_000);
  assert.ok(took >= 4000 && took <= 5000, `killed after ${took} ms (probes at 0, 2, 4 s)`);
  const events = await k.events('neverstarts');
  assert.match(events.find((e) => e.includes('Startup probe failed'))!, /dial tcp 10\.244\.\d+\.\d+:8080: connect: connection refused$/);
  assert.ok(events.includes('Normal Killing: Container app failed startup probe, will be restarted'));
  assert.equal(podCondition(await k.getPod('neverstarts'), 'Ready'), 'False');
});

test('a flapping readiness probe toggles Ready; successThreshold holds it back', async () => {
  const containers = app({ readinessProbe: { ...httpProbe, periodSeconds: 5, failureThreshold: 2, successThreshold: 2 } });
  await k.client.create(Pods, podObject(k.node, 'flappy', { containers }, { 'kruise-ts.io/simulate-readiness.app': 'flap=30s/20s' }));
  await k.podWhere('flappy', running, 'running');
  // successes at 0 and 5 s make it ready (threshold 2); failures from 30 s, unready at 35 s
  const ready = await k.advanceUntil('flappy', (p) => podCondition(p, 'Ready') === 'True', 'Ready', 10_000);
  assert.ok(ready >= 5000 && ready < 6000, `ready after ${ready} ms`);
  const unready = await k.advanceUntil('flappy', (p) => podCondition(p, 'Ready') === 'False', 'unready', 40_000);
  assert.ok(ready + unready >= 35_000 && ready + unready < 36_000, `unready after ${ready + unready} ms`);
  // back up at 50 s, ready again after the second success at 55 s
  const again = await k.advanceUntil('flappy', (p) => podCondition(p, 'Ready') === 'True', 'Ready again', 30_000);
  assert.ok(ready + unready + again >= 55_000 && ready + unready + again < 56_000, `ready again after ${ready + unready + again} ms`);
  const pod = await k.getPod('flappy');
  assert.deepEqual([pod.status!.phase, restarts(pod)], ['Running', 0]);
  assert.ok((await k.events('flappy')).includes('Warning Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 500'));
});

test('probe timeouts: latency at or past timeoutSeconds fails with the handler\'s timeout message', async () => {
  const containers = app({ readinessProbe: { grpc: { port: 9090 }, timeoutSeconds: 2 } });
  await k.client.create(Pods, podObject(k.node, 'slowgrpc', { containers }, { 'kruise-ts.io/simulate-readiness': 'succeed,latency=3s' }));
  await k.podWhere('slowgrpc', running, 'running');
  await k.advance(12_000);
  assert.equal(podCondition(await k.getPod('slowgrpc'), 'Ready'), 'False');
  assert.ok((await k.events('slowgrpc')).includes('Warning Unhealthy: Readiness probe failed: timeout: health rpc did not complete within 2s'));
});

test('setContainerReady still forces readiness over the probe', async () => {
  await k.client.create(Pods, podObject(k.node, 'forced', { containers: app({ readinessProbe: httpProbe }) }, { 'kruise-ts.io/simulate-readiness': 'fail' }));
  await k.podWhere('forced', running, 'running');
  k.nodes.setContainerReady('default', 'forced', 'app', true);
  await k.podWhere('forced', (p) => podCondition(p, 'Ready') === 'True', 'forced Ready');
});
