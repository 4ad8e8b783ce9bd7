import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceDefinition } from '../../api/resource.js';
import { hashDocument, openApiV3Document, openApiV3Index } from './document.js';

const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const deployment: ResourceDefinition = {
  group: 'apps', version: 'v1', kind: 'Deployment', listKind: 'DeploymentList', plural: 'deployments', singular: 'deployment',
  namespaced: true, verbs: allVerbs,
  subresources: { status: true, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
};
const cloneSet: ResourceDefinition = {
  group: 'apps.kruise.io', version: 'v1beta1', kind: 'CloneSet', listKind: 'CloneSetList', plural: 'clonesets', singular: 'cloneset',
  namespaced: true, verbs: allVerbs, subresources: { status: true },
};
const cloneSetSchema = {
  type: 'object',
  properties: { spec: { type: 'object', properties: { replicas: { type: 'integer', description: 'desired replicas' } } } },
};

 
type J = any;
type Doc = { paths: Record<string, Record<string, J>>; components: { schemas: Record<string, J> } };

function patchOps(doc: Doc): J[] {
  return Object.values(doc.paths).map((p) => p.patch).filter((op) => op !== undefined);
}

describe('openApiV3Document', () => {
  const apps = openApiV3Document({ groupVersion: 'apps/v1', resources: [{ definition: deployment }] }) as unknown as Doc;

  test('apps/v1 has collection, item, all-namespaces, status and scale paths', () => {
    assert.deepEqual(Object.keys(apps.paths).sort(), [
      '/apis/apps/v1/deployments',
      '/apis/apps/v1/namespaces/{namespace}/deployments',
      '/apis/apps/v1/namespaces/{namespace}/deployments/{name}',
      '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale',
      '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status',
    ]);
    const item = apps.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'];
    assert.deepEqual(Object.keys(item).filter((k) => k !== 'parameters').sort(), ['delete', 'get', 'patch', 'put']);
  });

  test('every PATCH carries the GVK and the fieldValidation query parameter (what kubectl checks)', () => {
    const ops = patchOps(apps);
    assert.equal(ops.length, 3);
    for (const op of ops) {
      const names = (op.parameters as { name: string; in: string }[]).filter((p) => p.in === 'query').map((p) => p.name);
      for (const n of ['fieldValidation', 'dryRun', 'fieldManager', 'force']) assert.ok(names.includes(n), `${op.operationId} lacks ${n}`);
    }
    const item = apps.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
    assert.deepEqual(item['x-kubernetes-group-version-kind'], { group: 'apps', version: 'v1', kind: 'Deployment' });
    assert.equal(item.operationId, 'patchAppsV1NamespacedDeployment');
    assert.ok('application/strategic-merge-patch+json' in item.requestBody.content);
    const scale = apps.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale'].patch;
    assert.deepEqual(scale['x-kubernetes-group-version-kind'], { group: 'autoscaling', version: 'v1', kind: 'Scale' });
  });

  test('components hold the kind with its GVK and everything it references', () => {
    const s = apps.components.schemas;
    assert.deepEqual(s['io.k8s.api.apps.v1.Deployment']['x-kubernetes-group-version-kind'], [{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
    assert.ok(s['io.k8s.api.apps.v1.DeploymentList']);
    assert.ok(s['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'].properties.labels);
    const containers = s['io.k8s.api.core.v1.PodSpec'].properties.containers;
    assert.equal(containers['x-kubernetes-patch-merge-key'], 'name');
    assert.equal(containers['x-kubernetes-patch-strategy'], 'merge');
    assert.deepEqual(containers.items, { $ref: '#/components/schemas/io.k8s.api.core.v1.Container' });
    for (const ref of JSON.stringify(apps).match(/#\/components\/schemas\/[^"]+/g) ?? []) {
      assert.ok(s[ref.slice('#/components/schemas/'.length)], `dangling ${ref}`);
    }
  });

  test('a CRD document uses the CRD schema, reversed-group names and no strategic merge patch', () => {
    const doc = openApiV3Document({ groupVersion: 'apps.kruise.io/v1beta1', resources: [{ definition: cloneSet, schema: cloneSetSchema }] }) as unknown as Doc;
    const schema = doc.components.schemas['io.kruise.apps.v1beta1.CloneSet'];
    assert.deepEqual(schema['x-kubernetes-group-version-kind'], [{ group: 'apps.kruise.io', kind: 'CloneSet', version: 'v1beta1' }]);
    assert.equal(schema.properties.spec.properties.replicas.description, 'desired replicas');
    assert.deepEqual(schema.properties.metadata.allOf, [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }]);
    assert.ok(doc.components.schemas['io.kruise.apps.v1beta1.CloneSetList']);
    const patch = doc.paths['/apis/apps.kruise.io/v1beta1/namespaces/{namespace}/clonesets/{name}'].patch;
    assert.deepEqual(patch['x-kubernetes-group-version-kind'], { group: 'apps.kruise.io', version: 'v1beta1', kind: 'CloneSet' });
    assert.equal('application/strategic-merge-patch+json' in patch.requestBody.content, false);
    assert.ok(patchOps(doc).every((op) => op.parameters.some((p: { name: string }) => p.name === 'fieldValidation')));
  });

  test('cluster-scoped core resources and verbs limit the operations', () => {
    const ns: ResourceDefinition = {
      group: '', version: 'v1', kind: 'Namespace', listKind: 'NamespaceList', plural: 'namespaces', singular: 'namespace',
      namespaced: false, verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    };
    const doc = openApiV3Document({ groupVersion: 'v1', resources: [{ definition: ns }] }) as unknown as Doc;
    assert.deepEqual(Object.keys(doc.paths).sort(), ['/api/v1/namespaces', '/api/v1/namespaces/{name}']);
    assert.equal(doc.paths['/api/v1/namespaces'].delete, undefined);
    assert.equal(doc.paths['/api/v1/namespaces/{name}'].patch.operationId, 'patchCoreV1Namespace');
    assert.ok(doc.components.schemas['io.k8s.api.core.v1.Namespace']);
  });
});

describe('index and hashing', () => {
  test('the index points at hashed per-group-version documents', () => {
    assert.deepEqual(openApiV3Index([{ path: 'api/v1', hash: 'AB' }, { path: 'apis/apps/v1', hash: 'CD' }]), {
      paths: {
        'api/v1': { serverRelativeURL: '/openapi/v3/api/v1?hash=AB' },
        'apis/apps/v1': { serverRelativeURL: '/openapi/v3/apis/apps/v1?hash=CD' },
      },
    });
  });

  test('hashes ignore key order and change with content', () => {
    const h = hashDocument({ a: 1, b: { c: [1, 2] } });
    assert.match(h, /^[0-9A-F]{64}$/);
    assert.equal(hashDocument({ b: { c: [1, 2] }, a: 1 }), h);
    assert.notEqual(hashDocument({ a: 1, b: { c: [2, 1] } }), h);
    const doc1 = openApiV3Document({ groupVersion: 'apps.kruise.io/v1beta1', resources: [{ definition: cloneSet, schema: cloneSetSchema }] });
    const doc2 = openApiV3Document({ groupVersion: 'apps.kruise.io/v1beta1', resources: [{ definition: cloneSet, schema: { ...cloneSetSchema, description: 'changed' } }] });
    assert.notEqual(hashDocument(doc1), hashDocument(doc2));
  });
});
