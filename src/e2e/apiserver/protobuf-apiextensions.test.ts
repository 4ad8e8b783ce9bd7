/**
 * What stopped OpenKruise's own manager on `kruise up`: client-go sends CustomResourceDefinition creates,
 * updates and deletes as protobuf (`application/vnd.kubernetes.protobuf`). The server accepts them and
 * serves the custom resource the CRD declares (docs/design/client-compatibility.md §1).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { controlPlaneForSuite } from '../../testing/control-plane-suite.js';
import { widgetCrdBody } from '../../apiserver/http/protobuf/test-crd.js';
import { envelope, pb } from '../../apiserver/http/protobuf/test-encoder.js';

// Protobuf bodies in, JSON answers out (protobuf answers are cases-protobuf.ts's matter): what is asserted here is the decoding.
const PROTOBUF = { 'content-type': 'application/vnd.kubernetes.protobuf', accept: 'application/json' };
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

describe('protobuf apiextensions.k8s.io/v1 bodies from a client-go client', () => {
  const { api } = controlPlaneForSuite();

  test('create, update and delete a CRD in protobuf; its custom resource is served and validated', async () => {
    const created = await api.request('POST', CRDS, widgetCrdBody(), PROTOBUF);
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.spec.names.kind, 'Widget');
    assert.equal(created.body.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size.maximum, 10.5);

    let established = false;
    for (let i = 0; i < 100 && !established; i++) {
      const got = await api.request('GET', `${CRDS}/widgets.example.com`);
      established = (got.body.status?.conditions ?? []).some((c: any) => c.type === 'Established' && c.status === 'True');
      if (!established) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(established, 'the CRD becomes Established');

    const widgets = '/apis/example.com/v1/namespaces/default/widgets';
    const good = await api.request('POST', widgets, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { color: 'red' } });
    assert.equal(good.status, 201, good.text);
    assert.equal(good.body.spec.size, 3, 'the default from the protobuf schema applies');
    const bad = await api.request('POST', widgets, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w2' }, spec: { size: 11 } });
    assert.equal(bad.status, 422, bad.text);
    assert.match(bad.body.message, /spec\.size: Invalid value: 11: spec\.size in body should be less than or equal to 10\.5/);

    const rv = created.body.metadata.resourceVersion as string;
    const latest = (await api.request('GET', `${CRDS}/widgets.example.com`)).body.metadata.resourceVersion as string;
    const updated = await api.request('PUT', `${CRDS}/widgets.example.com`, widgetCrdBody({ resourceVersion: latest, description: 'the colour' }), PROTOBUF);
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.color.description, 'the colour');
    const stale = await api.request('PUT', `${CRDS}/widgets.example.com`, widgetCrdBody({ resourceVersion: rv }), PROTOBUF);
    assert.equal(stale.status, 409, 'an update at an old resourceVersion conflicts');

    const options = envelope('apiextensions.k8s.io/v1', 'DeleteOptions', pb.str(4, 'Background'));
    const deleted = await api.request('DELETE', `${CRDS}/widgets.example.com`, options, PROTOBUF);
    assert.equal(deleted.status, 200, deleted.text);
  });
});
