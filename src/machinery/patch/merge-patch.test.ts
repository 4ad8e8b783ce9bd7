import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyMergePatch, createMergePatch } from './merge-patch.js';

describe('applyMergePatch (RFC 7386, PA2)', () => {
  // The RFC 7386 appendix examples plus Kubernetes-shaped ones.
  const cases: Array<[string, unknown, unknown, unknown]> = [
    ['replace member', { a: 'b' }, { a: 'c' }, { a: 'c' }],
    ['add member', { a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    ['null deletes', { a: 'b' }, { a: null }, {}],
    ['null deletes only that member', { a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    ['array replaces array', { a: ['b'] }, { a: 'c' }, { a: 'c' }],
    ['value replaces array', { a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    ['nested merge and delete', { a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    ['arrays are not merged', { a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    ['non-object doc becomes object', ['a', 'b'], { a: 'b' }, { a: 'b' }],
    ['non-object patch replaces doc', { a: 'foo' }, ['c'], ['c']],
    ['null patch', { a: 'foo' }, null, null],
    ['string patch', { a: 'foo' }, 'bar', 'bar'],
    ['null inside new object is dropped', {}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    ['label via kubectl label', { metadata: { name: 'x', labels: { a: '1' } } }, { metadata: { labels: { b: '2' } } }, { metadata: { name: 'x', labels: { a: '1', b: '2' } } }],
    ['label removal', { metadata: { labels: { a: '1', b: '2' } } }, { metadata: { labels: { a: null } } }, { metadata: { labels: { b: '2' } } }],
    ['scale', { spec: { replicas: 1 }, status: { replicas: 1 } }, { spec: { replicas: 3 } }, { spec: { replicas: 3 }, status: { replicas: 1 } }],
  ];
  for (const [name, doc, patch, want] of cases) {
    test(name, () => {
      const docBefore = JSON.stringify(doc);
      const patchBefore = JSON.stringify(patch);
      assert.deepEqual(applyMergePatch(doc, patch), want);
      assert.equal(JSON.stringify(doc), docBefore);
      assert.equal(JSON.stringify(patch), patchBefore);
    });
  }

  test('a __proto__ key is data, never the prototype', () => {
    const patch = JSON.parse('{"data":{"__proto__":{"polluted":"yes"}},"__proto__":{"polluted":"yes"}}');
    const out = applyMergePatch({ data: {} }, patch) as Record<string, unknown>;
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(JSON.stringify(out), '{"data":{"__proto__":{"polluted":"yes"}},"__proto__":{"polluted":"yes"}}');
    assert.deepEqual(JSON.parse(JSON.stringify(createMergePatch({}, out))), JSON.parse(JSON.stringify(out)));
  });

  test('the result shares nothing with the inputs', () => {
    const doc = { keep: { x: [1] } };
    const out = applyMergePatch(doc, { y: { z: [2] } }) as { keep: { x: number[] } };
    out.keep.x.push(9);
    assert.deepEqual(doc, { keep: { x: [1] } });
  });
});

describe('createMergePatch', () => {
  const cases: Array<[string, unknown, unknown, unknown]> = [
    ['no change', { a: 1, b: { c: [1] } }, { a: 1, b: { c: [1] } }, {}],
    ['changed scalar', { a: 1 }, { a: 2 }, { a: 2 }],
    ['removed member', { a: 1, b: 2 }, { a: 1 }, { b: null }],
    ['nested', { m: { l: { a: '1', b: '2' } } }, { m: { l: { a: '1', c: '3' } } }, { m: { l: { b: null, c: '3' } } }],
    ['array changed', { a: [1, 2] }, { a: [2] }, { a: [2] }],
  ];
  for (const [name, original, modified, want] of cases) {
    test(name, () => assert.deepEqual(createMergePatch(original, modified), want));
  }

  // Values without nulls, where merge patches round-trip exactly.
  const jsonNoNull = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, fc.integer(), fc.string(), fc.boolean(), fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('value'), { maxKeys: 3, noNullPrototype: true })),
  })).value;

  test('property: applying the created patch yields the modified document', () => {
    fc.assert(fc.property(
      fc.dictionary(fc.constantFrom('a', 'b', 'c'), jsonNoNull, { noNullPrototype: true }),
      fc.dictionary(fc.constantFrom('a', 'b', 'c'), jsonNoNull, { noNullPrototype: true }),
      (original, modified) => {
        assert.deepEqual(applyMergePatch(original, createMergePatch(original, modified)), modified);
      },
    ), { numRuns: 300 });
  });
});
