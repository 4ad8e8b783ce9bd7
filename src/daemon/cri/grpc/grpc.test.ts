/**
 * The CRI server as any CRI client sees it: a client built here straight from the vendored proto,
 * with the proto's own snake_case names (as a Go client's field numbers would), not client.ts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { FakeClock } from '../../../machinery/clock.js';
import { createFakeRuntime } from '../fake-runtime.js';
import { criProtoPath } from './proto.js';
import { serveCri, type CriServer } from './server.js';

const v1 = (grpc.loadPackageDefinition(loadSync(criProtoPath, { keepCase: true, longs: String, enums: String, defaults: true })) as any).runtime.v1;
const clock = new FakeClock(1_700_000_000_000); // 1.7e18 ns: exact in a double, so the int64 is checked to the digit
const runtime = createFakeRuntime({ clock });
let dir: string;
let server: CriServer;
let runtimeClient: grpc.Client;
let imageClient: grpc.Client;

function unary(client: grpc.Client, method: string, request: object = {}): Promise<any> {
  return new Promise((resolve, reject) => (client as any)[method](request, (e: grpc.ServiceError | null, r: any) => (e ? reject(e) : resolve(r))));
}
const rt = (method: string, request?: object) => unary(runtimeClient, method, request);
const img = (method: string, request?: object) => unary(imageClient, method, request);
const metadata = { name: 'web-0', uid: 'uid-1', namespace: 'default', attempt: 0 };

async function runContainer(name: string, labels: Record<string, string>, annotations: Record<string, string> = {}): Promise<string> {
  await img('PullImage', { image: { image: 'nginx:1.25' } });
  const { pod_sandbox_id } = await rt('RunPodSandbox', { config: { metadata, labels: { app: 'web' } } });
  const config = { metadata: { name, attempt: 0 }, image: { image: 'nginx:1.25' }, labels, annotations };
  const { container_id } = await rt('CreateContainer', { pod_sandbox_id, config, sandbox_config: { metadata } });
  await rt('StartContainer', { container_id });
  return container_id;
}

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cri-grpc-'));
  server = await serveCri(runtime, path.join(dir, 'node.sock'));
  runtimeClient = new v1.RuntimeService(`unix:${server.socketPath}`, grpc.credentials.createInsecure());
  imageClient = new v1.ImageService(`unix:${server.socketPath}`, grpc.credentials.createInsecure());
});

after(async () => {
  runtimeClient.close();
  imageClient.close();
  await server.close();
  assert.equal(existsSync(server.socketPath), false, 'close() removes the socket');
  await rm(dir, { recursive: true, force: true });
});

test('Version and Status answer as containerd would', async () => {
  assert.deepEqual(await rt('Version', { version: 'v1' }), { version: '0.1.0', runtime_name: 'containerd', runtime_version: 'v1.7.24', runtime_api_version: 'v1' });
  const { status } = await rt('Status', {});
  assert.deepEqual(status.conditions.map((c: any) => `${c.type}=${c.status}`), ['RuntimeReady=true', 'NetworkReady=true']);
});

test('PullImage, ListImages, ImageStatus and ImageFsInfo', async () => {
  const { image_ref } = await img('PullImage', { image: { image: 'nginx:1.25' } });
  assert.match(image_ref, /^sha256:[0-9a-f]{64}$/);
  const { images } = await img('ListImages', {});
  assert.deepEqual(images.map((i: any) => [i.id, i.repo_tags]), [[image_ref, ['docker.io/library/nginx:1.25']]]);
  assert.match(images[0].size, /^\d{8,9}$/, 'uint64 size arrives as a decimal string');
  assert.equal((await img('ImageStatus', { image: { image: 'docker.io/library/nginx:1.25' } })).image.id, image_ref);
  assert.equal((await img('ImageStatus', { image: { image: 'redis:7' } })).image, null, 'absent image: empty field, no error');
  const { image_filesystems } = await img('ImageFsInfo', {});
  assert.equal(image_filesystems[0].used_bytes.value, images[0].size);
});

test('a container: created and started with labels and annotations that round-trip, found by label selector', async () => {
  const id = await runContainer('app', { tier: 'front', 'io.kubernetes.pod.uid': 'uid-1' }, { note: 'kept', 'io.kubernetes.container.hash': 'abc' });
  const other = await runContainer('sidecar', { tier: 'back' });
  const { status } = await rt('ContainerStatus', { container_id: id });
  assert.equal(status.state, 'CONTAINER_RUNNING');
  assert.deepEqual(status.metadata, { name: 'app', attempt: 0 });
  assert.deepEqual(status.labels, { tier: 'front', 'io.kubernetes.pod.uid': 'uid-1' });
  assert.deepEqual(status.annotations, { note: 'kept', 'io.kubernetes.container.hash': 'abc' });
  assert.equal(status.created_at, '1700000000000000000');
  assert.match(status.image_ref, /^docker\.io\/library\/nginx@sha256:/);

  const front = await rt('ListContainers', { filter: { label_selector: { tier: 'front' } } });
  assert.deepEqual(front.containers.map((c: any) => c.id), [id]);
  const running = await rt('ListContainers', { filter: { state: { state: 'CONTAINER_RUNNING' } } });
  assert.deepEqual(running.containers.map((c: any) => c.id).sort(), [id, other].sort());
  const sandboxes = await rt('ListPodSandbox', { filter: { label_selector: { app: 'web' } } });
  assert.equal(sandboxes.items.length, 2);
  assert.equal((await rt('PodSandboxStatus', { pod_sandbox_id: sandboxes.items[0].id })).status.network.ip.startsWith('10.88.'), true);
});

test('GetContainerEvents streams the stop that StopContainer causes', async () => {
  const id = await runContainer('stream', { case: 'events' });
  const stream: grpc.ClientReadableStream<any> = (runtimeClient as any).GetContainerEvents({});
  await new Promise((resolve) => stream.once('metadata', resolve)); // headers: the server has subscribed
  const stopped = new Promise<any>((resolve) => stream.on('data', (e: any) => e.container_id === id && resolve(e)));
  stream.on('error', () => undefined);
  await rt('StopContainer', { container_id: id, timeout: 0 });
  const event = await stopped;
  stream.cancel();
  assert.equal(event.container_event_type, 'CONTAINER_STOPPED_EVENT');
  assert.deepEqual([event.containers_statuses[0].state, event.containers_statuses[0].exit_code], ['CONTAINER_EXITED', 137]);
  assert.equal((await rt('ContainerStatus', { container_id: id })).status.state, 'CONTAINER_EXITED');
});

test('errors keep their gRPC codes; ExecSync answers 0; what is not simulated says UNIMPLEMENTED', async () => {
  await assert.rejects(rt('ContainerStatus', { container_id: 'no-such-id' }), (e: grpc.ServiceError) =>
    e.code === grpc.status.NOT_FOUND && e.details.includes('no-such-id'));
  await assert.rejects(rt('CreateContainer', { pod_sandbox_id: 'gone', config: { metadata: { name: 'x' }, image: { image: 'nginx:1.25' } } }),
    (e: grpc.ServiceError) => e.code === grpc.status.NOT_FOUND);
  const id = await runContainer('exec', {});
  const exec = await rt('ExecSync', { container_id: id, cmd: ['cat', '/etc/hostname'], timeout: 1 });
  assert.deepEqual([exec.exit_code, exec.stdout.length, exec.stderr.length], [0, 0, 0]);
  await assert.rejects(rt('Exec', { container_id: id, cmd: ['sh'] }), (e: grpc.ServiceError) =>
    e.code === grpc.status.UNIMPLEMENTED && /RuntimeService\/Exec is not implemented/.test(e.details));
});
