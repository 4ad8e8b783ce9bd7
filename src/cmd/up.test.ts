/** `kruise up --no-kruise-manager`: the plane without Kruise controllers and webhooks, then a separate manager attached. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CloneSets } from '../api/kruise/resource-types.js';
import { Pods } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { createHttpClient } from '../client/index.js';
import { startManagerProcess, stopChild, type ManagerProcess } from '../testing/process.js';
import { startUp, type RunningUp } from './up.js';

const cloneSet = {
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } } },
};

let dir: string;
let up: RunningUp;
let client: Client;
let manager: ManagerProcess | undefined;

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-up-test-'));
  up = await startUp({
    dataDir: dir, port: 0, host: '127.0.0.1', nodes: 1, inMemory: true, pullDelayMs: 0, startDelayMs: 0,
    featureGates: '', logLevel: 'error', webhookPort: 0, kruiseManager: false,
  });
  client = createHttpClient({ kubeconfigPath: up.kubeconfigPath });
});

after(async () => {
  if (manager) await stopChild(manager.child);
  await up.stop();
  await rm(dir, { recursive: true, force: true });
});

test('without the in-process manager the CRDs are served but no Kruise webhook answers; an attached `kruise manager` takes over', async () => {
  assert.deepEqual((await client.list(CloneSets, { namespace: 'default' })).items, [], 'the CloneSet CRD is installed');
  await assert.rejects(client.create(CloneSets, cloneSet, { dryRun: true }), /failed calling webhook/, 'nobody serves the CloneSet webhooks yet');
  manager = await startManagerProcess(up.kubeconfigPath, path.join(dir, 'certs'));
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await client.create(CloneSets, cloneSet);
      break;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 200)); // until the API server uses the manager's webhook configuration
    }
  }
  for (;;) {
    const pods = (await client.list(Pods, { namespace: 'default', labelSelector: 'app=web' })).items;
    if (pods.length === 1) break;
    if (Date.now() > deadline) throw new Error('the attached manager created no pod');
    await new Promise((r) => setTimeout(r, 100));
  }
});
