import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONSchemaProps } from './types.js';
import { applyDefaults } from './default.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', default: 1 },
        strategy: {
          type: 'object',
          properties: { type: { type: 'string', default: 'ReCreate' }, partition: { type: 'integer', nullable: true, default: 0 } },
        },
        policy: { type: 'object', default: { mode: 'Auto' }, properties: { mode: { type: 'string' }, limit: { type: 'integer', default: 5 } } },
        tags: { type: 'array', default: ['a'], items: { type: 'string' } },
        containers: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, pull: { type: 'string', default: 'IfNotPresent' } } } },
        values: { type: 'array', items: { type: 'string', default: 'x' } },
        ports: { type: 'object', additionalProperties: { type: 'object', default: {}, properties: { protocol: { type: 'string', default: 'TCP' } } } },
      },
    },
  },
};

function defaulted(obj: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(obj);
  applyDefaults(schema, copy);
  return copy;
}

describe('applyDefaults', () => {
  const cases: Array<{ name: string; obj: Record<string, unknown>; want: Record<string, unknown> }> = [
    { name: 'nothing when the parent is missing', obj: {}, want: {} },
    { name: 'direct children of an existing object', obj: { spec: {} },
      want: { spec: { replicas: 1, policy: { mode: 'Auto', limit: 5 }, tags: ['a'] } } },
    { name: 'nested defaults only inside existing parents', obj: { spec: { strategy: {} } },
      want: { spec: { replicas: 1, strategy: { type: 'ReCreate', partition: 0 }, policy: { mode: 'Auto', limit: 5 }, tags: ['a'] } } },
    { name: 'set values are kept', obj: { spec: { replicas: 0, policy: { mode: 'Manual' }, tags: [] } },
      want: { spec: { replicas: 0, policy: { mode: 'Manual', limit: 5 }, tags: [] } } },
    { name: 'array items', obj: { spec: { containers: [{ name: 'a' }, { name: 'b', pull: 'Always' }] } },
      want: { spec: { replicas: 1, policy: { mode: 'Auto', limit: 5 }, tags: ['a'], containers: [{ name: 'a', pull: 'IfNotPresent' }, { name: 'b', pull: 'Always' }] } } },
    { name: 'map values, and a null map value with a default', obj: { spec: { ports: { http: {}, dns: null } } },
      want: { spec: { replicas: 1, policy: { mode: 'Auto', limit: 5 }, tags: ['a'], ports: { http: { protocol: 'TCP' }, dns: { protocol: 'TCP' } } } } },
    { name: 'null on a non-nullable field with a default is replaced', obj: { spec: { replicas: null, values: [null, 'y'] } },
      want: { spec: { replicas: 1, policy: { mode: 'Auto', limit: 5 }, tags: ['a'], values: ['x', 'y'] } } },
    { name: 'null on a nullable field stays', obj: { spec: { strategy: { partition: null } } },
      want: { spec: { replicas: 1, strategy: { type: 'ReCreate', partition: null }, policy: { mode: 'Auto', limit: 5 }, tags: ['a'] } } },
  ];
  for (const c of cases) test(c.name, () => assert.deepEqual(defaulted(c.obj), c.want));

  test('defaults are deep copies', () => {
    const a: Record<string, { tags?: string[] }> = { spec: {} };
    const b: Record<string, { tags?: string[] }> = { spec: {} };
    applyDefaults(schema, a);
    applyDefaults(schema, b);
    a.spec.tags?.push('changed');
    assert.deepEqual(b.spec.tags, ['a']);
    assert.deepEqual(schema.properties?.spec.properties?.tags.default, ['a']);
  });

  test('scalars and a missing schema are left alone', () => {
    assert.doesNotThrow(() => applyDefaults(schema, 'x'));
    const obj = { a: 1 };
    applyDefaults(undefined, obj);
    assert.deepEqual(obj, { a: 1 });
  });
});
