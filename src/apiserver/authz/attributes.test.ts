import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { requestAttributes } from './attributes.js';
import { forbiddenError } from './forbidden.js';

const user = { username: 'x', groups: [] };
const attrs = (method: string, path: string, query = '') => requestAttributes(user, method, path, new URLSearchParams(query));

describe('request attributes (kube RequestInfoFactory)', () => {
  test('collections, objects, watches and deletecollection', () => {
    assert.deepEqual(attrs('GET', '/api/v1/namespaces/team-b/pods'), { isResource: true, user, verb: 'list', group: '', version: 'v1', resource: 'pods', subresource: '', namespace: 'team-b', name: '' });
    assert.equal(attrs('GET', '/api/v1/pods', 'watch=true').verb, 'watch');
    assert.equal(attrs('GET', '/apis/apps/v1/namespaces/a/deployments/d', 'watch=1').verb, 'watch');
    assert.equal(attrs('DELETE', '/api/v1/namespaces/a/pods').verb, 'deletecollection');
    assert.equal(attrs('PATCH', '/api/v1/namespaces/a/pods/p').verb, 'patch');
  });

  test('subresources, and a namespace carries its own name as namespace', () => {
    assert.deepEqual(attrs('GET', '/api/v1/namespaces/a/pods/p/log'), { isResource: true, user, verb: 'get', group: '', version: 'v1', resource: 'pods', subresource: 'log', namespace: 'a', name: 'p' });
    assert.deepEqual(attrs('GET', '/api/v1/namespaces/a'), { isResource: true, user, verb: 'get', group: '', version: 'v1', resource: 'namespaces', subresource: '', namespace: 'a', name: 'a' });
    assert.deepEqual(attrs('PUT', '/api/v1/namespaces/a/finalize'), { isResource: true, user, verb: 'update', group: '', version: 'v1', resource: 'namespaces', subresource: 'finalize', namespace: 'a', name: 'a' });
  });

  test('a list by metadata.name names the object', () => {
    assert.equal((attrs('GET', '/api/v1/namespaces/a/configmaps', 'fieldSelector=metadata.name%3Done') as { name: string }).name, 'one');
    assert.equal((attrs('GET', '/api/v1/namespaces/a/configmaps', 'fieldSelector=a%3Db') as { name: string }).name, '');
  });

  test('discovery and other paths are non-resource, with the method as verb', () => {
    assert.deepEqual(attrs('GET', '/api/v1'), { isResource: false, user, verb: 'get', path: '/api/v1' });
    assert.deepEqual(attrs('POST', '/healthz'), { isResource: false, user, verb: 'post', path: '/healthz' });
    assert.equal(attrs('GET', '/apis/apps/v1').isResource, false);
  });
});

describe('403 bodies (kube ForbiddenStatusError)', () => {
  test('namespaced, named, cluster-scoped, grouped and non-resource', () => {
    const list = forbiddenError(attrs('GET', '/api/v1/namespaces/team-b/pods'), '').toStatus();
    assert.equal(list.message, 'pods is forbidden: User "x" cannot list resource "pods" in API group "" in the namespace "team-b"');
    assert.deepEqual(list.details, { kind: 'pods' });
    const named = forbiddenError(attrs('GET', '/apis/apps/v1/namespaces/a/deployments/d/scale'), 'RBAC: role.rbac.authorization.k8s.io "r" not found').toStatus();
    assert.equal(named.message, 'deployments.apps "d" is forbidden: User "x" cannot get resource "deployments/scale" in API group "apps" in the namespace "a": RBAC: role.rbac.authorization.k8s.io "r" not found');
    assert.deepEqual(named.details, { name: 'd', group: 'apps', kind: 'deployments' });
    assert.equal(forbiddenError(attrs('GET', '/api/v1/nodes'), '').message, 'nodes is forbidden: User "x" cannot list resource "nodes" in API group "" at the cluster scope');
    const path = forbiddenError(attrs('GET', '/metrics'), '').toStatus();
    assert.equal(path.message, 'forbidden: User "x" cannot get path "/metrics"');
    assert.deepEqual(path.details, {});
  });
});
