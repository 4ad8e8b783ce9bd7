import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Attributes } from './attributes.js';
import { ruleAllows, type PolicyRule } from './rule-match.js';

const user = { username: 'jane', groups: [] };
const res = (verb: string, resource: string, extra: Partial<Extract<Attributes, { isResource: true }>> = {}): Attributes => ({
  isResource: true, user, verb, group: '', version: 'v1', resource, subresource: '', namespace: 'team-a', name: '', ...extra,
});
const path = (verb: string, p: string): Attributes => ({ isResource: false, user, verb, path: p });

const cases: { name: string; rule: PolicyRule; attrs: Attributes; allowed: boolean }[] = [
  { name: 'exact verb, group and resource', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, attrs: res('get', 'pods'), allowed: true },
  { name: 'another verb', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, attrs: res('list', 'pods'), allowed: false },
  { name: 'another group', rule: { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] }, attrs: res('get', 'pods'), allowed: false },
  { name: '* verbs, groups and resources', rule: { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, attrs: res('delete', 'deployments', { group: 'apps' }), allowed: true },
  { name: 'resource without its subresource', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, attrs: res('get', 'pods', { subresource: 'log', name: 'p' }), allowed: false },
  { name: 'pods/log', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, attrs: res('get', 'pods', { subresource: 'log', name: 'p' }), allowed: true },
  { name: 'pods/log is not pods', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, attrs: res('get', 'pods', { name: 'p' }), allowed: false },
  { name: '*/scale for any resource', rule: { verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] }, attrs: res('update', 'deployments', { group: 'apps', subresource: 'scale', name: 'd' }), allowed: true },
  { name: '*/scale is not */status', rule: { verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] }, attrs: res('update', 'deployments', { group: 'apps', subresource: 'status', name: 'd' }), allowed: false },
  { name: 'a named resource', rule: { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['one'] }, attrs: res('get', 'configmaps', { name: 'one' }), allowed: true },
  { name: 'another name', rule: { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['one'] }, attrs: res('get', 'configmaps', { name: 'two' }), allowed: false },
  { name: 'resourceNames never allow a list', rule: { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['one'] }, attrs: res('list', 'configmaps'), allowed: false },
  { name: 'a resource rule never allows a path', rule: { verbs: ['get'], apiGroups: ['*'], resources: ['*'] }, attrs: path('get', '/healthz'), allowed: false },
  { name: 'exact path', rule: { verbs: ['get'], nonResourceURLs: ['/healthz'] }, attrs: path('get', '/healthz'), allowed: true },
  { name: 'exact path is not its children', rule: { verbs: ['get'], nonResourceURLs: ['/healthz'] }, attrs: path('get', '/healthz/etcd'), allowed: false },
  { name: 'prefix*', rule: { verbs: ['get'], nonResourceURLs: ['/healthz/*'] }, attrs: path('get', '/healthz/etcd'), allowed: true },
  { name: 'prefix* is a string prefix', rule: { verbs: ['get'], nonResourceURLs: ['/api*'] }, attrs: path('get', '/apis/apps'), allowed: true },
  { name: '* path', rule: { verbs: ['*'], nonResourceURLs: ['*'] }, attrs: path('post', '/anything'), allowed: true },
  { name: 'path verb is the method', rule: { verbs: ['get'], nonResourceURLs: ['*'] }, attrs: path('post', '/anything'), allowed: false },
  { name: 'a path rule never allows a resource', rule: { verbs: ['*'], nonResourceURLs: ['*'] }, attrs: res('get', 'pods'), allowed: false },
];

describe('ruleAllows (kube RuleAllows)', () => {
  for (const c of cases) test(c.name, () => assert.equal(ruleAllows(c.attrs, c.rule), c.allowed));
});
