import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonTypeOf, schemaAt, type JSONSchemaProps } from './types.js';

describe('jsonTypeOf', () => {
  test('names JSON values as kube-openapi does', () => {
    const cases: Array<[unknown, string]> = [[null, 'null'], [undefined, 'null'], [true, 'boolean'], [3, 'integer'], [1.5, 'number'], ['', 'string'], [[], 'array'], [{}, 'object']];
    for (const [v, want] of cases) assert.equal(jsonTypeOf(v), want, JSON.stringify(v));
  });
});

describe('schemaAt', () => {
  const replicas: JSONSchemaProps = { type: 'integer' };
  const name: JSONSchemaProps = { type: 'string' };
  const label: JSONSchemaProps = { type: 'string' };
  const schema: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: {
    replicas,
    containers: { type: 'array', items: { type: 'object', properties: { name } } },
    labels: { type: 'object', additionalProperties: label },
    template: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  } } } };

  const cases: Array<[string[], JSONSchemaProps | undefined]> = [
    [[], schema],
    [['spec', 'replicas'], replicas],
    [['spec', 'containers', '0', 'name'], name],
    [['spec', 'containers', '[]', 'name'], name],
    [['spec', 'containers', '*', 'name'], name],
    [['spec', 'labels', 'app'], label],
    [['spec', 'template', 'spec'], undefined],
    [['spec', 'missing'], undefined],
    [['spec', 'constructor'], undefined],
  ];
  for (const [path, want] of cases) test(path.join('.') || '(root)', () => assert.equal(schemaAt(schema, path), want));
});
