import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceDefinition } from '../../api/resource.js';
import { ProtoWriter } from './proto-writer.js';
import { openApiV2Document } from './v2-document.js';
import { encodeOpenApiV2 } from './v2-proto.js';

const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const deployment: ResourceDefinition = {
  group: 'apps', version: 'v1', kind: 'Deployment', listKind: 'DeploymentList', plural: 'deployments', singular: 'deployment',
  namespaced: true, verbs: allVerbs, subresources: { status: true },
};
const cloneSet: ResourceDefinition = {
  group: 'apps.kruise.io', version: 'v1alpha1', kind: 'CloneSet', listKind: 'CloneSetList', plural: 'clonesets', singular: 'cloneset',
  namespaced: true, verbs: allVerbs,
};
const crdSchema = {
  type: 'object',
  properties: { spec: { type: 'object', properties: { maxUnavailable: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }, raw: { type: 'array' } } } },
};

 
type J = any;

const doc = openApiV2Document([
  { groupVersion: 'apps/v1', resources: [{ definition: deployment }] },
  { groupVersion: 'apps.kruise.io/v1alpha1', resources: [{ definition: cloneSet, schema: crdSchema }] },
]) as { paths: Record<string, J>; definitions: Record<string, J> };

/** Walks every schema node, as kube-openapi's proto parser would. */
function walk(s: J, visit: (s: J) => void): void {
  if (!s || typeof s !== 'object') return;
  visit(s);
  for (const p of Object.values(s.properties ?? {})) walk(p, visit);
  if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, visit);
  walk(s.items, visit);
}

describe('openApiV2Document', () => {
  test('every schema is parseable by kube-openapi: one type, items on arrays, resolvable refs, no unions', () => {
    for (const [name, def] of Object.entries(doc.definitions)) {
      walk(def, (s) => {
        if (s.$ref) assert.ok(doc.definitions[s.$ref.replace('#/definitions/', '')], `${name}: dangling ${s.$ref}`);
        assert.equal(s.oneOf ?? s.anyOf ?? s.allOf, undefined, `${name}: union left`);
        if (s.type === 'array') assert.ok(s.items, `${name}: array without items`);
        if (s.type !== undefined) assert.ok(['object', 'array', 'string', 'integer', 'number', 'boolean'].includes(s.type));
      });
    }
    assert.deepEqual(doc.definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString'].type, 'string');
    const spec = doc.definitions['io.kruise.apps.v1alpha1.CloneSet'].properties.spec;
    assert.deepEqual([spec.properties.maxUnavailable.type, spec.properties.maxUnavailable.format], ['string', 'int-or-string']);
    assert.equal(spec.properties.raw.type, undefined);
  });

  test('PATCH operations keep GVK, a body parameter and fieldValidation', () => {
    const patch = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
    assert.deepEqual(patch['x-kubernetes-group-version-kind'], { group: 'apps', version: 'v1', kind: 'Deployment' });
    assert.ok(patch.parameters.some((p: J) => p.name === 'fieldValidation' && p.in === 'query' && p.type === 'string'));
    assert.ok(patch.parameters.some((p: J) => p.in === 'body' && p.schema.$ref === '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch'));
    assert.ok(patch.consumes.includes('application/strategic-merge-patch+json'));
    assert.equal(doc.definitions['io.k8s.api.core.v1.PodSpec'].properties.containers['x-kubernetes-patch-merge-key'], 'name');
  });
});

/** Minimal protobuf reader for the assertions below: field number -> raw values. */
function fields(buf: Buffer): Map<number, (Buffer | bigint)[]> {
  const out = new Map<number, (Buffer | bigint)[]>();
  let pos = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[pos++];
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return result;
      shift += 7n;
    }
  };
  while (pos < buf.length) {
    const key = Number(varint());
    const [field, wire] = [key >> 3, key & 7];
    let value: Buffer | bigint;
    if (wire === 0) value = varint();
    else if (wire === 1) value = buf.subarray(pos, (pos += 8));
    else {
      const len = Number(varint());
      value = buf.subarray(pos, (pos += len));
    }
    out.set(field, [...(out.get(field) ?? []), value]);
  }
  return out;
}

describe('protobuf encoding', () => {
  test('ProtoWriter wire format', () => {
    const buf = new ProtoWriter().int64(1, 300).string(2, 'hi').bool(3, false).bool(4, false, true).int64(5, -1).finish();
    assert.deepEqual([...buf.subarray(0, 3)], [0x08, 0xac, 0x02]);
    assert.deepEqual([...buf.subarray(3, 7)], [0x12, 0x02, 0x68, 0x69]);
    assert.deepEqual([...buf.subarray(7, 9)], [0x20, 0x00]);
    assert.equal(buf.length, 9 + 11);
  });

  test('the document encodes as gnostic openapi.v2.Document', () => {
    const top = fields(encodeOpenApiV2(doc));
    assert.equal((top.get(1)?.[0] as Buffer).toString(), '2.0');
    const pathNames = fields(top.get(8)?.[0] as Buffer).get(2)?.map((p) => fields(p as Buffer).get(1)?.[0]?.toString());
    assert.ok(pathNames?.includes('/apis/apps/v1/namespaces/{namespace}/deployments/{name}'));
    const defs = fields(top.get(9)?.[0] as Buffer).get(1) ?? [];
    const names = defs.map((d) => fields(d as Buffer).get(1)?.[0]?.toString());
    assert.ok(names.includes('io.k8s.api.apps.v1.Deployment'));
    const deploymentDef = fields(defs[names.indexOf('io.k8s.api.apps.v1.Deployment')] as Buffer).get(2)?.[0] as Buffer;
    const ext = fields(deploymentDef).get(31)?.map((e) => fields(e as Buffer)) ?? [];
    const gvk = ext.find((e) => e.get(1)?.[0]?.toString() === 'x-kubernetes-group-version-kind');
    const yaml = fields(gvk?.get(2)?.[0] as Buffer).get(2)?.[0]?.toString();
    assert.deepEqual(JSON.parse(yaml ?? 'null'), [{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
  });
});
