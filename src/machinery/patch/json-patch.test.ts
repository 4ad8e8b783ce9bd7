import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../errors.js';
import { applyJsonPatch } from './json-patch.js';

const base = () => ({
  metadata: { name: 'x', labels: { app: 'web', 'a/b': '1', 'c~d': '2' } },
  spec: { replicas: 1, items: ['a', 'b', 'c'], nested: [{ n: 1 }] },
});

describe('applyJsonPatch operations (PA1)', () => {
  const cases: Array<[string, unknown[], (d: ReturnType<typeof base>) => unknown]> = [
    ['add member', [{ op: 'add', path: '/spec/paused', value: true }], (d) => ({ ...d, spec: { ...d.spec, paused: true } })],
    ['add replaces existing member', [{ op: 'add', path: '/spec/replicas', value: 3 }], (d) => ({ ...d, spec: { ...d.spec, replicas: 3 } })],
    ['add inserts into array', [{ op: 'add', path: '/spec/items/1', value: 'z' }], (d) => ({ ...d, spec: { ...d.spec, items: ['a', 'z', 'b', 'c'] } })],
    ['add at array end index', [{ op: 'add', path: '/spec/items/3', value: 'z' }], (d) => ({ ...d, spec: { ...d.spec, items: ['a', 'b', 'c', 'z'] } })],
    ['add with - appends', [{ op: 'add', path: '/spec/items/-', value: 'z' }], (d) => ({ ...d, spec: { ...d.spec, items: ['a', 'b', 'c', 'z'] } })],
    ['remove member', [{ op: 'remove', path: '/metadata/labels/app' }], (d) => ({ ...d, metadata: { name: 'x', labels: { 'a/b': '1', 'c~d': '2' } } })],
    ['remove array element', [{ op: 'remove', path: '/spec/items/0' }], (d) => ({ ...d, spec: { ...d.spec, items: ['b', 'c'] } })],
    ['~1 escapes /', [{ op: 'replace', path: '/metadata/labels/a~1b', value: '9' }], (d) => ({ ...d, metadata: { name: 'x', labels: { ...d.metadata.labels, 'a/b': '9' } } })],
    ['~0 escapes ~', [{ op: 'remove', path: '/metadata/labels/c~0d' }], (d) => ({ ...d, metadata: { name: 'x', labels: { app: 'web', 'a/b': '1' } } })],
    ['replace', [{ op: 'replace', path: '/spec/replicas', value: 5 }], (d) => ({ ...d, spec: { ...d.spec, replicas: 5 } })],
    ['move', [{ op: 'move', from: '/spec/replicas', path: '/spec/count' }], (d) => ({ ...d, spec: { items: d.spec.items, nested: d.spec.nested, count: 1 } })],
    ['move within array', [{ op: 'move', from: '/spec/items/0', path: '/spec/items/2' }], (d) => ({ ...d, spec: { ...d.spec, items: ['b', 'c', 'a'] } })],
    ['copy', [{ op: 'copy', from: '/spec/nested/0', path: '/spec/copied' }], (d) => ({ ...d, spec: { ...d.spec, copied: { n: 1 } } })],
    ['test passes then replace', [{ op: 'test', path: '/spec/replicas', value: 1 }, { op: 'replace', path: '/spec/replicas', value: 2 }], (d) => ({ ...d, spec: { ...d.spec, replicas: 2 } })],
    ['test deep value', [{ op: 'test', path: '/spec/nested', value: [{ n: 1 }] }], (d) => d],
    ['empty patch', [], (d) => d],
    ['replace root', [{ op: 'replace', path: '', value: { a: 1 } }], () => ({ a: 1 })],
  ];
  for (const [name, ops, want] of cases) {
    test(name, () => {
      const doc = base();
      const before = JSON.stringify(doc);
      const opsBefore = JSON.stringify(ops);
      assert.deepEqual(applyJsonPatch(doc, ops), want(base()));
      assert.equal(JSON.stringify(doc), before, 'input document not mutated');
      assert.equal(JSON.stringify(ops), opsBefore, 'patch not mutated');
    });
  }

  test('a __proto__ member is data, never the prototype', () => {
    const out = applyJsonPatch({ data: {} }, [{ op: 'add', path: '/data/__proto__', value: { polluted: 'yes' } }]) as { data: object };
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(JSON.stringify(out), '{"data":{"__proto__":{"polluted":"yes"}}}');
    assert.throws(() => applyJsonPatch({}, [{ op: 'add', path: '/__proto__/polluted', value: 1 }]), (e: unknown) => e instanceof StatusError && e.code === 422);
    assert.throws(() => applyJsonPatch({}, [{ op: 'replace', path: '/toString', value: 1 }]), (e: unknown) => e instanceof StatusError && e.code === 422);
  });

  test('the result does not share values with the patch', () => {
    const value = { deep: [1] };
    const out = applyJsonPatch({}, [{ op: 'add', path: '/v', value }]) as { v: { deep: number[] } };
    out.v.deep.push(2);
    assert.deepEqual(value, { deep: [1] });
  });
});

