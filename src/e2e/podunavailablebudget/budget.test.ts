/**
 * E.6 acceptance scenarios of docs/design/podunavailablebudget.md §9 through the API: status and
 * binding, the delete and eviction budget, minAvailable, bypasses, the protected set, dry-run and
 * ownerless pods.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PodUnavailableBudgets } from '../../api/kruise/resource-types.js';
import { Events, Pods } from '../../api/resource-type.js';
import { pubMetrics } from '../../control/pubcontrol/index.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import {
  PubsV1alpha1, barePod, deployment, eventually, getPub, livePods, namespace, pubCounters, pubV1alpha1, readyPods, recordPubStatuses, startPubEnv, type Pod,
} from './fixtures.js';
import { Deployments } from '../../api/resource-type.js';

let w: WorkloadEnv;
before(async () => { w = await startPubEnv({ startDelayMs: 1500 }); });
after(() => w.stop());

const negative = (pub: string) => `podunavailablebudget.policy.kruise.io "${pub}" is forbidden: pub unavailable allowed is negative`;
const refusedCount = async () => (await pubMetrics.refused.get()).values.reduce((a, v) => a + v.value, 0);

/** Bare pods `app=<app>` protected by a selector PUB counting `total` replicas. */
async function bareSet(ns: string, app: string, count: number, spec: Record<string, unknown>, annotations?: Record<string, string>) {
  await namespace(w.client, ns);
  for (let i = 0; i < count; i++) await w.client.create(Pods, barePod(ns, `${app}-${i}`, { app }));
  await readyPods(w.client, ns, app, count);
  await w.client.create(PubsV1alpha1, pubV1alpha1(ns, app, { selector: { matchLabels: { app } }, ...spec }, annotations));
}

