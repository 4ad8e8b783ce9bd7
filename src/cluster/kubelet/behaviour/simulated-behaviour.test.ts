/**
 * The behaviour through a simulated kubelet on the fake clock (§9, §10): commands end pods on
 * time, a bad annotation is one container's CreateContainerConfigError, pull secrets open private
 * registries, rules delay starts and make readiness flap, shared digests give equal imageIDs.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Pods, Secrets } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { createInProcessClient } from '../../../client/in-process-client.js';
import { FakeClock, flush } from '../../../machinery/clock.js';
import { startTestControlPlane, type TestControlPlane } from '../../../testing/control-plane.js';
import { createSimulatedNodes, type SimulatedNodes } from '../index.js';
import { parseNodeBehaviour } from './behaviour-file.js';
import type { KObject } from '../../../api/meta.js';
import type { Pod } from '../../../api/core/index.js';

let env: TestControlPlane;
let client: Client;
let nodes: SimulatedNodes;
const clock = new FakeClock(Date.now());

const behaviour = parseNodeBehaviour(`
apiVersion: kruise-ts.io/v1alpha1
kind: NodeBehaviour
rules:
  - name: slow-start
    select: { podSelector: speed=slow }
    set: { startDelaySeconds: 3 }
  - name: flaky
    select: { podSelector: app=flaky }
    set: { readinessFlaps: { readySeconds: 4, unreadySeconds: 2 } }
images:
  - { image: "nginx:stable", sameDigestAs: "nginx:1.27" }
  - { image: "private.example.com/*", auth: { username: robot, password: s3cret } }
`, 'test');

const get = (name: string) => client.get<Pod>(Pods, 'default', name);
const main = (p: Pod) => p.status?.containerStatuses?.[0];
const ready = (p: Pod) => !!p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');

async function eventually<T>(what: string, check: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Fake time in 100 ms steps until the pod satisfies `ok`; returns the fake time that took. */
async function advanceUntil(name: string, ok: (p: Pod) => boolean, maxMs = 20_000): Promise<number> {
  for (let elapsed = 0; ; elapsed += 100) {
    if (ok(await get(name))) return elapsed;
    if (elapsed >= maxMs) throw new Error(`${name}: not reached within ${maxMs} ms of fake time`);
    clock.advance(100);
    await flush();
    await new Promise((r) => setTimeout(r, 2));
  }
}

function pod(name: string, spec: Partial<Pod['spec']>, meta: Partial<Pod['metadata']> = {}): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', ...meta }, spec: { nodeName: 'behave-0', containers: [{ name: 'app', image: 'busybox:1.36' }], ...spec } };
}

before(async () => {
  env = await startTestControlPlane();
  client = createInProcessClient(env.plane.handler);
  nodes = createSimulatedNodes({ client, count: 1, namePrefix: 'behave-', clock, behaviour });
  await nodes.start();
});

after(async () => {
  await nodes.stop();
  await env.stop();
});

test('sleep 2 in a Never pod succeeds after 2 s; exit 3 fails with exit code 3', async () => {
  await client.create(Pods, pod('sleeper', { restartPolicy: 'Never', containers: [{ name: 'app', image: 'busybox', command: ['sleep', '2'] }] }));
  await client.create(Pods, pod('failer', { restartPolicy: 'Never', containers: [{ name: 'app', image: 'busybox', command: ['sh', '-c', 'exit 3'] }] }));
  await eventually('sleeper running', async () => main(await get('sleeper'))?.state?.running);
  const took = await advanceUntil('sleeper', (p) => p.status?.phase === 'Succeeded');
  assert.ok(took >= 2000 && took <= 2500, `succeeded after ${took} ms of fake time`);
  const failed = await eventually('failer failed', async () => { const p = await get('failer'); return p.status?.phase === 'Failed' && p; });
  assert.deepEqual([main(failed)?.state?.terminated?.exitCode, main(failed)?.state?.terminated?.reason], [3, 'Error']);
});

