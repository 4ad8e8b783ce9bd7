/** pods/log on the embedded server (docs/design/simulated-nodes.md §11): the simulated line, and kube's 400s. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { apiClientFromKubeconfig, type ApiClient } from '../../../testing/process.js';
import { startTestControlPlane, type TestControlPlane } from '../../../testing/control-plane.js';

let env: TestControlPlane;
let api: ApiClient;
const base = '/api/v1/namespaces/default/pods';

before(async () => {
  env = await startTestControlPlane();
  api = await apiClientFromKubeconfig(env.kubeconfig);
  const pod = (name: string, containers: string[]) => ({ metadata: { name }, spec: { containers: containers.map((c) => ({ name: c, image: 'nginx' })) } });
  for (const [name, containers] of [['one', ['app']], ['two', ['web', 'side']]] as const) {
    assert.equal((await api.request('POST', base, pod(name, [...containers]))).status, 201);
  }
  const running = { running: { startedAt: '2025-01-01T00:00:00Z' } };
  const status = {
    phase: 'Running',
    containerStatuses: [
      { name: 'web', state: running, lastState: { terminated: { exitCode: 1, containerID: 'containerd://old' } }, ready: true, restartCount: 1, image: 'nginx', imageID: '', containerID: 'containerd://new' },
      { name: 'side', state: { waiting: { reason: 'ImagePullBackOff' } }, lastState: {}, ready: false, restartCount: 0, image: 'nginx', imageID: '' },
    ],
  };
  assert.equal((await api.request('PATCH', `${base}/two/status`, { status }, { 'content-type': 'application/merge-patch+json' })).status, 200);
});

after(async () => {
  await env.stop();
});

const cases: [string, string, number, string][] = [
  ['a running container', 'two/log?container=web', 200, '[kruise-ts] simulated container web of pod default/two: no real process, no output\n'],
  ['the previous attempt', 'two/log?container=web&previous=true', 200, '[kruise-ts] simulated container web of pod default/two: no real process, no output\n'],
  ['no previous attempt', 'two/log?container=side&previous=true', 400, 'previous terminated container "side" in pod "two" not found'],
  ['an image that cannot be pulled', 'two/log?container=side', 400, 'container "side" in pod "two" is waiting to start: trying and failing to pull image'],
  ['several containers and none named', 'two/log', 400, 'a container name must be specified for pod two, choose one of: [web side]'],
  ['an unknown container', 'two/log?container=nope', 400, 'container nope is not valid for pod two'],
  ['a container not started yet', 'one/log', 400, 'container "app" in pod "one" is waiting to start - no logs yet'],
  ['a pod that does not exist', 'gone/log', 404, 'pods "gone" not found'],
];

for (const [name, path, code, expected] of cases) {
  test(`pods/log: ${name}`, async () => {
    const r = await api.request('GET', `${base}/${path}`);
    assert.equal(r.status, code, r.text);
    assert.equal(code === 200 ? r.text : r.body.message, expected);
  });
}
