import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '../errors.js';
import type { JSONSchemaProps } from './types.js';
import { validateAgainstSchema } from './validate.js';

/** Validates `{spec: {f: value}}` where spec.f has schema `f`; returns the printed messages. */
function messages(f: JSONSchemaProps, value: unknown): string[] {
  const schema: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { f } } } };
  return validateAgainstSchema(schema, { spec: { f: value } }).map(fieldErrorMessage);
}

const intOrString: JSONSchemaProps = { 'x-kubernetes-int-or-string': true };
const kruiseIntOrString: JSONSchemaProps = { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true };

const cases: Array<{ name: string; schema: JSONSchemaProps; ok?: unknown[]; bad?: Array<[unknown, string[]]> }> = [
  { name: 'type integer', schema: { type: 'integer' }, ok: [0, 3, -7], bad: [
    ['x', ['spec.f: Invalid value: "string": spec.f in body must be of type integer: "string"']],
    [1.5, ['spec.f: Invalid value: "number": spec.f in body must be of type integer: "number"']],
    [true, ['spec.f: Invalid value: "boolean": spec.f in body must be of type integer: "boolean"']],
    [[], ['spec.f: Invalid value: "array": spec.f in body must be of type integer: "array"']],
    [null, ['spec.f: Invalid value: "null": spec.f in body must be of type integer: "null"']],
  ] },
  // Upstream does not range-check int32; a non-integer hits the format comparison quirk instead.
  { name: 'format int32', schema: { type: 'integer', format: 'int32' }, ok: [2 ** 31, -1], bad: [
    [1.5, ['spec.f: Invalid value: "float64": spec.f in body must be of type int32: "float64"']],
    [true, ['spec.f: Invalid value: "": spec.f in body must be of type int32: ""']],
    ['1', ['spec.f: Invalid value: "string": spec.f in body must be of type integer: "string"']],
  ] },
  { name: 'type number accepts integers', schema: { type: 'number' }, ok: [1, 1.5], bad: [
    ['1', ['spec.f: Invalid value: "string": spec.f in body must be of type number: "string"']],
  ] },
  { name: 'type object', schema: { type: 'object' }, ok: [{}], bad: [
    [42, ['spec.f: Invalid value: "integer": spec.f in body must be of type object: "integer"']],
  ] },
  { name: 'nullable', schema: { type: 'object', nullable: true }, ok: [null, {}], bad: [
    ['x', ['spec.f: Invalid value: "string": spec.f in body must be of type object: "string"']],
  ] },
  { name: 'no type accepts anything', schema: { nullable: true }, ok: [null, 1, 'x', [], {}] },
  { name: 'int-or-string', schema: intOrString, ok: [42, 'foo'], bad: [
    [null, ['spec.f: Invalid value: "null": spec.f in body must be of type integer,string: "null"']],
    [1.2, ['spec.f: Invalid value: "number": spec.f in body must be of type integer,string: "number"']],
    [{}, ['spec.f: Invalid value: "object": spec.f in body must be of type integer,string: "object"']],
  ] },
  { name: 'int-or-string as controller-gen writes it', schema: kruiseIntOrString, ok: [1, '10%'], bad: [
    [true, [
      'spec.f: Invalid value: "boolean": spec.f in body must be of type integer,string: "boolean"',
      '<nil>: Invalid value: "": "spec.f" must validate at least one schema (anyOf)',
      'spec.f: Invalid value: "boolean": spec.f in body must be of type integer: "boolean"',
    ]],
  ] },
  { name: 'enum', schema: { type: 'string', enum: ['ReCreate', 'InPlaceIfPossible'] }, ok: ['ReCreate'], bad: [
    ['Foo', ['spec.f: Unsupported value: "Foo": supported values: "ReCreate", "InPlaceIfPossible"']],
  ] },
  { name: 'integer enum', schema: { type: 'integer', enum: [1, 2] }, ok: [2], bad: [
    [3, ['spec.f: Unsupported value: 3: supported values: "1", "2"']],
  ] },
  { name: 'minimum/maximum', schema: { type: 'integer', minimum: 0, maximum: 10 }, ok: [0, 10], bad: [
    [-1, ['spec.f: Invalid value: -1: spec.f in body should be greater than or equal to 0']],
    [11, ['spec.f: Invalid value: 11: spec.f in body should be less than or equal to 10']],
  ] },
  { name: 'exclusive bounds', schema: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true }, ok: [0.5], bad: [
    [0, ['spec.f: Invalid value: 0: spec.f in body should be greater than 0']],
    [1, ['spec.f: Invalid value: 1: spec.f in body should be less than 1']],
  ] },
  { name: 'multipleOf', schema: { type: 'number', multipleOf: 0.5 }, ok: [1.5, 2], bad: [
    [1.2, ['spec.f: Invalid value: 1.2: spec.f in body should be a multiple of 0.5']],
  ] },
  { name: 'string lengths', schema: { type: 'string', minLength: 2, maxLength: 3 }, ok: ['ab', 'äöü'], bad: [
    ['a', ['spec.f: Invalid value: "a": spec.f in body should be at least 2 chars long']],
    ['abcd', ['spec.f: Too long: may not be more than 3 bytes']],
  ] },
  { name: 'pattern', schema: { type: 'string', pattern: '^[a-z]+$' }, ok: ['abc'], bad: [
    ['A1', [`spec.f: Invalid value: "A1": spec.f in body should match '^[a-z]+$'`]],
  ] },
  { name: 'RE2 escapes unicode-mode JS refuses', schema: { type: 'string', pattern: '^[a-z\\_]+$' }, ok: ['a_b'], bad: [
    ['a-b', [`spec.f: Invalid value: "a-b": spec.f in body should match '^[a-z\\_]+$'`]],
  ] },
  { name: 'invalid pattern', schema: { type: 'string', pattern: '+' }, bad: [
    ['x', [`spec.f: Invalid value: "x": spec.f in body should match '+, but pattern is invalid: Invalid regular expression: /+/u: Nothing to repeat'`]],
  ] },
  { name: 'enum of objects ignores key order', schema: { type: 'object', enum: [{ a: 1, b: 2 }] }, ok: [{ b: 2, a: 1 }], bad: [
    [{ a: 1 }, ['spec.f: Unsupported value: {"a":1}: supported values: "{\\"a\\":1,\\"b\\":2}"']],
  ] },
  { name: 'format date-time', schema: { type: 'string', format: 'date-time' }, ok: ['2024-01-02T03:04:05Z'], bad: [
    ['yesterday', ['spec.f: Invalid value: "yesterday": spec.f in body must be of type date-time: "yesterday"']],
  ] },
  { name: 'unknown string format is ignored', schema: { type: 'string', format: 'int-or-string' }, ok: ['x'] },
  { name: 'items', schema: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string' } }, ok: [['a']], bad: [
    [[], ['spec.f: Invalid value: 0: spec.f in body should have at least 1 items']],
    [['a', 'b', 'c'], ['spec.f: Too many: 3: must have at most 2 items']],
    [['a', 1], ['spec.f[1]: Invalid value: "integer": spec.f[1] in body must be of type string: "integer"']],
  ] },
  { name: 'uniqueItems', schema: { type: 'array', uniqueItems: true }, ok: [[1, 2]], bad: [
    [[1, 1], [`spec.f: Invalid value: "": spec.f in body shouldn't contain duplicates`]],
  ] },
  { name: 'properties count', schema: { type: 'object', minProperties: 1, maxProperties: 2, properties: { a: { type: 'string' } } }, ok: [{ a: 'x' }], bad: [
    [{}, ['spec.f: Invalid value: 0: spec.f in body should have at least 1 properties']],
    // A count failure stops the object validator: the bad `a` is not reported.
    [{ a: 1, b: 2, c: 3 }, ['spec.f: Too many: 3: must have at most 2 items']],
  ] },
  { name: 'required and nested', schema: { type: 'object', required: ['a'], properties: { a: { type: 'object', required: ['b'], properties: { b: {} } } } }, ok: [{ a: { b: null } }], bad: [
    [{}, ['spec.f.a: Required value']],
    [{ a: {} }, ['spec.f.a.b: Required value']],
  ] },
  { name: 'map values', schema: { type: 'object', additionalProperties: { type: 'integer' } }, ok: [{ x: 1 }], bad: [
    [{ x: 'no' }, ['spec.f.x: Invalid value: "string": spec.f.x in body must be of type integer: "string"']],
  ] },
  { name: 'oneOf', schema: { type: 'integer', oneOf: [{ minimum: 5 }, { maximum: 6 }] }, ok: [1, 9], bad: [
    [5, ['<nil>: Invalid value: "": "spec.f" must validate one and only one schema (oneOf). Found 2 valid alternatives']],
  ] },
  { name: 'allOf and not', schema: { type: 'string', allOf: [{ minLength: 2 }], not: { enum: ['no'] } }, ok: ['ok'], bad: [
    ['x', ['spec.f: Invalid value: "x": spec.f in body should be at least 2 chars long', '<nil>: Invalid value: "": "spec.f" must validate all the schemas (allOf). None validated']],
    ['no', ['<nil>: Invalid value: "": "spec.f" must not validate the schema (not)']],
  ] },
  { name: 'list-type set', schema: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } }, ok: [['a', 'b']], bad: [
    [['a', 'b', 'a', 'a'], ['spec.f[2]: Duplicate value: "a"']],
  ] },
  { name: 'list-type map', schema: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' } } } }, ok: [[{ name: 'a' }, { name: 'b' }]], bad: [
    [[{ name: 'a' }, { name: 'a' }], ['spec.f[1]: Duplicate value: {"name":"a"}']],
    [[{ name: 'a' }, 'x'], ['spec.f[1]: Invalid value: "string": spec.f[1] in body must be of type object: "string"', 'spec.f[1]: Invalid value: "x": must be an object for an array of list-type map']],
  ] },
  { name: 'embedded resource', schema: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true }, ok: [{ apiVersion: 'v1', kind: 'Pod' }], bad: [
    [{}, ['spec.f.apiVersion: Required value', 'spec.f.kind: Required value']],
    [{ apiVersion: 'a/b/c', kind: 'Not_A_Kind', metadata: 'x' }, [
      'spec.f.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      "spec.f.kind: Invalid value: \"Not_A_Kind\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      'spec.f.metadata: Invalid value: "x": must be an object',
    ]],
  ] },
];