test('a bad annotation is CreateContainerConfigError naming it; the pod next to it runs', async () => {
  await client.create(Pods, pod('bad', { containers: [{ name: 'app', image: 'nginx' }] }, { annotations: { 'kruise-ts.io/simulate-run-seconds.app': '-1' } }));
  await client.create(Pods, pod('good', { containers: [{ name: 'app', image: 'nginx' }] }));
  const bad = await eventually('config error', async () => { const p = await get('bad'); return main(p)?.state?.waiting?.reason === 'CreateContainerConfigError' && p; });
  assert.match(main(bad)!.state!.waiting!.message!, /kruise-ts\.io\/simulate-run-seconds\.app: "-1" must be a non-negative number/);
  assert.equal(bad.status!.phase, 'Pending');
  await eventually('good running', async () => ready(await get('good')));
  await client.patch(Pods, 'default', 'bad', 'merge', { metadata: { annotations: { 'kruise-ts.io/simulate-run-seconds.app': '60' } } });
  await eventually('fixed annotation starts it', async () => main(await get('bad'))?.state?.running);
});

test('a private image needs matching imagePullSecrets; kubelet shows ErrImagePull', async () => {
  const dockerConfig = (password: string) => Buffer.from(JSON.stringify({ auths: { 'private.example.com': { username: 'robot', password } } })).toString('base64');
  for (const [name, password] of [['right', 's3cret'], ['wrong', 'guess']]) {
    await client.create(Secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'default' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': dockerConfig(password) } } as KObject);
  }
  const spec = (secret?: string): Partial<Pod['spec']> => ({ containers: [{ name: 'app', image: 'private.example.com/app:1' }], imagePullSecrets: secret ? [{ name: secret }] : undefined });
  await client.create(Pods, pod('anonymous', spec()));
  await client.create(Pods, pod('wrong-creds', spec('wrong')));
  await client.create(Pods, pod('right-creds', spec('right')));
  const anonymous = await eventually('pull denied', async () => { const p = await get('anonymous'); return main(p)?.state?.waiting?.reason === 'ErrImagePull' && p; });
  assert.equal(main(anonymous)!.state!.waiting!.message, 'rpc error: code = Unknown desc = failed to pull and unpack image "private.example.com/app:1": failed to resolve reference "private.example.com/app:1": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed');
  const wrong = await eventually('unauthorized', async () => { const p = await get('wrong-creds'); return main(p)?.state?.waiting?.reason === 'ErrImagePull' && p; });
  assert.match(main(wrong)!.state!.waiting!.message!, /401 Unauthorized$/);
  await eventually('pulled with credentials', async () => main(await get('right-creds'))?.state?.running);
});

test('rules delay the start and make readiness flap; shared digests give one imageID', async () => {
  await client.create(Pods, pod('slow', { containers: [{ name: 'app', image: 'nginx:stable' }] }, { labels: { speed: 'slow' } }));
  await eventually('slow created', async () => main(await get('slow'))?.state?.waiting);
  const started = await advanceUntil('slow', (p) => !!main(p)?.state?.running);
  assert.ok(started >= 3000, `started after ${started} ms`);
  await client.create(Pods, pod('flaky', { containers: [{ name: 'app', image: 'nginx:1.27' }] }, { labels: { app: 'flaky' } }));
  await eventually('flaky ready', async () => ready(await get('flaky')));
  const unready = await advanceUntil('flaky', (p) => !ready(p), 10_000);
  assert.ok(unready >= 3000 && unready <= 4500, `unready after ${unready} ms`);
  const back = await advanceUntil('flaky', ready, 10_000);
  assert.ok(back >= 1500 && back <= 2500, `ready again after ${back} ms`);
  assert.equal(main(await get('slow'))!.imageID, main(await get('flaky'))!.imageID);
});
