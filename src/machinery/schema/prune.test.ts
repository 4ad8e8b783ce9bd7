import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONSchemaProps } from './types.js';
import { dropNonNullableNulls, pruneUnknownFields } from './prune.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        ports: { type: 'object', additionalProperties: { type: 'object', properties: { port: { type: 'integer' } } } },
        template: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'object', properties: { a: { type: 'string' } } } },
        },
        raw: { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        embedded: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } },
        count: { type: 'integer', nullable: true },
        mode: { type: 'string', default: 'Auto' },
      },
    },
  },
};

/** Prunes a copy of `obj`; returns the reported paths and what is left. */
function prune(obj: Record<string, unknown>): { paths: string[]; left: Record<string, unknown> } {
  const left = structuredClone(obj);
  return { paths: pruneUnknownFields(schema, left), left };
}

describe('pruneUnknownFields', () => {
  const cases: Array<{ name: string; obj: Record<string, unknown>; paths: string[]; left: Record<string, unknown> }> = [
    { name: 'keeps declared fields and root apiVersion/kind/metadata',
      obj: { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a', whatever: 1 }, spec: { replicas: 1 } },
      paths: [], left: { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a', whatever: 1 }, spec: { replicas: 1 } } },
    { name: 'drops unknown root and nested fields',
      obj: { status: {}, spec: { replicas: 1, foo: 'bar' } },
      paths: ['status', 'spec.foo'], left: { spec: { replicas: 1 } } },
    { name: 'reports item paths',
      obj: { spec: { items: [{ name: 'a' }, { name: 'b', bar: true }] } },
      paths: ['spec.items[1].bar'], left: { spec: { items: [{ name: 'a' }, { name: 'b' }] } } },
    { name: 'map values are pruned against the value schema',
      obj: { spec: { labels: { a: 'b' }, ports: { http: { port: 80, extra: 1 } } } },
      paths: ['spec.ports.http.extra'], left: { spec: { labels: { a: 'b' }, ports: { http: { port: 80 } } } } },
    { name: 'preserve-unknown keeps unknown fields but prunes inside declared ones',
      obj: { spec: { template: { anything: { deep: 1 }, known: { a: 'x', b: 'y' } } } },
      paths: ['spec.template.known.b'], left: { spec: { template: { anything: { deep: 1 }, known: { a: 'x' } } } } },
    { name: 'preserve-unknown items keep everything',
      obj: { spec: { raw: [{ any: 1 }, { thing: [2] }] } },
      paths: [], left: { spec: { raw: [{ any: 1 }, { thing: [2] }] } } },
    { name: 'embedded resources keep apiVersion/kind/metadata',
      obj: { spec: { embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { labels: {} }, spec: {}, other: 1 } } },
      paths: ['spec.embedded.other'], left: { spec: { embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { labels: {} }, spec: {} } } } },
    { name: 'apiVersion below the root is an ordinary unknown field',
      obj: { spec: { apiVersion: 'v1' } }, paths: ['spec.apiVersion'], left: { spec: {} } },
    { name: 'nulls of non-nullable fields without a default read as absent',
      obj: { spec: { replicas: null, count: null, mode: null } },
      paths: [], left: { spec: { count: null, mode: null } } },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = prune(c.obj);
      assert.deepEqual(got.paths, c.paths);
      assert.deepEqual(got.left, c.left);
    });
  }

  test('fields named like Object.prototype members are unknown unless declared', () => {
    const got = prune({ spec: { constructor: 1, toString: 2 } });
    assert.deepEqual(got.paths, ['spec.constructor', 'spec.toString']);
    assert.deepEqual(got.left, { spec: {} });
  });
});

describe('dropNonNullableNulls', () => {
  test('walks arrays and maps', () => {
    const s: JSONSchemaProps = { type: 'object', properties: {
      list: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
      map: { type: 'object', additionalProperties: { type: 'string' } },
    } };
    const obj = { list: [{ a: null }, null], map: { k: null } };
    dropNonNullableNulls(s, obj);
    // A null array element has no key to drop; validation reports it.
    assert.deepEqual(obj, { list: [{}, null], map: {} });
  });
});