describe('applyJsonPatch failures', () => {
  const unprocessable: Array<[string, unknown[], RegExp]> = [
    ['failed test', [{ op: 'test', path: '/spec/replicas', value: 2 }], /^testing value \/spec\/replicas failed: test failed$/],
    ['remove missing', [{ op: 'remove', path: '/metadata/labels/nope' }], /^remove operation does not apply: doc is missing path: "\/metadata\/labels\/nope"/],
    ['replace missing', [{ op: 'replace', path: '/spec/nope', value: 1 }], /^replace operation does not apply: .*"\/spec\/nope"/],
    ['add under missing parent', [{ op: 'add', path: '/status/phase', value: 'x' }], /^add operation does not apply: .*"\/status\/phase"/],
    ['add past array end', [{ op: 'add', path: '/spec/items/4', value: 'x' }], /^add operation does not apply: index 4 out of range/],
    ['leading zero index', [{ op: 'replace', path: '/spec/items/01', value: 'x' }], /invalid array index "01"/],
    ['test on missing path', [{ op: 'test', path: '/nope', value: null }], /^test operation does not apply: .*"\/nope"/],
    ['move into own child', [{ op: 'move', from: '/spec', path: '/spec/x' }], /is a prefix of "path"/],
    ['copy from missing', [{ op: 'copy', from: '/nope', path: '/x' }], /^copy operation does not apply: .*"\/nope"/],
  ];
  for (const [name, ops, message] of unprocessable) {
    test(`422: ${name}`, () => {
      assert.throws(() => applyJsonPatch(base(), ops), (e: unknown) => {
        assert.ok(e instanceof StatusError);
        assert.equal(e.code, 422);
        assert.equal(e.reason, 'Invalid');
        assert.match(e.message, message);
        return true;
      });
    });
  }

  test('a failing later operation leaves the input untouched', () => {
    const doc = base();
    assert.throws(() => applyJsonPatch(doc, [{ op: 'remove', path: '/spec/items/0' }, { op: 'test', path: '/x', value: 1 }]));
    assert.deepEqual(doc, base());
  });

  const malformed: Array<[string, unknown]> = [
    ['not an array', { op: 'add', path: '/a', value: 1 }],
    ['operation not an object', ['add']],
    ['unknown op', [{ op: 'increment', path: '/a' }]],
    ['missing path', [{ op: 'remove' }]],
    ['missing value', [{ op: 'add', path: '/a' }]],
    ['missing from', [{ op: 'move', path: '/a' }]],
    ['pointer without slash', [{ op: 'add', path: 'a', value: 1 }]],
    ['bad tilde escape', [{ op: 'add', path: '/a~2', value: 1 }]],
  ];
  for (const [name, ops] of malformed) {
    test(`400: ${name}`, () => {
      assert.throws(() => applyJsonPatch(base(), ops), (e: unknown) => e instanceof StatusError && e.code === 400 && e.reason === 'BadRequest');
    });
  }
});
