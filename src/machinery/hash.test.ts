import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { computeObjectHash, fnv1, fnv1a, goJson, safeEncodeString } from './hash.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('FNV 32-bit', () => {
  test('FNV-1 matches the published test vectors', () => {
    assert.equal(fnv1(bytes('')), 0x811c9dc5);
    assert.equal(fnv1(bytes('a')), 0x050c5d7e);
    assert.equal(fnv1(bytes('foobar')), 0x31f0b262);
  });
  test('FNV-1a matches the published test vectors', () => {
    assert.equal(fnv1a(bytes('a')), 0xe40c292c);
    assert.equal(fnv1a(bytes('foobar')), 0xbf9cf968);
  });
  test('hashing continues from a seed', () => {
    assert.equal(fnv1(bytes('bar'), fnv1(bytes('foo'))), fnv1(bytes('foobar')));
  });
});

test('safeEncodeString maps each digit into the safe alphabet', () => {
  assert.equal(safeEncodeString('0123456789'), '456789bcdf');
  assert.match(safeEncodeString(String(0xffffffff)), /^[bcdfghjklmnpqrstvwxz2456789]{10}$/);
});

test('goJson sorts keys at every level and escapes like Go', () => {
  assert.equal(goJson({ b: 1, a: { d: [1, 'x'], c: null }, $patch: 'replace' }), '{"$patch":"replace","a":{"c":null,"d":[1,"x"]},"b":1}');
  assert.equal(goJson({ s: '<a&b>' }), '{"s":"\\u003ca\\u0026b\\u003e"}');
  assert.equal(goJson({ u: undefined, k: true }), '{"k":true}');
});

test('computeObjectHash is stable and changes with the collision count', () => {
  const t = { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
  assert.equal(computeObjectHash(t), computeObjectHash({ spec: t.spec, metadata: t.metadata }));
  assert.notEqual(computeObjectHash(t, 0), computeObjectHash(t));
  assert.notEqual(computeObjectHash(t, 1), computeObjectHash(t, 0));
});
