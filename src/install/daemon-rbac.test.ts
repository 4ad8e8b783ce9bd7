/** The kruise-daemon's RBAC as `kruise install` ships it: the chart's rules, and secrets only in kruise-daemon-config. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../api/meta.js';
import { createInProcessClient } from '../client/index.js';
import { startTestControlPlane, type TestControlPlane } from '../testing/control-plane.js';
import { installKruise } from './install.js';
import { installManifests } from './manifests.js';

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] };
const manifests = installManifests();
const find = (kind: string, name: string) => manifests.find((m) => m.kind === kind && m.metadata.name === name);
const rulesOf = (obj: KObject | undefined) => (obj?.rules ?? []) as Rule[];
/** `group/resource: verbs` per rule, sorted: the whole grant in one comparable list. */
const grants = (rules: Rule[]) => rules.flatMap((r) => r.apiGroups.flatMap((g) => r.resources.map((res) => `${g}/${res}: ${[...r.verbs].sort().join(',')}`))).sort();

const boundToDaemon = (m: KObject) => ((m.subjects ?? []) as { kind: string; name: string }[]).some((s) => s.kind === 'ServiceAccount' && s.name === 'kruise-daemon');

describe('kruise-daemon RBAC', () => {
  test('ClusterRole kruise-daemon-role holds exactly the daemon\'s grants', () => {
    assert.deepEqual(grants(rulesOf(find('ClusterRole', 'kruise-daemon-role'))), [
      '/events: create,patch,update',
      '/nodes: get,list,watch',
      '/pods/status: get,patch,update',
      '/pods: get,list,patch,update,watch',
      'apps.kruise.io/containerrecreaterequests/status: get,patch,update',
      'apps.kruise.io/containerrecreaterequests: get,list,watch',
      'apps.kruise.io/nodeimages/status: get,patch,update',
      'apps.kruise.io/nodeimages: get,list,patch,update,watch',
      'apps.kruise.io/nodepodprobes/status: get,patch,update',
      'apps.kruise.io/nodepodprobes: get,list,watch',
    ]);
  });

  test('secrets: get/list/watch in kruise-daemon-config only, never cluster-wide; no wildcards anywhere', () => {
    const bindings = manifests.filter((m) => (m.kind === 'ClusterRoleBinding' || m.kind === 'RoleBinding') && boundToDaemon(m));
    assert.deepEqual(bindings.map((b) => `${b.kind} ${b.metadata.namespace ?? ''}/${b.metadata.name}`).sort(), [
      'ClusterRoleBinding /kruise-daemon-rolebinding', 'RoleBinding kruise-daemon-config/kruise-daemon-secret-rolebinding',
    ]);
    for (const b of bindings) {
      const ref = b.roleRef as { kind: string; name: string };
      const role = manifests.find((m) => m.kind === ref.kind && m.metadata.name === ref.name && m.metadata.namespace === b.metadata.namespace);
      assert.ok(role, `${ref.kind} ${ref.name} is shipped`);
      for (const r of rulesOf(role)) {
        assert.ok(!r.verbs.includes('*') && !r.resources.includes('*') && !r.apiGroups.includes('*'), `no wildcard in ${JSON.stringify(r)}`);
        if (ref.kind === 'ClusterRole') assert.ok(!r.resources.includes('secrets'), 'no secrets in a ClusterRole');
      }
    }
    const role = find('Role', 'kruise-daemon-secret-role')!;
    assert.equal(role.metadata.namespace, 'kruise-daemon-config');
    assert.deepEqual(grants(rulesOf(role)), ['/secrets: get,list,watch']);
    const ns = manifests.findIndex((m) => m.kind === 'Namespace' && m.metadata.name === 'kruise-daemon-config');
    assert.ok(ns >= 0 && ns < manifests.indexOf(role), 'the namespace is applied before the Role in it');
    assert.equal(find('ServiceAccount', 'kruise-daemon')?.metadata.namespace, 'kruise-system');
  });

  describe('applied by kruise install', () => {
    let env: TestControlPlane;
    before(async () => { env = await startTestControlPlane(); });
    after(async () => { await env.stop(); });

    test('the namespace, ServiceAccount, roles and bindings are in the cluster', async () => {
      await installKruise(createInProcessClient(env.plane.handler));
      const got = await env.kubectl(['get', '-n', 'kruise-daemon-config', 'role/kruise-daemon-secret-role', 'rolebinding/kruise-daemon-secret-rolebinding', '-o', 'name']);
      assert.equal(got.code, 0, got.stderr);
      assert.deepEqual(got.stdout.trim().split('\n'), ['role.rbac.authorization.k8s.io/kruise-daemon-secret-role', 'rolebinding.rbac.authorization.k8s.io/kruise-daemon-secret-rolebinding']);
      const cluster = await env.kubectl(['get', 'clusterrole/kruise-daemon-role', 'clusterrolebinding/kruise-daemon-rolebinding', '-o', 'name']);
      assert.equal(cluster.code, 0, cluster.stderr);
      const sa = await env.kubectl(['get', '-n', 'kruise-system', 'serviceaccount/kruise-daemon', '-o', 'name']);
      assert.equal(sa.code, 0, sa.stderr);
    });
  });
});
