/**
 * WorkloadSpread and UnitedDeployment on a REAL control plane (kube-apiserver +
 * kube-controller-manager v1.32 from scripts/real-control-plane.sh; docs/design/workloadspread.md §10,
 * uniteddeployment.md §7): the real API server calls the manager's pod webhooks over HTTPS, the
 * real ReplicaSet controller scales in by our deletion costs, and UnitedDeployment's scale
 * subresource answers kubectl scale. Nodes `sim-0..2` are labelled `zone: a|b|c`. Skipped, with
 * the reason, when the binaries are not cached.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { realControlPlaneAvailable } from '../../testing/real-control-plane.js';
import { realKruiseForSuite } from '../../testing/real-kruise-suite.js';
import { eventually } from '../../testing/workload-env.js';

type Obj = Record<string, any>;  

const availability = realControlPlaneAvailable();

describe('WorkloadSpread and UnitedDeployment on a real kube-apiserver', { skip: availability.available ? false : availability.reason, timeout: 420_000 }, () => {
  const k = realKruiseForSuite({ name: 'kruise-real-multidomain' });
  const { kubectl, json, pods, apply } = k;

  before(async () => {
    for (const [i, zone] of ['a', 'b', 'c'].entries()) {
      const labelled = await kubectl(['label', 'node', `sim-${i}`, `zone=${zone}`]);
      assert.equal(labelled.code, 0, labelled.stderr);
    }
  });

  const zoneTerm = (zone: string) => ({ matchExpressions: [{ key: 'zone', operator: 'In', values: [zone] }] });
  const subsetOf = (pod: Obj): string | undefined => JSON.parse(pod.metadata.annotations?.['apps.kruise.io/matched-workloadspread'] ?? '{}').subset;

  test('WorkloadSpread: the pod webhook fills za then zb, costs steer the real ReplicaSet scale-in', async () => {
    await apply({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: { name: 'spread', namespace: 'default' },
      spec: {
        targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        subsets: [{ name: 'za', maxReplicas: 2, requiredNodeSelectorTerm: zoneTerm('a') }, { name: 'zb', requiredNodeSelectorTerm: zoneTerm('b') }],
      },
    });
    await apply({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 4, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'busybox', command: ['sleep', '3600'] }] } } },
    });
    const placed = await eventually('4 placed pods with costs', async () => {
      const list = await pods('web');
      return list.length === 4 && list.every((p) => p.spec.nodeName && p.metadata.annotations?.['controller.kubernetes.io/pod-deletion-cost']) ? list : undefined;
    }, 90_000);
    const za = placed.filter((p) => subsetOf(p) === 'za');
    assert.equal(za.length, 2);
    for (const p of placed) {
      const zone = subsetOf(p) === 'za' ? 'a' : 'b';
      assert.equal(p.spec.nodeName, zone === 'a' ? 'sim-0' : 'sim-1');
      assert.equal(p.metadata.annotations['controller.kubernetes.io/pod-deletion-cost'], zone === 'a' ? '200' : '100');
    }
    const ws = await eventually('status', async () => {
      const got = await json(['get', 'workloadspreads.v1beta1.apps.kruise.io', 'spread']);
      const st = got.status?.subsetStatuses ?? [];
      return st[0]?.replicas === 2 && st[0].missingReplicas === 0 && st[1]?.replicas === 2 && st[1].missingReplicas === -1 ? got : undefined;
    }, 30_000);
    assert.equal(ws.spec.subsets[0].requiredNodeSelector.matchExpressions[0].values[0], 'a');
    const scaled = await kubectl(['scale', 'deployment', 'web', '--replicas=2']);
    assert.equal(scaled.code, 0, scaled.stderr);
    await eventually('only the za pods left', async () => {
      const names = (await pods('web')).map((p) => p.metadata.name).sort();
      return JSON.stringify(names) === JSON.stringify(za.map((p) => p.metadata.name).sort());
    }, 60_000);
  });

  test('UnitedDeployment: even split over three zones, kubectl scale through the scale subresource', async () => {
    await apply({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'UnitedDeployment', metadata: { name: 'demo', namespace: 'default' },
      spec: {
        replicas: 5, selector: { matchLabels: { app: 'demo' } },
        template: { cloneSetTemplate: { metadata: { labels: { app: 'demo' } }, spec: { selector: { matchLabels: { app: 'demo' } }, template: { metadata: { labels: { app: 'demo' } }, spec: { containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }] } } } } },
        topology: { subsets: ['a', 'b', 'c'].map((z) => ({ name: z, nodeSelectorTerm: zoneTerm(z) })) },
      },
    });
    const subsetReplicas = async () => Object.fromEntries(((await json(['get', 'clonesets.v1beta1.apps.kruise.io'])).items as Obj[])
      .filter((c) => c.metadata.labels?.['apps.kruise.io/subset-name']).map((c) => [c.metadata.labels['apps.kruise.io/subset-name'], c.spec.replicas]));
    await eventually('a=1 b=2 c=2 and 5 ready', async () => {
      const ud = await json(['get', 'uniteddeployments.v1beta1.apps.kruise.io', 'demo']);
      return JSON.stringify(await subsetReplicas()) === JSON.stringify({ a: 1, b: 2, c: 2 }) && ud.status?.readyReplicas === 5;
    }, 90_000);
    const placed = await pods('demo');
    for (const p of placed) assert.equal(p.spec.nodeName, `sim-${'abc'.indexOf(p.metadata.labels['apps.kruise.io/subset-name'])}`);
    const scaled = await kubectl(['scale', 'ud', 'demo', '--replicas=3']);
    assert.equal(scaled.code, 0, scaled.stderr);
    await eventually('shrunk to 3', async () => {
      const ud = await json(['get', 'uniteddeployments.v1beta1.apps.kruise.io', 'demo']);
      const r = await subsetReplicas();
      return ud.spec.replicas === 3 && r.a + r.b + r.c === 3 && ud.status?.labelSelector === 'app=demo' && (await pods('demo')).length === 3;
    }, 60_000);
  });
});
