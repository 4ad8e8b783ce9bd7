/**
 * Each component of `kruise up` acts as itself (docs/design/authorization.md §14, §15): the Kruise
 * manager as its ServiceAccount with the ClusterRole `kruise install` ships, so taking a verb out of
 * that role stops it with the API server's 403; kubelets are decided by the Node mode; the scheduler
 * and the controllers by kube's bootstrap roles.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { upForSuite } from '../../testing/up-suite.js';
import { eventually } from '../../testing/workload-env.js';

type Obj = Record<string, any>; // any: kubectl's JSON output, read field by field

describe('component identities in kruise up', () => {
  const { kubectl, run, json } = upForSuite('identities');

  test('the manager writes as system:serviceaccount:kruise-system:kruise-manager: without pods create in its role it gets 403', async () => {
    const role = await json(['get', 'clusterrole', 'kruise-manager-role']);
    // pods keep every verb but create; the resources sharing their rule (events among them) keep theirs
    const without = (role.rules as Obj[]).flatMap((r) => (r.resources?.includes('pods') && r.apiGroups?.includes('')
      ? [{ ...r, resources: r.resources.filter((x: string) => x !== 'pods') }, { ...r, resources: ['pods'], verbs: r.verbs.filter((v: string) => v !== 'create') }]
      : [r]));
    assert.notDeepEqual(without, role.rules, 'the shipped role lets the manager create pods');
    await run(['patch', 'clusterrole', 'kruise-manager-role', '--type', 'merge', '-p', JSON.stringify({ rules: without })]);
    await run(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'who', namespace: 'default' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'who' } }, template: { metadata: { labels: { app: 'who' } }, spec: { containers: [{ name: 'c', image: 'nginx:alpine' }] } } },
    }));
    const event = await eventually('a FailedCreate event naming the manager', async () =>
      ((await json(['get', 'events', '--field-selector', 'involvedObject.name=who'])).items as Obj[]).find((e) => e.reason === 'FailedCreate'), 30_000);
    assert.match(event.message, /User "system:serviceaccount:kruise-system:kruise-manager" cannot create resource "pods" in API group "" in the namespace "default"/);
    await run(['patch', 'clusterrole', 'kruise-manager-role', '--type', 'merge', '-p', JSON.stringify({ rules: role.rules })]);
    await eventually('the pod once the verb is back', async () => ((await json(['get', 'pods', '-l', 'app=who'])).items as Obj[]).length === 1 || undefined, 60_000);
  });

  test('kubelets are allowed by the Node mode, nothing beyond the system:node role', async () => {
    const can = async (...args: string[]) => (await kubectl(['auth', 'can-i', ...args, '--as', 'system:node:kruise-node-0', '--as-group', 'system:nodes'], { minor: 32 })).stdout.trim();
    assert.equal(await can('patch', 'nodes', '--subresource', 'status'), 'yes');
    assert.equal(await can('update', 'pods', '--subresource', 'status', '-n', 'default'), 'yes');
    assert.equal(await can('create', 'deployments', '-n', 'default'), 'no');
    assert.equal(await can('update', 'pods', '-n', 'default'), 'no');
    const [node] = (await json(['get', 'nodes'])).items as Obj[];
    assert.equal(node.status.conditions.find((c: Obj) => c.type === 'Ready')?.status, 'True');
  });

  test('the scheduler and the built-in controllers work under their bootstrap roles', async () => {
    await run(['create', 'deployment', 'bootstrap', '--image', 'nginx:alpine', '--replicas', '2']);
    const pods = await eventually('two running pods of the Deployment', async () => {
      const items = ((await json(['get', 'pods', '-l', 'app=bootstrap'])).items as Obj[]).filter((p) => p.status?.phase === 'Running');
      return items.length === 2 ? items : undefined;
    }, 60_000);
    assert.ok(pods.every((p) => p.spec.nodeName === 'kruise-node-0'));
    assert.equal(await run(['auth', 'can-i', 'create', 'pods', '--as', 'system:serviceaccount:kube-system:replicaset-controller', '-n', 'default']).then((s) => s.trim()), 'yes');
  });

  test('the volume binder binds claims as persistent-volume-binder', async () => {
    await run(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    }));
    await run(['run', 'uses-data', '--image=busybox:1', '--overrides', JSON.stringify({ spec: { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }], containers: [{ name: 'uses-data', image: 'busybox:1', volumeMounts: [{ name: 'd', mountPath: '/data' }] }] } })]);
    await eventually('the claim Bound', async () => ((await json(['get', 'pvc', 'data'])).status?.phase === 'Bound' ? true : undefined), 60_000);
    const patch = await kubectl(['auth', 'can-i', 'patch', 'persistentvolumeclaims', '--as', 'system:serviceaccount:kube-system:persistent-volume-binder'], { minor: 32 });
    assert.equal(patch.stdout.trim(), 'no', 'the binder writes with update, which its bootstrap role grants, not patch');
  });

  test('the HPA controller writes as horizontal-pod-autoscaler: without update on scale it cannot rescale', async () => {
    await run(['create', 'deployment', 'scaled', '--image', 'nginx:alpine', '--replicas', '1']);
    await run(['autoscale', 'deployment', 'scaled', '--min=2', '--max=3', '--cpu-percent=50']);
    await eventually('the HPA raising replicas to its minimum', async () => ((await json(['get', 'deployment', 'scaled'])).spec.replicas === 2 ? true : undefined), 60_000);
    const role = await json(['get', 'clusterrole', 'system:controller:horizontal-pod-autoscaler']);
    const withoutUpdate = (role.rules as Obj[]).map((r) => (r.resources?.includes('*/scale') ? { ...r, verbs: ['get'] } : r));
    await run(['patch', 'clusterrole', 'system:controller:horizontal-pod-autoscaler', '--type', 'merge', '-p', JSON.stringify({ rules: withoutUpdate })]);
    await run(['create', 'deployment', 'refused', '--image', 'nginx:alpine', '--replicas', '1']);
    await run(['autoscale', 'deployment', 'refused', '--min=2', '--max=3', '--cpu-percent=50']);
    const event = await eventually('a FailedRescale event naming the HPA controller', async () =>
      ((await json(['get', 'events', '--field-selector', 'involvedObject.name=refused,involvedObject.kind=HorizontalPodAutoscaler'])).items as Obj[]).find((e) => e.reason === 'FailedRescale'), 60_000);
    assert.match(event.message, /User "system:serviceaccount:kube-system:horizontal-pod-autoscaler" cannot update resource "deployments\/scale" in API group "apps"/);
    await run(['patch', 'clusterrole', 'system:controller:horizontal-pod-autoscaler', '--type', 'merge', '-p', JSON.stringify({ rules: role.rules })]);
  });
});