describe('validateAgainstSchema keywords', () => {
  for (const c of cases) {
    test(c.name, () => {
      for (const v of c.ok ?? []) assert.deepEqual(messages(c.schema, v), [], `expected ${JSON.stringify(v)} to pass`);
      for (const [v, want] of c.bad ?? []) assert.deepEqual(messages(c.schema, v), want, `for ${JSON.stringify(v)}`);
    });
  }
});

describe('validateAgainstSchema paths and structure', () => {
  test('error fields carry the type and value kube-apiserver reports', () => {
    const errs = validateAgainstSchema({ type: 'object', properties: { replicas: { type: 'integer' } } }, { replicas: 'x' });
    assert.deepEqual(errs, [{ type: 'FieldValueTypeInvalid', field: 'replicas', value: 'string', detail: 'replicas in body must be of type integer: "string"' }]);
  });

  test('the root metadata is left to ObjectMeta validation', () => {
    const schema: JSONSchemaProps = { type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 2 } } } } };
    assert.deepEqual(validateAgainstSchema(schema, { metadata: { name: 'long-name' } }), []);
  });

  test('basePath prefixes field paths but not the in-body names', () => {
    const errs = validateAgainstSchema({ type: 'object', properties: { n: { type: 'string' } } }, { n: 1 }, 'spec');
    assert.deepEqual(errs.map(fieldErrorMessage), ['spec.n: Invalid value: "integer": n in body must be of type string: "integer"']);
  });

  test('arrays of objects report item paths', () => {
    const schema: JSONSchemaProps = { type: 'object', properties: { list: { type: 'array', items: { type: 'object', required: ['key'], properties: { key: { type: 'string' } } } } } };
    assert.deepEqual(validateAgainstSchema(schema, { list: [{ key: 'a' }, {}] }).map(fieldErrorMessage), ['list[1].key: Required value']);
  });

  test('a field named like an Object.prototype member is an ordinary field', () => {
    const schema: JSONSchemaProps = { type: 'object', required: ['constructor'], properties: {} };
    assert.deepEqual(validateAgainstSchema(schema, {}).map(fieldErrorMessage), ['constructor: Required value']);
  });
});
