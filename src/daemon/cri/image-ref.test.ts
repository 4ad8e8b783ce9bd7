import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { imageId, manifestDigest, normalizeImage, repoDigest, sameImage } from './image-ref.js';
import { IpPool, intToIp, ipToInt } from './ip-pool.js';

test('normalizeImage qualifies registry, library namespace and tag like containerd', () => {
  assert.equal(normalizeImage('nginx'), 'docker.io/library/nginx:latest');
  assert.equal(normalizeImage('nginx:1.25'), 'docker.io/library/nginx:1.25');
  assert.equal(normalizeImage('openkruise/kruise-manager:v1.7'), 'docker.io/openkruise/kruise-manager:v1.7');
  assert.equal(normalizeImage('registry.k8s.io/pause:3.9'), 'registry.k8s.io/pause:3.9');
  assert.equal(normalizeImage('localhost:5000/app'), 'localhost:5000/app:latest');
  assert.equal(normalizeImage('localhost/app:1'), 'localhost/app:1');
  assert.equal(normalizeImage('busybox@sha256:abc'), 'docker.io/library/busybox@sha256:abc');
});

test('digests are deterministic per image and differ between tags', () => {
  assert.equal(repoDigest('nginx'), repoDigest('docker.io/library/nginx:latest'));
  assert.match(repoDigest('nginx:1.25'), /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
  assert.notEqual(repoDigest('nginx:1.25'), repoDigest('nginx:1.26'));
  assert.notEqual(imageId('nginx:1.25'), manifestDigest('nginx:1.25'));
  assert.equal(manifestDigest('nginx@sha256:0123'), 'sha256:0123');
  assert.ok(sameImage('nginx', 'docker.io/library/nginx:latest'));
  assert.ok(!sameImage('nginx:1', 'nginx:2'));
});

test('property: normalising is idempotent and keeps the digest', () => {
  const part = fc.stringMatching(/^[a-z0-9]{1,8}$/);
  fc.assert(fc.property(part, fc.option(part), fc.option(part), (name, ns, tag) => {
    const ref = `${ns ? `${ns}/` : ''}${name}${tag ? `:${tag}` : ''}`;
    const n = normalizeImage(ref);
    assert.equal(normalizeImage(n), n);
    assert.equal(repoDigest(n), repoDigest(ref));
  }));
});

test('IpPool hands out distinct addresses inside the CIDR, skipping network and gateway', () => {
  const pool = new IpPool('10.244.3.0/24');
  const first = pool.allocate();
  assert.equal(first, '10.244.3.2');
  const seen = new Set([first]);
  for (let i = 0; i < 252; i++) seen.add(pool.allocate());
  assert.equal(seen.size, 253);
  assert.ok(!seen.has('10.244.3.255') && !seen.has('10.244.3.1'));
  assert.throws(() => pool.allocate(), /no free IP addresses/);
  pool.release('10.244.3.7');
  assert.equal(pool.allocate(), '10.244.3.7');
  assert.equal(intToIp(ipToInt('192.168.255.1')), '192.168.255.1');
});
