import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizedReferenceError, referenceError } from './image-reference.js';

const digest = `sha256:${'a'.repeat(64)}`;

describe('normalizedReferenceError (ParseNormalizedNamed)', () => {
  test('references the daemon can normalise are accepted', () => {
    for (const ref of ['nginx', 'nginx:1.25', 'library/nginx:latest', 'ghcr.io/a/b:v1', 'localhost:5000/x/y', 'registry.k8s.io/pause:3.9',
      `busybox@${digest}`, `docker.io/library/busybox:1.36@${digest}`, '[::1]:5000/app:1', 'a__b/c-d.e:tag_1']) {
      assert.equal(normalizedReferenceError(ref), undefined, ref);
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
      const err = normalizedReferenceError(ref);
      assert.ok(err?.includes(fragment), `${ref}: ${err}`);
    }
  });
});

describe('referenceError (Parse, as written)', () => {
  test('accepts references without normalising them', () => {
    for (const ref of ['nginx', 'nginx:1.25', 'docker.io/library/nginx:latest', 'localhost:5000/a/b_c:v1', `busybox@${digest}`, 'a'.repeat(64)]) {
      assert.equal(referenceError(ref), undefined, ref);
    }
  });

  test('refuses with the parser wording', () => {
    assert.equal(referenceError('nginx::1'), 'invalid reference format');
    assert.equal(referenceError('Nginx:1.25'), 'repository name must be lowercase');
    assert.equal(referenceError(''), 'repository name must have at least one component');
    assert.equal(referenceError(`nginx@sha256:${'a'.repeat(40)}`), 'invalid checksum digest length');
  });
});
