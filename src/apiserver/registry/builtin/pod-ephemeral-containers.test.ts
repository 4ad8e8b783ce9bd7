import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Pods } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { createInProcessClient } from '../../../client/in-process-client.js';
import { startTestControlPlane, type TestControlPlane } from '../../../testing/control-plane.js';
import { apiClientFromKubeconfig, type ApiClient } from '../../../testing/process.js';
import type { Pod } from '../../../api/core/index.js';

let env: TestControlPlane;
let client: Client;
let api: ApiClient;
const path = '/api/v1/namespaces/default/pods/dbg/ephemeralcontainers';

before(async () => {
  env = await startTestControlPlane();
  client = createInProcessClient(env.plane.handler);
  api = await apiClientFromKubeconfig(env.kubeconfig);
});

after(() => env.stop());

const debug = { name: 'debugger', image: 'busybox:1.36', targetContainerName: 'app' };

test('pods/ephemeralcontainers adds an ephemeral container and nothing else', async () => {
  await client.create(Pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'dbg', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] } });
  const patched = await client.patch<Pod>(Pods, 'default', 'dbg', 'strategic', {
    metadata: { labels: { ignored: 'yes' } },
    spec: { ephemeralContainers: [debug], activeDeadlineSeconds: 5 },
  }, { subresource: 'ephemeralcontainers' });
  const [added] = patched.spec.ephemeralContainers!;
  assert.deepEqual([added.name, added.targetContainerName, added.terminationMessagePolicy], ['debugger', 'app', 'File']);
  assert.equal(patched.metadata.labels?.ignored, undefined);
  assert.equal(patched.spec.activeDeadlineSeconds, undefined);
  const read = await api.request('GET', path);
  assert.deepEqual([read.status, read.body.kind, read.body.spec.ephemeralContainers.length], [200, 'Pod', 1]);
});

test('existing ephemeral containers may be neither changed nor removed', async () => {
  const pod = await client.get<Pod>(Pods, 'default', 'dbg');
  const changed = structuredClone(pod);
  changed.spec.ephemeralContainers![0].image = 'alpine:3';
  const refused = await api.request('PUT', path, changed);
  assert.equal(refused.status, 422);
  assert.match(refused.body.message, /existing ephemeral containers "debugger" may not be changed/);
  const removed = structuredClone(pod);
  removed.spec.ephemeralContainers = [];
  assert.match((await api.request('PUT', path, removed)).body.message, /may not be removed/);
  const more = structuredClone(pod);
  more.spec.ephemeralContainers!.push({ name: 'second', image: 'busybox:1.36' });
  const added = await api.request('PUT', path, more);
  assert.deepEqual([added.status, added.body.spec.ephemeralContainers.map((c: { name: string }) => c.name)], [200, ['debugger', 'second']]);
});
