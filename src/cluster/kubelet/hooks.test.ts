import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Pods } from '../../api/resource-type.js';
import { isNotFound } from '../../machinery/errors.js';
import { containerNamed, podObject, startKubeletEnv, type KubeletEnv } from '../../testing/kubelet-env.js';
import type { Container, Pod } from '../../api/core/index.js';

let k: KubeletEnv;

before(async () => {
  k = await startKubeletEnv();
});

after(() => k.stop());

const withHooks = (lifecycle: Container['lifecycle'], name = 'app'): Container => ({ name, image: 'nginx:1.25', lifecycle });
const state = (p: Pod, name = 'app') => containerNamed(p, name)?.state ?? {};
const gone = (name: string) => k.getPod(name).then(() => false, (e: unknown) => isNotFound(e));

test('postStart: the container is not running until its hook finished, and it holds the next container', async () => {
  const containers = [withHooks({ postStart: { exec: { command: ['sh', '-c', 'warm-up'] } } }), { name: 'second', image: 'busybox:1.36', command: ['sleep', 'infinity'] }];
  await k.client.create(Pods, podObject(k.node, 'warm', { containers }, { 'kruise-ts.io/simulate-poststart-seconds.app': '5' }));
  let pod = await k.podWhere('warm', (p) => !!p.status?.podIP, 'sandbox');
  assert.equal(state(pod).waiting?.reason, 'ContainerCreating');
  assert.equal(state(pod, 'second').waiting?.reason, 'ContainerCreating', 'the hook holds the next container');
  assert.equal(pod.status!.phase, 'Pending');
  const took = await k.advanceUntil('warm', (p) => !!state(p).running && !!state(p, 'second').running, 'both running', 10_000);
  assert.ok(took >= 5000 && took < 6000, `running after ${took} ms`);
  pod = await k.getPod('warm');
  assert.deepEqual([pod.status!.phase, containerNamed(pod, 'app')!.ready, containerNamed(pod, 'app')!.started], ['Running', true, true]);
});

test('a failing postStart hook kills the container with FailedPostStartHook; it restarts per restartPolicy', async () => {
  const hook = { postStart: { httpGet: { path: '/started', port: 8080 } } };
  await k.client.create(Pods, podObject(k.node, 'badhook', { containers: [withHooks(hook)] }, { 'kruise-ts.io/simulate-poststart': 'fail' }));
  await k.advanceUntil('badhook', (p) => (containerNamed(p, 'app')?.restartCount ?? 0) >= 1, 'restarted', 5000);
  const events = await k.events('badhook');
  assert.ok(events.includes('Warning FailedPostStartHook: PostStartHook failed'), events.join('\n'));
  assert.ok(events.includes('Normal Killing: FailedPostStartHook'), events.join('\n'));
  // the second failure backs off: waiting CrashLoopBackOff
  await k.advanceUntil('badhook', (p) => state(p).waiting?.reason === 'CrashLoopBackOff', 'back-off', 5000);
  assert.equal(containerNamed(await k.getPod('badhook'), 'app')!.ready, false);
});

test('a failed postStart hook under restartPolicy Never leaves the container terminated', async () => {
  const hook = { postStart: { exec: { command: ['false'] } } };
  await k.client.create(Pods, podObject(k.node, 'badonce', { containers: [withHooks(hook)], restartPolicy: 'Never' }, { 'kruise-ts.io/simulate-poststart.app': 'fail' }));
  const pod = await k.podWhere('badonce', (p) => !!state(p).terminated, 'terminated');
  assert.equal(containerNamed(pod, 'app')!.restartCount, 0);
});

test('preStop runs before SIGTERM within the grace period', async () => {
  const hook = { preStop: { exec: { command: ['drain'] } } };
  await k.client.create(Pods, podObject(k.node, 'drain', { containers: [withHooks(hook)], terminationGracePeriodSeconds: 30 }, { 'kruise-ts.io/simulate-prestop-seconds': '5' }));
  await k.podWhere('drain', (p) => !!state(p).running, 'running');
  await k.client.delete(Pods, 'default', 'drain');
  let took = 0;
  while (!(await gone('drain'))) {
    assert.ok(took < 10_000, 'gone within 10 s');
    await k.advance(250);
    took += 250;
  }
  assert.ok(took >= 5000 && took <= 6000, `deleted after ${took} ms: the 5 s hook, then an immediate exit`);
  assert.ok((await k.events('drain')).includes('Normal Killing: Stopping container app'));
});

test('a preStop hook longer than the grace period is cut off, then SIGTERM gets 2 s', async () => {
  const hook = { preStop: { sleep: { seconds: 600 } } };
  await k.client.create(Pods, podObject(k.node, 'stubborn', { containers: [withHooks(hook)], terminationGracePeriodSeconds: 10 }, { 'kruise-ts.io/simulate-termination-seconds': '3600' }));
  await k.podWhere('stubborn', (p) => !!state(p).running, 'running');
  await k.client.delete(Pods, 'default', 'stubborn');
  let took = 0;
  while (!(await gone('stubborn'))) {
    assert.ok(took < 20_000, 'gone within 20 s');
    await k.advance(250);
    took += 250;
  }
  assert.ok(took >= 12_000 && took <= 13_000, `deleted after ${took} ms: hook cut at 10 s, SIGKILL 2 s later`);
});

test('a failing preStop hook is reported and the container still stops', async () => {
  const hook = { preStop: { httpGet: { path: '/quit', port: 8080 } } };
  await k.client.create(Pods, podObject(k.node, 'badstop', { containers: [withHooks(hook)] }, { 'kruise-ts.io/simulate-prestop': 'fail', 'kruise-ts.io/simulate-prestop-seconds': '1' }));
  await k.podWhere('badstop', (p) => !!state(p).running, 'running');
  await k.client.delete(Pods, 'default', 'badstop');
  await k.advance(2000);
  assert.ok(await gone('badstop'));
  assert.ok((await k.events('badstop')).includes('Warning FailedPreStopHook: PreStopHook failed'));
});
