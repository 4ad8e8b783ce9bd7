import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '../errors.js';
import type { JSONSchemaProps } from './types.js';
import { checkStructural } from './structural.js';

const base = 'spec.versions[0].schema.openAPIV3Schema';

function check(schema: JSONSchemaProps): string[] {
  return checkStructural(schema, base).map(fieldErrorMessage);
}

describe('checkStructural', () => {
  test('a Kruise-style schema is structural', () => {
    assert.deepEqual(check({
      type: 'object',
      properties: {
        metadata: { type: 'object' },
        spec: { type: 'object', properties: {
          maxUnavailable: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true },
          template: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          anything: { 'x-kubernetes-preserve-unknown-fields': true },
          list: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
        } },
      },
    }), []);
  });

  const cases: Array<[string, JSONSchemaProps, string[]]> = [
    ['missing types name their level', { properties: { spec: { properties: { list: { type: 'array', items: {} } } } } }, [
      `${base}.type: Required value: must not be empty at the root`,
      `${base}.properties[spec].type: Required value: must not be empty for specified object fields`,
      `${base}.properties[spec].properties[list].items.type: Required value: must not be empty for specified array items`,
    ]],
    ['root must be an object', { type: 'string' }, [`${base}.type: Invalid value: "string": must be object at the root`]],
    ['properties with additionalProperties', { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } }, [
      `${base}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
    ]],
    ['arrays need items, uniqueItems is refused', { type: 'object', properties: { l: { type: 'array', uniqueItems: true } } }, [
      `${base}.properties[l].items: Required value: must be specified`,
      `${base}.properties[l].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
    ]],
    ['list-type map needs keys', { type: 'object', properties: { l: { type: 'array', items: { type: 'object' }, 'x-kubernetes-list-type': 'map' } } }, [
      `${base}.properties[l].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
    ]],
    ['embedded resources are objects', { type: 'object', properties: { e: { type: 'string', 'x-kubernetes-embedded-resource': true } } }, [
      `${base}.properties[e].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`,
    ]],
    ['junctors carry value validations only', { type: 'object', properties: { f: { type: 'string', anyOf: [{ type: 'string', default: 'x' }] } } }, [
      `${base}.properties[f].anyOf[0].type: Forbidden: must be empty to be structural`,
      `${base}.properties[f].anyOf[0].default: Forbidden: must be undefined to be structural`,
    ]],
    ['root metadata may only restrict name and generateName', { type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } }, [
      `${base}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ]],
  ];
  for (const [name, schema, want] of cases) test(name, () => assert.deepEqual(check(schema), want));
});
