import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '../errors.js';
import { applyDefaults, checkStructural, pruneUnknownFields, schemaAt, validateAgainstSchema, type JSONSchemaProps } from './index.js';

const intOrString: JSONSchemaProps = { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true };
const int32: JSONSchemaProps = { type: 'integer', format: 'int32' };

/** A hand-made fragment shaped like controller-gen's CloneSet apps.kruise.io/v1alpha1 schema. */
const cloneSetSchema: JSONSchemaProps = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      required: ['selector', 'template'],
      properties: {
        replicas: { ...int32, minimum: 0 },
        minReadySeconds: int32,
        revisionHistoryLimit: { ...int32, default: 10 },
        selector: {
          type: 'object',
          'x-kubernetes-map-type': 'atomic',
          properties: {
            matchExpressions: { type: 'array', items: { type: 'object', required: ['key', 'operator'], properties: {
              key: { type: 'string' }, operator: { type: 'string' }, values: { type: 'array', items: { type: 'string' } },
            } } },
            matchLabels: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
        template: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        volumeClaimTemplates: { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        scaleStrategy: { type: 'object', properties: {
          maxUnavailable: intOrString,
          podsToDelete: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        } },
        updateStrategy: { type: 'object', properties: {
          type: { type: 'string', enum: ['ReCreate', 'InPlaceIfPossible', 'InPlaceOnly'], default: 'ReCreate' },
          partition: intOrString,
          maxUnavailable: intOrString,
          maxSurge: intOrString,
          paused: { type: 'boolean' },
          inPlaceUpdateStrategy: { type: 'object', properties: { gracePeriodSeconds: int32 } },
        } },
      },
    },
    status: { type: 'object', properties: { replicas: int32, observedGeneration: { type: 'integer', format: 'int64' } } },
  },
};

function cloneSet(spec: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet',
    metadata: { name: 'sample', namespace: 'default', labels: { app: 'sample' } },
    spec: {
      selector: { matchLabels: { app: 'sample' } },
      template: { metadata: { labels: { app: 'sample' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] } },
      ...spec,
    },
  };
}

/** The write path in the documented order: prune, default, validate. */
function admit(obj: Record<string, unknown>): { unknown: string[]; errors: string[] } {
  const unknown = pruneUnknownFields(cloneSetSchema, obj);
  applyDefaults(cloneSetSchema, obj);
  return { unknown, errors: validateAgainstSchema(cloneSetSchema, obj).map(fieldErrorMessage) };
}

describe('CloneSet schema fixture', () => {
  test('the schema is structural', () => {
    assert.deepEqual(checkStructural(cloneSetSchema, 'spec.versions[0].schema.openAPIV3Schema'), []);
  });

  test('a valid CloneSet passes, keeps its template and gets defaults', () => {
    const obj = cloneSet({ replicas: 5, updateStrategy: { partition: '20%', maxUnavailable: 2 } });
    const before = structuredClone(obj);
    assert.deepEqual(admit(obj), { unknown: [], errors: [] });
    assert.deepEqual(obj.spec, {
      ...(before.spec as object),
      revisionHistoryLimit: 10,
      updateStrategy: { partition: '20%', maxUnavailable: 2, type: 'ReCreate' },
    });
  });

  test('unknown fields are pruned and reported, the template is preserved', () => {
    const obj = cloneSet({ replicas: 1, foo: 'bar', scaleStrategy: { maxUnavailable: 1, surprise: true } });
    (obj.spec as Record<string, Record<string, unknown>>).template.extra = { kept: true };
    const got = admit(obj);
    assert.deepEqual(got, { unknown: ['spec.foo', 'spec.scaleStrategy.surprise'], errors: [] });
    const spec = obj.spec as Record<string, Record<string, unknown>>;
    assert.equal('foo' in spec, false);
    assert.deepEqual(spec.scaleStrategy, { maxUnavailable: 1 });
    assert.deepEqual(spec.template.extra, { kept: true });
  });

  test('an invalid maxUnavailable type is rejected with upstream messages', () => {
    const got = admit(cloneSet({ updateStrategy: { maxUnavailable: true } }));
    assert.deepEqual(got.errors, [
      'spec.updateStrategy.maxUnavailable: Invalid value: "boolean": spec.updateStrategy.maxUnavailable in body must be of type integer,string: "boolean"',
      '<nil>: Invalid value: "": "spec.updateStrategy.maxUnavailable" must validate at least one schema (anyOf)',
      'spec.updateStrategy.maxUnavailable: Invalid value: "boolean": spec.updateStrategy.maxUnavailable in body must be of type integer: "boolean"',
    ]);
  });

  test('other spec mistakes', () => {
    const obj = cloneSet({ replicas: -1, updateStrategy: { type: 'Foo' }, scaleStrategy: { podsToDelete: ['a', 'a'] } });
    delete (obj.spec as Record<string, unknown>).selector;
    assert.deepEqual(admit(obj).errors, [
      'spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0',
      'spec.scaleStrategy.podsToDelete[1]: Duplicate value: "a"',
      'spec.updateStrategy.type: Unsupported value: "Foo": supported values: "ReCreate", "InPlaceIfPossible", "InPlaceOnly"',
      'spec.selector: Required value',
    ]);
  });

  test('a null replicas reads as absent; a null strategy type gets its default', () => {
    const obj = cloneSet({ replicas: null, updateStrategy: { type: null } });
    assert.deepEqual(admit(obj), { unknown: [], errors: [] });
    const spec = obj.spec as Record<string, Record<string, unknown>>;
    assert.equal('replicas' in spec, false);
    assert.equal(spec.updateStrategy.type, 'ReCreate');
  });

  test('schemaAt finds the scale and list-type paths', () => {
    assert.equal(schemaAt(cloneSetSchema, ['spec', 'replicas'])?.format, 'int32');
    assert.equal(schemaAt(cloneSetSchema, ['spec', 'scaleStrategy', 'podsToDelete'])?.['x-kubernetes-list-type'], 'set');
    assert.equal(schemaAt(cloneSetSchema, ['spec', 'selector'])?.['x-kubernetes-map-type'], 'atomic');
  });
});
