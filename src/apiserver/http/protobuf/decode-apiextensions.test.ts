import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobufObject } from './decode.js';
import { envelope, objectMeta, pb } from './test-encoder.js';
import { schemaProps, widgetCrdBody } from './test-crd.js';

const decode = (body: Buffer) => decodeProtobufObject(body).object;

/** A CRD whose root schema is `extra`, to look at one schema's JSON. */
function crdWithSchema(root: Buffer): Record<string, unknown> {
  const version = pb.msg(7, pb.str(1, 'v1'), pb.bool(2, true), pb.bool(3, true), pb.msg(4, pb.bytes(1, root)));
  const spec = pb.msg(2, pb.str(1, 'g.io'), pb.str(4, 'Cluster'), version);
  const crd = decode(envelope('apiextensions.k8s.io/v1', 'CustomResourceDefinition', objectMeta(1, { name: 'x.g.io' }), spec));
  return ((crd.spec as any).versions[0].schema.openAPIV3Schema) as Record<string, unknown>;
}

describe('protobuf apiextensions.k8s.io/v1 bodies', () => {
  test('a CustomResourceDefinition decodes to the JSON client-go would have sent', () => {
    const crd = decode(widgetCrdBody());
    assert.equal(crd.kind, 'CustomResourceDefinition');
    const spec = crd.spec as any;
    assert.deepEqual(spec.names, { plural: 'widgets', singular: 'widget', shortNames: ['wg'], kind: 'Widget', listKind: 'WidgetList' });
    assert.equal(spec.scope, 'Namespaced');
    assert.deepEqual(spec.versions[0].subresources, { status: {} });
    const props = spec.versions[0].schema.openAPIV3Schema.properties;
    assert.deepEqual(props.status, { type: 'object', additionalProperties: true });
    assert.deepEqual(props.spec.properties.size, { type: 'integer', default: 3, maximum: 10.5, minimum: 1 });
    assert.deepEqual(props.spec.properties.color, { type: 'string', maxLength: 8, enum: ['red', 'blue'] });
    assert.deepEqual(props.spec.properties.tags, { type: 'array', items: { type: 'string' } });
    assert.deepEqual(props.spec.properties.labels, { type: 'object', additionalProperties: { type: 'string' } });
    assert.deepEqual(props.spec.properties.port, { 'x-kubernetes-int-or-string': true });
    assert.deepEqual(props.spec.properties.extra, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  });

  test('the unions: additionalProperties false, items as a list, dependencies as strings or a schema', () => {
    const items = pb.msg(24, pb.bytes(2, schemaProps({ type: 'string' })), pb.bytes(2, schemaProps({ type: 'integer' })));
    const deps = [pb.msg(32, pb.str(1, 'a'), pb.msg(2, pb.str(2, 'b'), pb.str(2, 'c'))),
      pb.msg(32, pb.str(1, 'd'), pb.msg(2, pb.bytes(1, schemaProps({ type: 'object' }))))];
    const root = Buffer.concat([pb.str(5, 'object'), pb.msg(30, pb.bool(1, false)), items, ...deps]);
    assert.deepEqual(crdWithSchema(root), {
      type: 'object', additionalProperties: false, items: [{ type: 'string' }, { type: 'integer' }],
      dependencies: { a: ['b', 'c'], d: { type: 'object' } },
    });
  });

  test('a DeleteOptions tagged with apiextensions.k8s.io/v1, as client-go tags it', () => {
    const body = envelope('apiextensions.k8s.io/v1', 'DeleteOptions', pb.str(4, 'Foreground'));
    assert.deepEqual(decode(body), { kind: 'DeleteOptions', apiVersion: 'apiextensions.k8s.io/v1', propagationPolicy: 'Foreground' });
  });
});
