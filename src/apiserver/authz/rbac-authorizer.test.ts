import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { systemContext } from '../registry/context.js';
import type { Attributes } from './attributes.js';

const rbac = 'rbac.authorization.k8s.io';
const jane = { username: 'jane', groups: ['devs', 'system:authenticated'] };
const sa = { username: 'system:serviceaccount:team-a:bot', groups: ['system:serviceaccounts', 'system:serviceaccounts:team-a', 'system:authenticated'] };
const res = (user: typeof jane, verb: string, resource: string, namespace = '', name = '', group = ''): Attributes =>
  ({ isResource: true, user, verb, group, version: 'v1', resource, subresource: '', namespace, name });

describe('RBAC authorizer over the stored policy', () => {
  let env: TestControlPlane;
  const create = async (plural: string, object: KObject) => {
    const r = env.plane.registry.table.lookup(rbac, 'v1', plural)!;
    await env.plane.registry.create(r, object.metadata.namespace, { apiVersion: `${rbac}/v1`, ...object }, systemContext());
  };
  const decide = (a: Attributes) => env.plane.authorizer.authorize(a);

  before(async () => {
    env = await startTestControlPlane();
    const ns = env.plane.registry.table.lookup('', 'v1', 'namespaces')!;
    for (const name of ['team-a', 'team-b']) await env.plane.registry.create(ns, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, systemContext());
    await create('roles', { kind: 'Role', metadata: { name: 'cm-one', namespace: 'team-a' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['one'] }] });
    await create('rolebindings', { kind: 'RoleBinding', metadata: { name: 'bot-cm', namespace: 'team-a' }, roleRef: { apiGroup: rbac, kind: 'Role', name: 'cm-one' }, subjects: [{ kind: 'ServiceAccount', name: 'bot', namespace: 'team-a' }] });
    await create('rolebindings', { kind: 'RoleBinding', metadata: { name: 'devs-view', namespace: 'team-b' }, roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'Group', name: 'devs', apiGroup: rbac }] });
    await create('rolebindings', { kind: 'RoleBinding', metadata: { name: 'dangling', namespace: 'team-a' }, roleRef: { apiGroup: rbac, kind: 'Role', name: 'missing' }, subjects: [{ kind: 'User', name: 'jane', apiGroup: rbac }] });
  });
  after(() => env.stop());

  test('system:masters may do anything; nobody else by default', () => {
    assert.equal(decide(res({ username: 'root', groups: ['system:masters'] }, 'delete', 'nodes', '', 'n1')).decision, 'allow');
    assert.deepEqual(decide(res({ username: 'nobody', groups: ['system:authenticated'] }, 'list', 'secrets', 'team-b')), { decision: 'noOpinion', reason: '' });
  });

  test('a Role with resourceNames allows get of that name only, in its namespace only', () => {
    assert.deepEqual(decide(res(sa, 'get', 'configmaps', 'team-a', 'one')), { decision: 'allow', reason: 'RBAC: allowed by RoleBinding "bot-cm/team-a" of Role "cm-one" to ServiceAccount "bot/team-a"' });
    assert.equal(decide(res(sa, 'get', 'configmaps', 'team-a', 'two')).decision, 'noOpinion');
    assert.equal(decide(res(sa, 'list', 'configmaps', 'team-a')).decision, 'noOpinion');
    assert.equal(decide(res(sa, 'get', 'configmaps', 'team-b', 'one')).decision, 'noOpinion');
  });

  test('a group bound to the aggregated view role in one namespace', () => {
    assert.equal(decide(res(jane, 'list', 'pods', 'team-b')).decision, 'allow');
    assert.equal(decide(res(jane, 'list', 'deployments', 'team-b', '', 'apps')).decision, 'allow');
    assert.equal(decide(res(jane, 'get', 'secrets', 'team-b', 's')).decision, 'noOpinion');
    assert.equal(decide(res(jane, 'list', 'pods', '')).decision, 'noOpinion');
  });

  test('a binding to a missing role adds kube\'s error to the reason', () => {
    assert.deepEqual(decide(res(jane, 'get', 'pods', 'team-a', 'p')), { decision: 'noOpinion', reason: 'RBAC: role.rbac.authorization.k8s.io "missing" not found' });
  });

  test('bootstrap bindings: discovery and public info for everyone authenticated', () => {
    const anyone = { username: 'someone', groups: ['system:authenticated'] };
    assert.equal(decide({ isResource: false, user: anyone, verb: 'get', path: '/apis/apps/v1' }).decision, 'allow');
    assert.equal(decide({ isResource: false, user: { username: 'system:anonymous', groups: ['system:unauthenticated'] }, verb: 'get', path: '/version' }).decision, 'allow');
    assert.equal(decide({ isResource: false, user: { username: 'system:anonymous', groups: ['system:unauthenticated'] }, verb: 'get', path: '/api' }).decision, 'noOpinion');
  });

  test('a decision costs microseconds with a thousand bindings', async () => {
    for (let i = 0; i < 1000; i++) {
      await create('clusterrolebindings', { kind: 'ClusterRoleBinding', metadata: { name: `crb-${i}` }, roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: `user-${i}`, apiGroup: rbac }] });
    }
    const attrs = res({ username: 'user-999', groups: ['system:authenticated'] }, 'list', 'pods', 'team-b');
    assert.equal(decide(attrs).decision, 'allow');
    const started = process.hrtime.bigint();
    for (let i = 0; i < 10_000; i++) decide(attrs);
    const microsEach = Number(process.hrtime.bigint() - started) / 1e3 / 10_000;
    assert.ok(microsEach < 200, `${microsEach} µs per decision`);
  });
});
