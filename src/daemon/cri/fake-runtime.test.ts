import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, flush } from '../../machinery/clock.js';
import { createFakeRuntime } from './fake-runtime.js';
import { FakeAnnotations } from './fake-container.js';
import { isCriNotFound, type CriError } from './services.js';
import type { AuthConfig, ContainerEventResponse, PodSandboxConfig } from './types.js';

const sandboxConfig: PodSandboxConfig = {
  metadata: { name: 'web-0', namespace: 'default', uid: 'uid-1', attempt: 0 },
  labels: { 'io.kubernetes.pod.uid': 'uid-1' },
};

async function runningContainer(rt: ReturnType<typeof createFakeRuntime>, annotations: Record<string, string> = {}) {
  await rt.pullImage({ image: 'nginx' });
  const sandbox = await rt.runPodSandbox(sandboxConfig);
  const id = await rt.createContainer(sandbox, { metadata: { name: 'app', attempt: 0 }, image: { image: 'nginx' }, labels: { 'io.kubernetes.pod.uid': 'uid-1' }, annotations }, sandboxConfig);
  await rt.startContainer(id);
  return { sandbox, id };
}

test('an image is pulled once per runtime, concurrent pulls share the pull and take pullDelayMs', async () => {
  const clock = new FakeClock();
  const rt = createFakeRuntime({ clock, pullDelayMs: 5000 });
  let done = 0;
  const pulls = [rt.pullImage({ image: 'nginx:1.25' }), rt.pullImage({ image: 'docker.io/library/nginx:1.25' })].map((p) => p.then((ref) => { done++; return ref; }));
  await flush();
  clock.advance(4999);
  await flush();
  assert.equal(done, 0);
  clock.advance(1);
  const [a, b] = await Promise.all(pulls);
  assert.equal(a, b);
  assert.match(a, /^sha256:[0-9a-f]{64}$/);
  assert.equal(await rt.pullImage({ image: 'nginx:1.25' }), a);
  assert.equal(rt.pullCount(), 1);
  const [image] = await rt.listImages();
  assert.deepEqual(image.repoTags, ['docker.io/library/nginx:1.25']);
  assert.match(image.repoDigests[0], /^docker\.io\/library\/nginx@sha256:/);
  assert.equal(await rt.imageStatus({ image: 'nginx:1.26' }), undefined);
});

test('concurrent pulls with other credentials do not share: each is refused or served for its own', async () => {
  const clock = new FakeClock();
  const registry = { digestOf: () => undefined, pullError: (_: string, auth?: AuthConfig) => (auth?.password === 's3cret' ? undefined : 'denied') };
  const rt = createFakeRuntime({ clock, pullDelayMs: 1000, registry });
  const anonymous = rt.pullImage({ image: 'private.example.com/app:1' }).then(() => 'pulled', (e: Error) => e.message);
  const right = rt.pullImage({ image: 'private.example.com/app:1' }, { username: 'robot', password: 's3cret' });
  const wrong = rt.pullImage({ image: 'private.example.com/app:1' }, { username: 'robot', password: 'guess' }).then(() => 'pulled', (e: Error) => e.message);
  await flush();
  clock.advance(1000);
  assert.deepEqual(await Promise.all([anonymous, wrong]), Array(2).fill('failed to pull and unpack image "private.example.com/app:1": denied'));
  assert.match(await right, /^sha256:/);
  assert.equal(rt.pullCount(), 3);
});

