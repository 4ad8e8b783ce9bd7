import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONSchemaProps } from '../../machinery/schema/types.js';
import { builtinSchema } from './builtin-schemas.js';
import type { OpenApiSchema } from './schema-types.js';

function at(schema: JSONSchemaProps | undefined, ...path: string[]): OpenApiSchema {
  let cur = schema as OpenApiSchema | undefined;
  for (const key of path) cur = key === '[]' ? cur?.items : cur?.properties?.[key];
  assert.ok(cur, `no schema at ${path.join('.')}`);
  return cur;
}

describe('builtinSchema', () => {
  const pod = builtinSchema('', 'v1', 'Pod');

  test('Pod: spec.containers items have name and image, merged by name', () => {
    const containers = at(pod, 'spec', 'containers');
    assert.equal(containers.type, 'array');
    assert.equal(containers['x-kubernetes-patch-merge-key'], 'name');
    assert.equal(containers['x-kubernetes-patch-strategy'], 'merge');
    assert.deepEqual(at(pod, 'spec', 'containers', '[]', 'name'), { type: 'string' });
    assert.deepEqual(at(pod, 'spec', 'containers', '[]', 'image'), { type: 'string' });
    assert.equal(at(pod, 'spec', 'containers', '[]', 'ports')['x-kubernetes-patch-merge-key'], 'containerPort');
  });

  test('is fully inlined, typed and tagged with its GVK', () => {
    assert.equal(JSON.stringify(pod).includes('$ref'), false);
    assert.deepEqual((pod as OpenApiSchema)['x-kubernetes-group-version-kind'], [{ group: '', kind: 'Pod', version: 'v1' }]);
    assert.deepEqual(at(pod, 'metadata', 'creationTimestamp'), { type: 'string', format: 'date-time' });
    assert.deepEqual(at(pod, 'metadata', 'labels').additionalProperties, { type: 'string' });
    assert.equal(at(pod, 'spec', 'containers', '[]', 'livenessProbe', 'httpGet', 'port')['x-kubernetes-int-or-string'], true);
    assert.deepEqual(at(pod, 'spec', 'terminationGracePeriodSeconds'), { type: 'integer', format: 'int64' });
    const limits = at(pod, 'spec', 'containers', '[]', 'resources', 'limits');
    assert.deepEqual(limits.additionalProperties, { oneOf: [{ type: 'string' }, { type: 'number' }] });
  });

  test('apps/v1 Deployment and preserve-unknown-fields for raw data', () => {
    const d = builtinSchema('apps', 'v1', 'Deployment');
    assert.equal(at(d, 'spec', 'template', 'spec', 'volumes')['x-kubernetes-list-map-keys']?.[0], 'name');
    const cr = builtinSchema('apps', 'v1', 'ControllerRevision');
    assert.equal(at(cr, 'data')['x-kubernetes-preserve-unknown-fields'], true);
  });

  test('recursive types are cut with x-kubernetes-preserve-unknown-fields', () => {
    const crd = builtinSchema('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition');
    const schema = at(crd, 'spec', 'versions', '[]', 'schema', 'openAPIV3Schema');
    assert.equal(schema.type, 'object');
    const nested = (schema.properties?.properties?.additionalProperties ?? {}) as OpenApiSchema;
    assert.equal(nested['x-kubernetes-preserve-unknown-fields'], true);
    assert.doesNotThrow(() => JSON.stringify(crd));
  });

  test('unknown kinds have no schema; results are read-only', () => {
    assert.equal(builtinSchema('apps.kruise.io', 'v1alpha1', 'CloneSet'), undefined);
    assert.throws(() => {
      (at(pod, 'spec') as { type?: string }).type = 'string';
    }, TypeError);
  });
});