describe('PodUnavailableBudget on a Deployment (E.6 1-3, 8)', () => {
  test('status, binding, dry-run, then one delete admitted and the next refused, by delete and by eviction', async () => {
    await namespace(w.client, 'pb1');
    await w.client.create(Deployments, deployment('pb1', 'app', 4, 'web'));
    await readyPods(w.client, 'pb1', 'web', 4);
    await w.client.create(PubsV1alpha1, pubV1alpha1('pb1', 'app-pub', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'app' }, maxUnavailable: 1 }));
    await pubCounters(w.client, 'pb1', 'app-pub', { total: 4, desired: 3, current: 4, allowed: 1 });
    const pods = await eventually('pods bound', async () => {
      const ps = await livePods(w.client, 'pb1', 'web');
      return ps.every((p) => p.metadata.annotations?.['pub.kruise.io/related-pub'] === 'app-pub' && p.metadata.annotations?.['kruise.io/related-pub'] === 'app-pub') ? ps : undefined;
    });
    const [a, b, c, d] = pods.map((p) => p.metadata.name!);

    // 8: a server-side dry run is admitted and changes nothing
    const dry = await w.env.kubectl(['delete', 'pod', a, '-n', 'pb1', '--dry-run=server']);
    assert.equal(dry.code, 0, dry.stderr);
    const afterDry = (await getPub(w.client, 'pb1', 'app-pub')).status!;
    assert.equal(afterDry.unavailableAllowed, 1);
    assert.deepEqual(afterDry.disruptedPods ?? {}, {});
    assert.equal((await w.client.get<Pod>(Pods, 'pb1', a)).metadata.deletionTimestamp, undefined, 'the dry run deleted nothing');

    // 2: A is admitted and recorded; B is refused before A's replacement is ready
    const seen = recordPubStatuses(w.client, 'pb1');
    const before = await refusedCount();
    await w.client.delete(Pods, 'pb1', a);
    await assert.rejects(w.client.delete(Pods, 'pb1', b), (e: Error & { code?: number }) => {
      assert.equal(e.code, 403);
      assert.match(e.message, new RegExp(negative('app-pub').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      return true;
    });
    assert.equal(await refusedCount(), before + 1);
    assert.ok(seen.versions.some((v) => v.status?.disruptedPods?.[a] && v.status.unavailableAllowed === 0), 'A recorded in disruptedPods with unavailableAllowed 0');
    seen.stop();
    await eventually('PubPreventPodDeletion event on B', async () => (await w.client.list(Events, { namespace: 'pb1' })).items
      .some((e) => (e as { reason?: string; involvedObject?: { name?: string } }).reason === 'PubPreventPodDeletion' && (e as { involvedObject?: { name?: string } }).involvedObject?.name === b));

    // 3: once the replacement is ready the budget is back; eviction of C admitted, of D refused
    await pubCounters(w.client, 'pb1', 'app-pub', { total: 4, desired: 3, current: 4, allowed: 1 });
    await w.client.createSubresource(Pods, 'pb1', c, 'eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: c, namespace: 'pb1' } });
    await assert.rejects(
      w.client.createSubresource(Pods, 'pb1', d, 'eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: d, namespace: 'pb1' } }),
      (e: Error & { code?: number }) => e.code === 403 && e.message.includes('pub unavailable allowed is negative'));
    assert.ok((await w.client.get<Pod>(Pods, 'pb1', d)).metadata.deletionTimestamp === undefined, 'D not evicted');
  });
});

describe('budget settings (E.6 4, 5, 6, 10)', () => {
  test('minAvailable 50% of 3 replicas: desired 2, allowed 1', async () => {
    await namespace(w.client, 'pb4');
    await w.client.create(Deployments, deployment('pb4', 'app', 3, 'web'));
    await readyPods(w.client, 'pb4', 'web', 3);
    await w.client.create(PubsV1alpha1, pubV1alpha1('pb4', 'app-pub', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'app' }, minAvailable: '50%' }));
    await pubCounters(w.client, 'pb4', 'app-pub', { total: 3, desired: 2, current: 3, allowed: 1 });
  });

  test('ownerless pods with protectTotalReplicas 3 (v1beta1): total 3, allowed 1', async () => {
    await namespace(w.client, 'pb10');
    for (let i = 0; i < 3; i++) await w.client.create(Pods, barePod('pb10', `bare-${i}`, { app: 'bare' }));
    await readyPods(w.client, 'pb10', 'bare', 3);
    await w.client.create(PodUnavailableBudgets, {
      apiVersion: 'policy.kruise.io/v1beta1', kind: 'PodUnavailableBudget', metadata: { name: 'bare', namespace: 'pb10' },
      spec: { selector: { matchLabels: { app: 'bare' } }, maxUnavailable: 1, protectTotalReplicas: 3 },
    });
    await pubCounters(w.client, 'pb10', 'bare', { total: 3, desired: 2, current: 3, allowed: 1 });
  });

  test('no-protect annotation and ignoredPodSelector bypass a budget of 0', async () => {
    await bareSet('pb5', 'guard', 3, { maxUnavailable: 0 }, { 'pub.kruise.io/protect-total-replicas': '3' });
    await pubCounters(w.client, 'pb5', 'guard', { total: 3, desired: 3, current: 3, allowed: 0 });
    await assert.rejects(w.client.delete(Pods, 'pb5', 'guard-0'), /pub unavailable allowed is negative/);
    await w.client.patch(Pods, 'pb5', 'guard-0', 'merge', { metadata: { annotations: { 'pub.kruise.io/no-protect': 'true' } } });
    await w.client.delete(Pods, 'pb5', 'guard-0');
    await w.client.patch(PodUnavailableBudgets, 'pb5', 'guard', 'merge', { spec: { ignoredPodSelector: { matchLabels: { drain: 'ok' } } } });
    await w.client.patch(Pods, 'pb5', 'guard-1', 'merge', { metadata: { labels: { drain: 'ok' } } });
    await w.client.delete(Pods, 'pb5', 'guard-1');
    await assert.rejects(w.client.delete(Pods, 'pb5', 'guard-2'), /pub unavailable allowed is negative/);
  });

  test('kruise.io/pub-protect-operations: EVICT reads back as protectOperations; a delete passes, an eviction is refused', async () => {
    await bareSet('pb6', 'ops', 3, { maxUnavailable: 0 }, { 'kruise.io/pub-protect-operations': 'EVICT', 'pub.kruise.io/protect-total-replicas': '3' });
    assert.deepEqual((await getPub(w.client, 'pb6', 'ops')).spec?.protectOperations, ['EVICT']);
    await pubCounters(w.client, 'pb6', 'ops', { total: 3, desired: 3, current: 3, allowed: 0 });
    await w.client.delete(Pods, 'pb6', 'ops-0');
    await assert.rejects(w.client.createSubresource(Pods, 'pb6', 'ops-1', 'eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'ops-1', namespace: 'pb6' } }),
      /pub unavailable allowed is negative/);
  });
});

describe('bad input (E.6 9)', () => {
  test('each refused with 400 and upstream\'s message', async () => {
    const refused = (re: RegExp) => (e: Error & { code?: number }) => e.code === 400 && re.test(e.message);
    const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'app' };
    const create = (name: string, spec: Record<string, unknown>, annotations?: Record<string, string>) => w.client.create(PubsV1alpha1, pubV1alpha1('pb1', name, spec, annotations));
    await assert.rejects(create('both', { selector: { matchLabels: { app: 'web' } }, targetRef: target, maxUnavailable: 1 }), refused(/selector and targetRef are mutually exclusive/));
    await assert.rejects(create('neither', { targetRef: { ...target, name: 'x' } }), refused(/no maxUnavailable or minAvailable defined in PodUnavailableBudget/));
    await assert.rejects(create('big', { targetRef: { ...target, name: 'x' }, maxUnavailable: '120%' }), refused(/spec.maxUnavailable: Invalid value: "120%": must not be greater than 100%/));
    await assert.rejects(create('second', { targetRef: target, maxUnavailable: 1 }), refused(/pub.spec.targetReference is in conflict with other PodUnavailableBudget app-pub/));
    await assert.rejects(w.client.patch(PodUnavailableBudgets, 'pb1', 'app-pub', 'merge', { spec: { targetRef: { name: 'other' } } }), refused(/selector and targetRef cannot be modified/));
    await assert.rejects(create('total', { targetRef: { ...target, name: 'x' }, maxUnavailable: 1 }, { 'pub.kruise.io/protect-total-replicas': 'x' }), refused(/pub.kruise.io\/protect-total-replicas: "x" is not an int32/));
  });
});

