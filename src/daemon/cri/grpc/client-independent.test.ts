/**
 * connectCri (what kruise-daemon uses) against a CRI server written here straight from the vendored
 * proto, with canned containerd-like answers in the proto's snake_case and int64 strings: not our
 * server, not our fake runtime, so a mistake shared by our client and our simulator cannot hide.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { criProtoPath } from './proto.js';
import { connectCri, type CriClient } from './client.js';
import { CriError } from '../services.js';

const v1 = (grpc.loadPackageDefinition(loadSync(criProtoPath, { keepCase: true, longs: String, enums: String, defaults: true })) as any).runtime.v1;
type Call = grpc.ServerUnaryCall<any, any>;
type Done = grpc.sendUnaryData<any>;

const received: Record<string, any> = {};
const answer = (name: string, reply: (request: any) => any) => (call: Call, done: Done) => {
  received[name] = call.request;
  try {
    done(null, reply(call.request));
  } catch (e) {
    done(e as grpc.ServiceError);
  }
};
const container = {
  id: 'c0ffee', pod_sandbox_id: 'sb1', metadata: { name: 'app', attempt: 2 }, image: { image: 'docker.io/library/nginx:1.25' },
  image_ref: 'sha256:abc', state: 'CONTAINER_RUNNING', created_at: '1700000000123456789', labels: { 'io.kubernetes.pod.name': 'web-0' }, annotations: { 'io.kubernetes.container.restartCount': '2' },
};

let dir: string;
let server: grpc.Server;
let cri: CriClient;

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cri-independent-'));
  server = new grpc.Server();
  server.addService(v1.RuntimeService.service, {
    Version: answer('Version', () => ({ version: '0.1.0', runtime_name: 'containerd', runtime_version: 'v1.7.20', runtime_api_version: 'v1' })),
    ListContainers: answer('ListContainers', () => ({ containers: [container] })),
    ContainerStatus: answer('ContainerStatus', (r) => {
      if (r.container_id !== container.id) throw Object.assign(new Error(`an error occurred when try to find container "${r.container_id}": not found`), { code: grpc.status.NOT_FOUND });
      return { status: { ...container, started_at: '1700000001000000000', finished_at: '0', exit_code: 0, reason: '', message: '' } };
    }),
    StopContainer: answer('StopContainer', () => ({})),
    ExecSync: answer('ExecSync', () => ({ stdout: Buffer.from('X=v2\n'), stderr: Buffer.alloc(0), exit_code: 3 })),
  });
  server.addService(v1.ImageService.service, {
    ListImages: answer('ListImages', () => ({ images: [{ id: 'sha256:abc', repo_tags: ['docker.io/library/nginx:1.25'], repo_digests: [], size: '1234567890123' }] })),
    PullImage: answer('PullImage', (r) => ({ image_ref: `sha256:${r.image.image.length}` })),
  });
  const socket = path.join(dir, 'containerd.sock');
  await new Promise<void>((resolve, reject) => server.bindAsync(`unix:${socket}`, grpc.ServerCredentials.createInsecure(), (e) => (e ? reject(e) : resolve())));
  cri = connectCri(socket);
});

after(async () => {
  cri.close();
  await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

test('Version: runtimeName is what the daemon keys runtimes by', async () => {
  const v = await cri.version();
  assert.equal(v.runtimeName, 'containerd');
  assert.equal(v.runtimeApiVersion, 'v1');
});

test('ListContainers and ContainerStatus: names, attempt, state, labels and int64 timestamps read as sent', async () => {
  const [c] = await cri.listContainers({ labelSelector: { 'io.kubernetes.pod.name': 'web-0' } });
  assert.equal(c!.id, 'c0ffee');
  assert.equal(c!.metadata?.name, 'app');
  assert.equal(c!.metadata?.attempt, 2);
  assert.equal(c!.state, 'CONTAINER_RUNNING');
  assert.equal(Number(c!.createdAt), 1700000000123456789);
  assert.deepEqual(received.ListContainers.filter.label_selector, { 'io.kubernetes.pod.name': 'web-0' });
  const s = await cri.containerStatus('c0ffee');
  assert.equal(s.annotations?.['io.kubernetes.container.restartCount'], '2');
  assert.equal(Number(s.startedAt), 1700000001000000000);
  await assert.rejects(cri.containerStatus('nope'), (e: unknown) => e instanceof CriError && e.code === 'NotFound');
});

test('StopContainer sends the id and the grace in seconds; ExecSync returns stdout and the exit code', async () => {
  await cri.stopContainer('c0ffee', 30);
  assert.deepEqual({ id: received.StopContainer.container_id, timeout: String(received.StopContainer.timeout) }, { id: 'c0ffee', timeout: '30' });
  const r = await cri.execSync!('c0ffee', ['env'], 3);
  assert.equal(Buffer.from(r.stdout).toString(), 'X=v2\n');
  assert.equal(r.exitCode, 3);
  assert.deepEqual(received.ExecSync.cmd, ['env']);
  assert.equal(String(received.ExecSync.timeout), '3');
});

test('PullImage carries the credentials; ListImages reads repo tags and an int64 size', async () => {
  const ref = await cri.pullImage({ image: 'docker.io/library/redis:7.2' }, { username: 'u', password: 'p', serverAddress: 'docker.io' });
  assert.equal(ref, 'sha256:27');
  assert.deepEqual({ user: received.PullImage.auth.username, server: received.PullImage.auth.server_address }, { user: 'u', server: 'docker.io' });
  const [image] = await cri.listImages();
  assert.deepEqual(image!.repoTags, ['docker.io/library/nginx:1.25']);
  assert.equal(Number(image!.size), 1234567890123);
});
