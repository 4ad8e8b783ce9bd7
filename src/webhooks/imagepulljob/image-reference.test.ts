import { test } from 'node:test';
import assert from 'node:assert/strict';
import { imageReferenceError } from './image-reference.js';

const digest = `sha256:${'a'.repeat(64)}`;

test('references the daemon can normalise are accepted', () => {
  for (const ref of ['nginx', 'nginx:1.25', 'library/nginx:latest', 'ghcr.io/a/b:v1', 'localhost:5000/x/y', 'registry.k8s.io/pause:3.9',
    `busybox@${digest}`, `docker.io/library/busybox:1.36@${digest}`, '[::1]:5000/app:1', 'a__b/c-d.e:tag_1']) {
    assert.equal(imageReferenceError(ref), undefined, ref);
  }
});

test('bad references are refused with the parser wording', () => {
  const cases: [string, string][] = [
    ['Nginx:1.25', 'invalid reference format: repository name must be lowercase'],
    ['nginx:bad tag', 'invalid reference format'],
    ['nginx:', 'invalid reference format'],
    [':1.25', 'invalid reference format'],
    ['a'.repeat(64), 'cannot specify 64-byte hexadecimal strings'],
    [`nginx@md5:${'a'.repeat(32)}`, 'unsupported digest algorithm'],
    [`nginx@sha256:${'a'.repeat(40)}`, 'invalid checksum digest length'],
    [`x/${'a'.repeat(260)}`, 'repository name must not be more than 255 characters'],
  ];
  for (const [ref, fragment] of cases) {
    const err = imageReferenceError(ref);
    assert.ok(err?.includes(fragment), `${ref}: ${err}`);
  }
});
