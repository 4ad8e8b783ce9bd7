/**
 * Application protection on a REAL control plane (kube-apiserver + kube-controller-manager v1.32):
 * kube-apiserver itself calls the manager's pod webhooks, so a PodUnavailableBudget refuses a
 * `kubectl delete pod` and a `kubectl drain`; a ResourceDistribution copies a ConfigMap
 * (docs/design/podunavailablebudget.md §9, resourcedistribution.md §6). Skipped, with the reason,
 * when the binaries are not cached.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { realControlPlaneAvailable } from '../../testing/real-control-plane.js';
import { realKruiseForSuite } from '../../testing/real-kruise-suite.js';
import { eventually } from '../../testing/workload-env.js';

type Obj = Record<string, any>;

const availability = realControlPlaneAvailable();

describe('PodUnavailableBudget and ResourceDistribution on a real kube-apiserver', { skip: availability.available ? false : availability.reason, timeout: 300_000 }, () => {
  const k = realKruiseForSuite({ name: 'kruise-real-protection', gates: ['ResourceDistributionGate=true'], nodes: { count: 2, prefix: 'sim-' } });
  const { kubectl, json, apply } = k;

  test('a PUB binds the Deployment\'s pods; kubectl delete and kubectl drain are refused with the budget\'s message; a larger budget admits', async () => {
    await apply({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'app', namespace: 'default' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25-alpine' }] } } },
    });
    const pub = (maxUnavailable: number) => ({
      apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: { name: 'app-pub', namespace: 'default' },
      spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'app' }, maxUnavailable },
    });
    const ready = (p: Obj) => (p.status?.conditions ?? []).some((c: Obj) => c.type === 'Ready' && c.status === 'True');
    await eventually('2 ready pods', async () => { const ps = (await json(['get', 'pods', '-l', 'app=web'])).items as Obj[]; return ps.length === 2 && ps.every(ready); }, 90_000);
    await apply(pub(0));
    const status = (want: { desired: number; allowed: number }) => eventually(`pub ${JSON.stringify(want)}`, async () => {
      const s = (await json(['get', 'podunavailablebudgets.v1beta1.policy.kruise.io', 'app-pub'])).status ?? {};
      return s.totalReplicas === 2 && s.desiredAvailable === want.desired && s.currentAvailable === 2 && s.unavailableAllowed === want.allowed;
    }, 60_000);
    await status({ desired: 2, allowed: 0 });
    const pods = await eventually('pods bound', async () => {
      const ps = (await json(['get', 'pods', '-l', 'app=web'])).items as Obj[];
      return ps.every((p) => p.metadata.annotations?.['pub.kruise.io/related-pub'] === 'app-pub') ? ps : undefined;
    }, 30_000);
    const del = await kubectl(['delete', 'pod', pods[0].metadata.name, '--wait=false']);
    assert.notEqual(del.code, 0);
    assert.match(del.stderr, /admission webhook "vpod.kb.io" denied the request: podunavailablebudget.policy.kruise.io "app-pub" is forbidden: pub unavailable allowed is negative/);
    const drain = await kubectl(['drain', pods[0].spec.nodeName, '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=30s']);
    assert.notEqual(drain.code, 0);
    assert.match(drain.stderr, /admission webhook "vpodeviction.kb.io" denied the request: podunavailablebudget.policy.kruise.io "app-pub" is forbidden: pub unavailable allowed is negative/);
    assert.equal((await kubectl(['uncordon', pods[0].spec.nodeName])).code, 0);
    await apply(pub(1));
    await status({ desired: 1, allowed: 1 });
    const admitted = await kubectl(['delete', 'pod', pods[0].metadata.name, '--wait=false']);
    assert.equal(admitted.code, 0, admitted.stderr);
  });

  test('a ResourceDistribution copies its ConfigMap into the selected namespaces', async () => {
    for (const [name, team] of [['rd-a', 'x'], ['rd-b', 'z']]) await apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { team } } });
    await apply({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name: 'shared' },
      spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' }, data: { k: 'v' } }, targets: { namespaceLabelSelector: { matchLabels: { team: 'x' } } } },
    });
    await eventually('copy in rd-a', async () => (await kubectl(['get', 'configmap', 'shared', '-n', 'rd-a'])).code === 0, 60_000);
    assert.notEqual((await kubectl(['get', 'configmap', 'shared', '-n', 'rd-b'])).code, 0);
    const rd = await eventually('status', async () => { const r = await json(['get', 'resourcedistributions.v1beta1.apps.kruise.io', 'shared']); return r.status?.succeeded === 1 ? r : undefined; }, 30_000);
    assert.equal(rd.status.desired, 1);
  });
});
