import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FieldSet, fieldSetFromObject, fromFieldsV1, pathString, toFieldsV1 } from './field-set.js';
import { defaultHints, hintsFromFunction } from './type-hints.js';

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [{ name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }], resources: {} }],
      },
    },
  },
};

describe('fieldSetFromObject + toFieldsV1', () => {
  test('a Deployment encodes as upstream ToFieldSet does (keys sorted, list items with ".")', () => {
    const set = fieldSetFromObject(deployment, defaultHints);
    const expected = {
      'f:apiVersion': {},
      'f:kind': {},
      'f:metadata': { 'f:labels': { 'f:app': {} }, 'f:name': {}, 'f:namespace': {} },
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:containers': {
              'k:{"name":"nginx"}': {
                '.': {},
                'f:env': { 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
                'f:image': {},
                'f:name': {},
                'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
                'f:resources': {},
              },
            },
          },
        },
      },
    };
    // Compare the serialised text so the key order (".", fields, keys) is checked too.
    assert.equal(JSON.stringify(toFieldsV1(set)), JSON.stringify(expected));
  });

  test('atomic lists are leaves, set items are v:<json>, nulls are members, empty map lists own nothing', () => {
    const hints = hintsFromFunction((p) => (p.join('.') === 'metadata.finalizers' ? { type: 'set' } : p.join('.') === 'spec.items' ? { type: 'map', keys: ['id'] } : undefined));
    const obj = { metadata: { finalizers: ['b', 'a'] }, spec: { args: ['x', 'y'], gone: null, items: [] } };
    assert.deepEqual(toFieldsV1(fieldSetFromObject(obj, hints)), {
      'f:metadata': { 'f:finalizers': { 'v:"a"': {}, 'v:"b"': {} } },
      'f:spec': { 'f:args': {}, 'f:gone': {} },
    });
  });

  test('keys sort by value type and numerically, as upstream orders path elements', () => {
    const hints = hintsFromFunction(() => ({ type: 'map', keys: ['port'] }));
    const obj = { ports: [{ port: 443 }, { port: 80 }, { port: 'http' }] };
    assert.deepEqual(Object.keys(toFieldsV1(fieldSetFromObject(obj, hints))['f:ports'] as object), [
      'k:{"port":80}', 'k:{"port":443}', 'k:{"port":"http"}',
    ]);
  });

  test('fromFieldsV1 inverts toFieldsV1', () => {
    const fv1 = toFieldsV1(fieldSetFromObject(deployment, defaultHints));
    assert.deepEqual(toFieldsV1(fromFieldsV1(fv1)), fv1);
    const set = fromFieldsV1({ 'f:a': { '.': {} }, 'f:b': { '.': {}, 'f:c': {} } });
    assert.ok(set.has(['f:a']) && set.has(['f:b']) && set.has(['f:b', 'f:c']));
  });

  test('pathString prints fields, keys and values like upstream', () => {
    assert.equal(pathString(['f:spec', 'f:replicas']), '.spec.replicas');
    assert.equal(pathString(['f:spec', 'f:containers', 'k:{"name":"a"}', 'f:image']), '.spec.containers[name="a"].image');
    assert.equal(pathString(['f:ports', 'k:{"containerPort":80,"protocol":"TCP"}']), '.ports[containerPort=80,protocol="TCP"]');
    assert.equal(pathString(['f:metadata', 'f:finalizers', 'v:"x"']), '.metadata.finalizers[="x"]');
  });
});

describe('set operations', () => {
  const setOf = (paths: string[][]): FieldSet => {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  };
  const pathArb = fc.array(fc.constantFrom('f:a', 'f:b', 'k:{"n":1}', 'v:"x"'), { minLength: 1, maxLength: 3 });
  const key = (p: string[]): string => p.join('/');

  test('union, difference and intersection agree with path sets', () => {
    fc.assert(fc.property(fc.array(pathArb), fc.array(pathArb), (pa, pb) => {
      const a = setOf(pa);
      const b = setOf(pb);
      const ka = new Set(pa.map(key));
      const kb = new Set(pb.map(key));
      const sorted = (s: FieldSet): string[] => s.paths().map(key).sort();
      assert.deepEqual(sorted(a.union(b)), [...new Set([...ka, ...kb])].sort());
      assert.deepEqual(sorted(a.difference(b)), [...ka].filter((k) => !kb.has(k)).sort());
      assert.deepEqual(sorted(a.intersection(b)), [...ka].filter((k) => kb.has(k)).sort());
      assert.equal(a.difference(b).isEmpty(), [...ka].every((k) => kb.has(k)));
    }));
  });

  test('union returns the same set when the other adds nothing, and leaves operands alone', () => {
    const a = setOf([['f:a', 'f:b'], ['f:c']]);
    assert.equal(a.union(setOf([['f:a', 'f:b']])), a);
    assert.equal(a.union(new FieldSet()), a);
    const u = a.union(setOf([['f:a', 'f:x']]));
    assert.deepEqual(u.paths(), [['f:a', 'f:b'], ['f:a', 'f:x'], ['f:c']]);
    assert.deepEqual(a.paths(), [['f:a', 'f:b'], ['f:c']]);
  });

  test('difference returns the same set when nothing is removed, and leaves operands alone', () => {
    const a = setOf([['f:a', 'f:b'], ['f:c']]);
    const b = setOf([['f:x']]);
    assert.equal(a.difference(b), a);
    const d = a.difference(setOf([['f:a', 'f:b']]));
    assert.deepEqual(d.paths(), [['f:c']]);
    assert.deepEqual(a.paths(), [['f:a', 'f:b'], ['f:c']]);
  });
});
