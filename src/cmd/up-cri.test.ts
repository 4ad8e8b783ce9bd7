/** `kruise up` serves each simulated node's runtime at `<data-dir>/cri/<node>.sock`, owner-only, gone on stop. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connectCri } from '../daemon/cri/grpc/client.js';
import { startUp } from './up.js';

test('kruise up: a CRI socket per node in <data-dir>/cri (mode 0700), removed on stop', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-up-cri-'));
  const up = await startUp({
    dataDir: dir, port: 0, host: '127.0.0.1', nodes: 2, inMemory: true, pullDelayMs: 0, startDelayMs: 0,
    featureGates: '', logLevel: 'error', webhookPort: 0, kruiseManager: false,
  });
  const sockets = ['kruise-node-0', 'kruise-node-1'].map((node) => path.join(dir, 'cri', `${node}.sock`));
  try {
    assert.equal((await stat(path.join(dir, 'cri'))).mode & 0o777, 0o700);
    for (const socket of sockets) {
      const cri = connectCri(socket);
      assert.deepEqual([(await cri.version()).runtimeName, await cri.listContainers()], ['containerd', []]);
      cri.close();
    }
  } finally {
    await up.stop();
  }
  assert.deepEqual(sockets.filter((s) => existsSync(s)), []);
  await rm(dir, { recursive: true, force: true });
});
