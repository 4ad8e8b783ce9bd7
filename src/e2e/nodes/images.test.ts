/**
 * Node obligation K8 (docs/design/simulated-nodes.md §19): each node keeps its own image store:
 * a pull takes the configured latency once per image and node, registry facts of the behaviour file
 * make pulls fail or want credentials (ErrImagePull, then ImagePullBackOff), and CRI ListImages
 * reports normalised references.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { Secrets } from '../../api/resource-type.js';
import { containerNamed } from '../../testing/kubelet-env.js';
import { server, startNodesEnv, type NodesEnv } from './nodes-kit.js';
import type { Pod } from '../../api/core/index.js';

let k: NodesEnv;
const [node0, node1] = ['kruise-node-0', 'kruise-node-1'];
const pullDelayMs = 4000;

before(async () => {
  k = await startNodesEnv({
    count: 2, pullDelayMs,
    behaviour: {
      apiVersion: 'kruise-ts.io/v1alpha1', kind: 'NodeBehaviour',
      images: [
        { image: 'unreachable.example.com/*', pullError: 'dial tcp: lookup unreachable.example.com: no such host' },
        { image: 'private.example.com/*', auth: { username: 'robot', password: 's3cret' } },
      ],
    },
  });
});

after(() => k.stop());

const running = (p: Pod) => !!containerNamed(p, 'app')?.state?.running;
const waiting = (p: Pod) => containerNamed(p, 'app')?.state?.waiting;
const pod = (name: string, nodeName: string, image: string, extra: Partial<Pod['spec']> = {}) =>
  k.createPod(name, { nodeName, containers: [server('app', image)], ...extra });

function pullSecret(name: string, password: string): KObject {
  const config = { auths: { 'private.example.com': { username: 'robot', password } } };
  return {
    apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/dockerconfigjson', metadata: { name, namespace: 'default' },
    data: { '.dockerconfigjson': Buffer.from(JSON.stringify(config)).toString('base64') },
  } as KObject;
}

test('K8: images are pulled once per node with the configured latency, fail or want credentials as the registry facts say, and list normalised', async (t) => {
  await t.test('the first pull on a node takes pullDelayMs; the same image there again starts at once', async () => {
    await pod('k8-first', node0, 'nginx:1.25');
    const took = await k.advanceUntil('k8-first', running, 'running', 10_000);
    assert.ok(took >= pullDelayMs && took < pullDelayMs + 500, `running after ${took} ms`);
    await pod('k8-second', node0, 'nginx:1.25');
    await k.podWhere('k8-second', running, 'running with no time passing');
    await pod('k8-other-node', node1, 'nginx:1.25');
    const elsewhere = await k.advanceUntil('k8-other-node', running, 'running', 10_000);
    assert.ok(elsewhere >= pullDelayMs, `another node pulls for itself: running after ${elsewhere} ms`);
  });

  await t.test('CRI ListImages reports normalised repoTags, per node', async () => {
    await pod('k8-library', node0, 'busybox');
    await k.advanceUntil('k8-library', (p) => !!containerNamed(p, 'app')?.state?.running || !!containerNamed(p, 'app')?.lastState?.terminated, 'started', 10_000);
    const tags = (await k.cri(node0).listImages()).flatMap((i) => i.repoTags).sort();
    assert.deepEqual(tags, ['docker.io/library/busybox:latest', 'docker.io/library/nginx:1.25']);
    const nginx = await k.cri(node0).imageStatus({ image: 'nginx:1.25' });
    assert.equal(nginx?.repoTags[0], 'docker.io/library/nginx:1.25');
    assert.deepEqual((await k.cri(node1).listImages()).flatMap((i) => i.repoTags), ['docker.io/library/nginx:1.25']);
  });

  await t.test('a failing registry: ErrImagePull with kubelet\'s message, then ImagePullBackOff', async () => {
    await pod('k8-unreachable', node0, 'unreachable.example.com/app:1');
    const message = 'rpc error: code = Unknown desc = failed to pull and unpack image "unreachable.example.com/app:1": dial tcp: lookup unreachable.example.com: no such host';
    await k.advanceUntil('k8-unreachable', (p) => waiting(p)?.reason === 'ErrImagePull', 'ErrImagePull', 10_000);
    assert.equal(waiting(await k.getPod('k8-unreachable'))!.message, message);
    await k.advanceUntil('k8-unreachable', (p) => waiting(p)?.reason === 'ImagePullBackOff', 'ImagePullBackOff', 30_000);
    assert.equal(waiting(await k.getPod('k8-unreachable'))!.message, `Back-off pulling image "unreachable.example.com/app:1": ${message}`);
  });

  await t.test('a registry wanting credentials refuses anonymous and wrong ones, and serves the pod\'s imagePullSecrets', async () => {
    await k.client.create(Secrets, pullSecret('k8-wrong', 'guess'));
    await k.client.create(Secrets, pullSecret('k8-right', 's3cret'));
    // all on one node, pulling at once: each pull is judged by its own credentials
    await pod('k8-anonymous', node0, 'private.example.com/app:1');
    await pod('k8-right', node0, 'private.example.com/app:1', { imagePullSecrets: [{ name: 'k8-right' }] });
    await pod('k8-wrong', node0, 'private.example.com/app:1', { imagePullSecrets: [{ name: 'k8-wrong' }] });
    await k.advanceUntil('k8-right', running, 'running with the right credentials', 10_000);
    const anonymous = await k.advanceUntil('k8-anonymous', (p) => !!waiting(p)?.reason?.match(/ErrImagePull|ImagePullBackOff/), 'pull failed', 10_000)
      .then(() => k.getPod('k8-anonymous'));
    assert.match(waiting(anonymous)!.message!,
      /pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed$/);
    const wrong = await k.getPod('k8-wrong');
    assert.match(waiting(wrong)?.reason ?? '', /^(ErrImagePull|ImagePullBackOff)$/);
    assert.match(waiting(wrong)!.message!, /401 Unauthorized/);
  });
});
