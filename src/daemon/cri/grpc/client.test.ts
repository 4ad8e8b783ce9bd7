/**
 * connectCri against serveCri over the fake runtime: what the client reads over the socket equals
 * what the runtime answers in-process, errors come back as the same CriErrors, and the socket
 * file's life (stale file, long path, close) is handled.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FakeClock } from '../../../machinery/clock.js';
import { createFakeRuntime } from '../fake-runtime.js';
import { CriError, isCriNotFound } from '../services.js';
import type { ContainerEventResponse, PodSandboxConfig } from '../types.js';
import { connectCri, type CriClient } from './client.js';
import { serveCri, type CriServer } from './server.js';

const clock = new FakeClock(Date.now()); // any ms: ns timestamps past 2^53 must survive the trip as the runtime's own numbers
const runtime = createFakeRuntime({ clock });
let subscribed: () => void;
const serverSubscribed = new Promise<void>((resolve) => { subscribed = resolve; });
// The server's subscription, observed, so the test knows when the stream is live.
const observed = { ...runtime, getContainerEvents: (l: (e: ContainerEventResponse) => void) => { subscribed(); return runtime.getContainerEvents(l); } };
const sandboxConfig: PodSandboxConfig = { metadata: { name: 'web-0', uid: 'uid-1', namespace: 'default', attempt: 0 }, labels: { app: 'web' }, hostname: 'web-0' };
let dir: string;
let server: CriServer;
/** Equal as values: an absent field and one set to undefined (as the fake leaves some) read alike. */
const sameValue = (actual: unknown, expected: unknown) => assert.deepEqual(JSON.parse(JSON.stringify(actual)), JSON.parse(JSON.stringify(expected)));
let client: CriClient;

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cri-client-'));
  server = await serveCri(observed, path.join(dir, 'node.sock'));
  client = connectCri(server.socketPath);
});

after(async () => {
  client.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

test('what the client reads equals what the runtime answers in-process', async () => {
  sameValue(await client.version(), await runtime.version());
  const ref = await client.pullImage({ image: 'nginx:1.25' }, { username: 'u', password: 'p' });
  sameValue(await client.listImages(), await runtime.listImages());
  sameValue(await client.imageStatus({ image: 'nginx:1.25' }), await runtime.imageStatus({ image: ref }));
  assert.equal(await client.imageStatus({ image: 'redis:7' }), undefined);

  const sandbox = await client.runPodSandbox(sandboxConfig);
  sameValue(await client.podSandboxStatus(sandbox), await runtime.podSandboxStatus(sandbox));
  sameValue(await client.listPodSandbox({ labelSelector: { app: 'web' }, state: 'SANDBOX_READY' }), await runtime.listPodSandbox());
  assert.deepEqual(await client.listPodSandbox({ state: 'SANDBOX_NOTREADY' }), []);

  const config = { metadata: { name: 'app', attempt: 1 }, image: { image: 'nginx:1.25' }, command: ['nginx'], envs: [{ key: 'A', value: '1' }], labels: { c: 'app' }, annotations: { n: '1' } };
  const id = await client.createContainer(sandbox, config, sandboxConfig);
  await client.startContainer(id);
  const status = await client.containerStatus(id);
  sameValue(status, await runtime.containerStatus(id));
  assert.equal(status.createdAt, clock.now() * 1_000_000);
  sameValue(await client.listContainers({ labelSelector: { c: 'app' } }), await runtime.listContainers());
  assert.deepEqual(await client.listContainers({ state: 'CONTAINER_EXITED' }), []);

  await client.updateRuntimeConfig({ networkConfig: { podCidr: '10.244.7.0/24' } });
  const next = await client.runPodSandbox({ ...sandboxConfig, metadata: { ...sandboxConfig.metadata, uid: 'uid-2' } });
  assert.match((await client.podSandboxStatus(next)).network!.ip, /^10\.244\.7\./);
});

test('container events arrive through the client; stop and removal reach the runtime', async () => {
  await client.pullImage({ image: 'busybox' });
  const sandbox = await client.runPodSandbox(sandboxConfig);
  const id = await client.createContainer(sandbox, { metadata: { name: 'job', attempt: 0 }, image: { image: 'busybox' } }, sandboxConfig);
  const events: ContainerEventResponse[] = [];
  const unsubscribe = client.getContainerEvents((e) => events.push(e));
  await serverSubscribed;
  await client.startContainer(id);
  await client.stopContainer(id, 0);
  while (events.filter((e) => e.containerId === id).length < 2) await new Promise((r) => setImmediate(r));
  unsubscribe();
  assert.deepEqual(events.filter((e) => e.containerId === id).map((e) => e.containerEventType), ['CONTAINER_STARTED_EVENT', 'CONTAINER_STOPPED_EVENT']);
  assert.equal(events.at(-1)!.containersStatuses[0].exitCode, 137);
  await client.removePodSandbox(sandbox);
  await assert.rejects(runtime.containerStatus(id), isCriNotFound);
  await client.removeImage({ image: 'busybox' });
  assert.equal(await runtime.imageStatus({ image: 'busybox' }), undefined);
});

test('errors come back as CriErrors with the gRPC code name', async () => {
  await assert.rejects(client.containerStatus('no-such-id'), (e) => isCriNotFound(e) && (e as Error).message.includes('no-such-id'));
  await assert.rejects(client.startContainer('no-such-id'), (e) => e instanceof CriError && e.code === 'NotFound');
  const nobody = connectCri(path.join(dir, 'nobody.sock'));
  await assert.rejects(nobody.version(), (e) => e instanceof CriError && e.code === 'Unavailable');
  nobody.close();
});

test('socket files: a stale socket is replaced, anything else refused, a too long path shortened', async () => {
  const stale = path.join(dir, 'stale.sock');
  // A process killed while listening leaves its socket file behind (SIGKILL skips the unlink).
  spawnSync(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(stale)}, () => process.kill(process.pid, 'SIGKILL'))`]);
  assert.equal(existsSync(stale), true);
  const replaced = await serveCri(runtime, stale);
  const viaStale = connectCri(stale);
  assert.deepEqual(await viaStale.version(), await runtime.version());
  viaStale.close();
  await replaced.close();

  const notSocket = path.join(dir, 'file.sock');
  await writeFile(notSocket, 'data');
  await assert.rejects(serveCri(runtime, notSocket), /not a socket/);

  const long = path.join(dir, 'd'.repeat(120), 'node.sock');
  const shortened = await serveCri(runtime, long);
  assert.ok(shortened.socketPath.startsWith(os.tmpdir()) && Buffer.byteLength(shortened.socketPath) < 107, shortened.socketPath);
  const viaLong = connectCri(long);
  assert.equal((await viaLong.version()).runtimeName, 'containerd');
  viaLong.close();
  await shortened.close();
  assert.equal(existsSync(shortened.socketPath), false);
});