test('containers get fresh ids, start after startDelayMs and report CRI status', async () => {
  const clock = new FakeClock();
  const rt = createFakeRuntime({ clock, startDelayMs: 1000 });
  await rt.pullImage({ image: 'nginx' });
  const sandbox = await rt.runPodSandbox(sandboxConfig);
  assert.match((await rt.podSandboxStatus(sandbox)).network!.ip, /^10\.88\./);
  const id = await rt.createContainer(sandbox, { metadata: { name: 'app', attempt: 0 }, image: { image: 'nginx' } }, sandboxConfig);
  const other = await rt.createContainer(sandbox, { metadata: { name: 'app', attempt: 1 }, image: { image: 'nginx' } }, sandboxConfig);
  assert.match(id, /^[0-9a-f]{64}$/);
  assert.notEqual(id, other);
  const started = rt.startContainer(id);
  await flush();
  assert.equal((await rt.containerStatus(id)).state, 'CONTAINER_CREATED');
  clock.advance(1000);
  await started;
  const status = await rt.containerStatus(id);
  assert.equal(status.state, 'CONTAINER_RUNNING');
  assert.equal(status.startedAt, clock.now() * 1e6);
  assert.match(status.imageRef, /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
  await assert.rejects(rt.createContainer(sandbox, { metadata: { name: 'x', attempt: 0 }, image: { image: 'redis' } }, sandboxConfig), /not found/);
});

test('stopContainer: SIGKILL (137) after the timeout when SIGTERM is ignored; 0 when the process honours it', async () => {
  const clock = new FakeClock();
  const rt = createFakeRuntime({ clock });
  const { id } = await runningContainer(rt);
  let stopped = false;
  const stop = rt.stopContainer(id, 30).then(() => { stopped = true; });
  clock.advance(10_000);
  await flush();
  assert.equal(stopped, false);
  const again = rt.stopContainer(id, 1); // a second, shorter timeout wins (kubectl delete --grace-period=1)
  clock.advance(999);
  await flush();
  assert.equal(stopped, false);
  clock.advance(1);
  await Promise.all([stop, again]);
  const s = await rt.containerStatus(id);
  assert.deepEqual([s.state, s.exitCode, s.reason], ['CONTAINER_EXITED', 137, 'Error']);

  const polite = await runningContainer(rt, { [FakeAnnotations.terminationMs]: '500' });
  const p = rt.stopContainer(polite.id, 30);
  clock.advance(500);
  await p;
  const ps = await rt.containerStatus(polite.id);
  assert.deepEqual([ps.exitCode, ps.reason], [0, 'Completed']);
});

test('execSync succeeds silently in a running container; an unknown or exited one fails as containerd says', async () => {
  const rt = createFakeRuntime({ clock: new FakeClock() });
  const { id } = await runningContainer(rt);
  const answer = await rt.execSync(id, ['cat', '/etc/hostname'], 1);
  assert.deepEqual([answer.exitCode, answer.stdout.length, answer.stderr.length], [0, 0, 0]);
  await assert.rejects(rt.execSync('nope', ['true'], 1), (e) => isCriNotFound(e) && /failed to find container "nope" in store: not found/.test((e as Error).message));
  await rt.stopContainer(id, 0);
  await assert.rejects(rt.execSync(id, ['true'], 1), (e: CriError) => e.code === 'Unknown' && e.message === 'failed to exec in container: container is in CONTAINER_EXITED state');
});

test('scripted exit and container events', async () => {
  const clock = new FakeClock();
  const rt = createFakeRuntime({ clock });
  const events: ContainerEventResponse[] = [];
  const unsubscribe = rt.getContainerEvents((e) => events.push(e));
  const { id, sandbox } = await runningContainer(rt, { [FakeAnnotations.runMs]: '3000', [FakeAnnotations.exitCode]: '2' });
  clock.advance(3000);
  const s = await rt.containerStatus(id);
  assert.deepEqual([s.state, s.exitCode, s.finishedAt - s.startedAt], ['CONTAINER_EXITED', 2, 3000 * 1e6]);
  assert.deepEqual(events.map((e) => e.containerEventType), ['CONTAINER_CREATED_EVENT', 'CONTAINER_STARTED_EVENT', 'CONTAINER_STOPPED_EVENT']);
  assert.equal((await rt.listContainers({ labelSelector: { 'io.kubernetes.pod.uid': 'uid-1' } })).length, 1);
  await rt.removePodSandbox(sandbox);
  assert.equal(events.at(-1)!.containerEventType, 'CONTAINER_DELETED_EVENT');
  unsubscribe();
  await assert.rejects(rt.containerStatus(id), (e) => isCriNotFound(e));
  assert.deepEqual(await rt.listPodSandbox(), []);
});

test('sandboxes use the pod CIDR from UpdateRuntimeConfig and release IPs when stopped', async () => {
  const rt = createFakeRuntime({ clock: new FakeClock() });
  await rt.updateRuntimeConfig({ networkConfig: { podCidr: '10.244.7.0/24' } });
  const a = await rt.runPodSandbox(sandboxConfig);
  const b = await rt.runPodSandbox({ ...sandboxConfig, metadata: { ...sandboxConfig.metadata, uid: 'uid-2' } });
  const ipA = (await rt.podSandboxStatus(a)).network!.ip;
  assert.equal(ipA, '10.244.7.2');
  assert.equal((await rt.podSandboxStatus(b)).network!.ip, '10.244.7.3');
  await rt.stopPodSandbox(a);
  assert.equal((await rt.podSandboxStatus(a)).state, 'SANDBOX_NOTREADY');
  assert.throws(() => createFakeRuntime({ pullDelayMs: -1 }), /non-negative/);
});
