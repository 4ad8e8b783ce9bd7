import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from './errors.js';
import { checkSupportedFields, escapeFieldValue, METADATA_FIELDS, parseFieldSelector } from './fields.js';

const pod: Record<string, string> = {
  'metadata.name': 'web-1', 'metadata.namespace': 'default', 'spec.nodeName': 'n1', 'status.phase': 'Running',
};
const get = (f: string): string | undefined => pod[f];

describe('parseFieldSelector matching (L5)', () => {
  const cases: Array<[string, boolean]> = [
    ['', true],
    ['metadata.name=web-1', true],
    ['metadata.name==web-1', true],
    ['metadata.name=web-2', false],
    ['metadata.name!=web-2', true],
    ['metadata.name!=web-1', false],
    ['metadata.name=web-1,metadata.namespace=default', true],
    ['metadata.name=web-1,metadata.namespace=kube-system', false],
    ['status.phase!=Succeeded,status.phase!=Failed', true],
    ['spec.nodeName=', false],
    ['spec.missing=', true], // a missing field compares as ''
    ['spec.missing!=', false],
    ['metadata.name=web-1,,', true], // empty terms are skipped
  ];
  for (const [sel, want] of cases) {
    test(`${JSON.stringify(sel)} -> ${want}`, () => assert.equal(parseFieldSelector(sel).matches(get), want));
  }
});

describe('parseFieldSelector structure', () => {
  test('requirements are sorted by raw term and == folds into =', () => {
    const sel = parseFieldSelector('spec.nodeName==n1,metadata.name!=x');
    assert.deepEqual(sel.requirements, [
      { field: 'metadata.name', op: '!=', value: 'x' },
      { field: 'spec.nodeName', op: '=', value: 'n1' },
    ]);
    assert.equal(sel.toString(), 'metadata.name!=x,spec.nodeName=n1');
    assert.equal(sel.empty, false);
    assert.equal(parseFieldSelector('').empty, true);
    assert.equal(parseFieldSelector(',').empty, true);
  });

  test('escapes: \\, \\= and \\\\ are data', () => {
    const sel = parseFieldSelector('a=x\\,y\\=z\\\\w,b=c');
    assert.deepEqual(sel.requirements.map((r) => [r.field, r.value]), [['a', 'x,y=z\\w'], ['b', 'c']]);
    assert.equal(sel.toString(), 'a=x\\,y\\=z\\\\w,b=c');
    assert.equal(escapeFieldValue('a,b=c\\'), 'a\\,b\\=c\\\\');
  });

  test('the first operator splits: a!=b=c is an error in the value', () => {
    assert.throws(() => parseFieldSelector('a!=b=c'), /unescaped character in value: 61/);
  });
});

describe('parseFieldSelector errors', () => {
  const cases: Array<[string, string]> = [
    ['metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
    ['a=b,c', "invalid selector: 'a=b,c'; can't understand 'c'"],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
    ['a=b\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
  ];
  for (const [input, message] of cases) {
    test(JSON.stringify(input), () => {
      assert.throws(() => parseFieldSelector(input), (e: unknown) =>
        e instanceof StatusError && e.code === 400 && e.reason === 'BadRequest' && e.message === message);
    });
  }
});

describe('checkSupportedFields', () => {
  test('accepts supported fields and rejects others with upstream text', () => {
    checkSupportedFields(parseFieldSelector('metadata.name=a,metadata.namespace!=b'), METADATA_FIELDS);
    assert.throws(
      () => checkSupportedFields(parseFieldSelector('metadata.name=a,spec.foo=b'), METADATA_FIELDS),
      (e: unknown) => e instanceof StatusError && e.code === 400 && e.message === 'field label not supported: spec.foo',
    );
  });
});
