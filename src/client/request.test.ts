/** Paths and query strings of the shared request builders. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMaps, Deployments, Namespaces, Nodes } from '../api/resource-type.js';
import { StatusError } from '../machinery/errors.js';
import { listRequest, patchRequest, resourcePath, updateRequest } from './request.js';

test('resource paths for core, grouped, namespaced and cluster-scoped types', () => {
  const cases: [string, string][] = [
    [resourcePath(ConfigMaps, 'ns', 'a'), '/api/v1/namespaces/ns/configmaps/a'],
    [resourcePath(ConfigMaps, undefined), '/api/v1/configmaps'],
    [resourcePath(Deployments, 'ns', 'd', 'scale'), '/apis/apps/v1/namespaces/ns/deployments/d/scale'],
    [resourcePath(Deployments, 'ns'), '/apis/apps/v1/namespaces/ns/deployments'],
    [resourcePath(Nodes, 'ignored', 'n1', 'status'), '/api/v1/nodes/n1/status'],
    [resourcePath(Namespaces, undefined, 'kube-system'), '/api/v1/namespaces/kube-system'],
    [resourcePath(ConfigMaps, 'a/b', 'x?y#z'), '/api/v1/namespaces/a%2Fb/configmaps/x%3Fy%23z'],
  ];
  for (const [got, want] of cases) assert.equal(got, want);
});

test('named namespaced requests need a namespace; names may not be empty', () => {
  assert.throws(() => resourcePath(ConfigMaps, undefined, 'a'), (e) => e instanceof StatusError && e.code === 400);
  assert.throws(() => updateRequest(Nodes, { metadata: {} }), (e) => e instanceof StatusError && e.message === 'resource name may not be empty');
});

test('list query carries only the options given', () => {
  assert.equal(listRequest(ConfigMaps, {}).query.toString(), '');
  assert.equal(listRequest(ConfigMaps, { namespace: 'n', limit: 2, continue: 'tok', labelSelector: 'a!=b' }).query.toString(), 'labelSelector=a%21%3Db&limit=2&continue=tok');
});

test('force is sent only with apply; a string patch goes out unchanged', () => {
  assert.equal(patchRequest(Nodes, undefined, 'n', 'merge', {}, { force: true }).query.get('force'), null);
  const yaml = patchRequest(Nodes, undefined, 'n', 'apply', 'metadata:\n  name: n\n', { fieldManager: 'f' });
  assert.equal(yaml.body?.toString(), 'metadata:\n  name: n\n');
});
