import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFakeRuntime } from '../cri/fake-runtime.js';
import { serveCri, type CriServer } from '../cri/grpc/server.js';
import { discoverRuntimes } from './registry.js';

describe('runtime discovery', () => {
  let dir: string;
  let server: CriServer;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kd-'));
    await mkdir(path.join(dir, 'containerd'));
    server = await serveCri(createFakeRuntime(), path.join(dir, 'containerd', 'containerd.sock'));
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('finds the well-known socket under the var-run dir and keys the runtime by its name', async () => {
    const runtimes = await discoverRuntimes({ varRunDir: dir });
    try {
      assert.deepEqual(runtimes.names(), ['containerd']);
      const found = runtimes.forContainerId('containerd://abc');
      assert.equal(found?.id, 'abc');
      assert.equal(found?.runtimeName, 'containerd');
      assert.equal(runtimes.forContainerId('cri-o://abc'), undefined, 'unknown runtime prefix');
      assert.equal(runtimes.forContainerId('abc'), undefined, 'no prefix');
      assert.deepEqual(await runtimes.images.listImages(), []);
    } finally {
      runtimes.close();
    }
  });

  test('--socket-file relative to the var-run dir', async () => {
    const runtimes = await discoverRuntimes({ varRunDir: dir, socketFile: 'containerd/containerd.sock' });
    runtimes.close();
    assert.deepEqual(runtimes.names(), ['containerd']);
  });

  test('no usable runtime: an error naming every path tried and why', async () => {
    await writeFile(path.join(dir, 'crio.sock'), 'not a socket');
    await assert.rejects(discoverRuntimes({ varRunDir: dir, socketFile: 'missing.sock' }), /no CRI runtime found: .*missing\.sock: no such socket/);
    await assert.rejects(discoverRuntimes({ varRunDir: dir, socketFile: 'crio.sock' }), /no CRI runtime found: .*crio\.sock: /);
  });
});
