/** Registry facts (§10) through the fake image service: digests per tag, shared digests, failures, credentials. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFakeRuntime } from '../../../daemon/cri/fake-runtime.js';
import { manifestDigest } from '../../../daemon/cri/image-ref.js';
import { createHash } from 'node:crypto';
import { registryFacts } from './image-facts.js';
import { flappingReadiness } from './readiness-flaps.js';
import { keyCovers, registryKey } from './pull-credentials.js';

const pinned = `sha256:${'ab'.repeat(32)}`;
const facts = registryFacts([
  { image: 'registry.example.com/app:1.0', digest: pinned },
  { image: 'registry.example.com/app:stable', sameDigestAs: 'registry.example.com/app:1.0' },
  { image: 'nginx:stable', sameDigestAs: 'nginx:1.27' },
  { image: 'down.example.com/*', pullError: 'dial tcp: lookup down.example.com: no such host' },
  { image: 'private.example.com/*', auth: { username: 'robot', password: 's3cret' } },
]);

test('a tag digests to sha256 of its normalised reference unless the facts say otherwise', () => {
  const sha = createHash('sha256').update('docker.io/library/nginx:1.27').digest('hex');
  assert.equal(manifestDigest('nginx:1.27'), `sha256:${sha}`);
  assert.equal(facts.digestOf('registry.example.com/app:1.0'), pinned);
  assert.equal(facts.digestOf('registry.example.com/app:stable'), pinned);
  assert.equal(facts.digestOf('nginx:stable'), manifestDigest('nginx:1.27'));
  assert.equal(facts.digestOf('nginx:1.26'), undefined);
});

test('two tags of one manifest are one image with the same imageRef on every node', async () => {
  const [a, b] = [createFakeRuntime({ registry: facts }), createFakeRuntime({ registry: facts })];
  const id = await a.pullImage({ image: 'nginx:stable' });
  assert.equal(await a.pullImage({ image: 'docker.io/library/nginx:1.27' }), id);
  assert.equal(await b.pullImage({ image: 'nginx:1.27' }), id);
  const [image] = await a.listImages();
  assert.deepEqual(image.repoTags.sort(), ['docker.io/library/nginx:1.27', 'docker.io/library/nginx:stable']);
  assert.deepEqual(image.repoDigests, [`docker.io/library/nginx@${manifestDigest('nginx:1.27')}`]);
  assert.notEqual(await a.pullImage({ image: 'nginx:1.26' }), id);
});

test('pull failures and credentials read like containerd', async () => {
  const rt = createFakeRuntime({ registry: facts });
  await assert.rejects(rt.pullImage({ image: 'down.example.com/x:1' }), /failed to pull and unpack image "down.example.com\/x:1": dial tcp: lookup down.example.com: no such host/);
  await assert.rejects(rt.pullImage({ image: 'private.example.com/app:2' }), /failed to resolve reference "private.example.com\/app:2": pull access denied, repository does not exist or may require authorization/);
  await assert.rejects(rt.pullImage({ image: 'private.example.com/app:2' }, { username: 'robot', password: 'wrong' }), /pulling from host private.example.com failed with status code \[manifests 2\]: 401 Unauthorized/);
  await rt.pullImage({ image: 'private.example.com/app:2' }, { auth: Buffer.from('robot:s3cret').toString('base64') });
  await rt.pullImage({ image: 'private.example.com/app:3' }, { username: 'robot', password: 's3cret' });
});

test('registry keys of docker configs cover images the way kubelet matches them', () => {
  const cases: [string, string, boolean][] = [
    ['https://index.docker.io/v1/', 'nginx', true],
    ['docker.io', 'openkruise/manager:1', true],
    ['private.example.com', 'private.example.com/team/app:1', true],
    ['private.example.com/team', 'private.example.com/team/app:1', true],
    ['private.example.com/other', 'private.example.com/team/app:1', false],
    ['*.example.com', 'private.example.com/app', true],
    ['example.com', 'private.example.com/app', false],
  ];
  for (const [key, image, covers] of cases) assert.equal(keyCovers(key, image), covers, `${key} covers ${image}`);
  assert.equal(registryKey('https://registry.example.com:5000/v2/'), 'registry.example.com:5000');
});

test('flapping readiness alternates ready and unready periods after the first ready', () => {
  const flaps = { readyMs: 10, unreadyMs: 5 };
  const at = (now: number) => flappingReadiness(100, flaps, now);
  assert.deepEqual([at(100), at(109), at(110), at(114), at(115), at(131)], [
    { ready: true, changesAt: 110 }, { ready: true, changesAt: 110 }, { ready: false, changesAt: 115 },
    { ready: false, changesAt: 115 }, { ready: true, changesAt: 125 }, { ready: true, changesAt: 140 },
  ]);
});
