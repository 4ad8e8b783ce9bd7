/**
 * E.6 7 (in-place updates with PodUnavailableBudgetUpdateGate on: pod image patches, a CloneSet
 * rolling in place under a PUB) and `kubectl drain` refused with the budget's message
 * (docs/design/podunavailablebudget.md §9).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AdvancedStatefulSets, CloneSets } from '../../api/kruise/resource-types.js';
import { Pods } from '../../api/resource-type.js';
import { isPubAvailable } from '../../control/pubcontrol/index.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import { PubsV1alpha1, barePod, eventually, getPub, livePods, namespace, pubCounters, pubV1alpha1, readyPods, startPubEnv, type Pod } from './fixtures.js';

let w: WorkloadEnv;
before(async () => { w = await startPubEnv({ gates: 'PodUnavailableBudgetUpdateGate=true', startDelayMs: 300 }); });
after(() => w.stop());

const image = (name: string, img: string) => ({ spec: { containers: [{ name: 'main', image: img }] } });
const newImage = { spec: { template: image('main', 'nginx:1.26-alpine') } };

/**
 * Puts the three pods of workload `app` under a PUB allowing one unavailable, then rolls them in
 * place with `roll` while sampling: the fewest pods available for the PUB at any time until all three
 * run the new image and are available again.
 */
async function rollInPlaceUnderPub(ns: string, app: string, targetRef: Record<string, string>, roll: () => Promise<unknown>): Promise<number> {
  await w.client.create(PubsV1alpha1, pubV1alpha1(ns, app, { targetRef, maxUnavailable: 1 }));
  await pubCounters(w.client, ns, app, { total: 3, desired: 2, current: 3, allowed: 1 });
  await eventually('pods bound', async () => (await livePods(w.client, ns, app)).every((p) => !!p.metadata.annotations?.['pub.kruise.io/related-pub']));
  let worst = 3;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      worst = Math.min(worst, (await livePods(w.client, ns, app)).filter(isPubAvailable).length);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  await roll();
  await eventually('all pods updated in place and ready', async () => {
    const pods = await livePods(w.client, ns, app);
    return pods.length === 3 && pods.every((p) => p.spec.containers[0].image === 'nginx:1.26-alpine' && isPubAvailable(p));
  }, 60_000);
  sampling = false;
  await sampler;
  return worst;
}

describe('in-place updates under a PUB (E.6 7)', () => {
  test('an image patch consumes the budget, a second is refused, a label-only patch passes', async () => {
    await namespace(w.client, 'pb7');
    for (let i = 0; i < 3; i++) await w.client.create(Pods, barePod('pb7', `u-${i}`, { app: 'u' }));
    await readyPods(w.client, 'pb7', 'u', 3);
    await w.client.create(PubsV1alpha1, pubV1alpha1('pb7', 'u', { selector: { matchLabels: { app: 'u' } }, maxUnavailable: 1 }, { 'pub.kruise.io/protect-total-replicas': '3' }));
    await pubCounters(w.client, 'pb7', 'u', { total: 3, desired: 2, current: 3, allowed: 1 });
    await eventually('pods bound', async () => (await livePods(w.client, 'pb7', 'u')).every((p) => p.metadata.annotations?.['pub.kruise.io/related-pub'] === 'u'));
    await w.client.patch(Pods, 'pb7', 'u-0', 'strategic', image('u-0', 'nginx:1.26-alpine'));
    const status = (await getPub(w.client, 'pb7', 'u')).status!;
    assert.ok(status.unavailablePods?.['u-0'], 'u-0 recorded in unavailablePods');
    await assert.rejects(w.client.patch(Pods, 'pb7', 'u-1', 'strategic', image('u-1', 'nginx:1.26-alpine')),
      (e: Error & { code?: number }) => e.code === 403 && e.message.includes('pub unavailable allowed is negative'));
    await w.client.patch(Pods, 'pb7', 'u-1', 'merge', { metadata: { labels: { tier: 'x' } } });
  });

  test('a CloneSet rolling in place asks the PUB first: never more than one pod of three unavailable, the rollout completes', async () => {
    await namespace(w.client, 'pb8');
    await w.client.create(CloneSets, {
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: 'cs', namespace: 'pb8' },
      spec: {
        replicas: 3, selector: { matchLabels: { app: 'cs' } },
        updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 3 } },
        template: { metadata: { labels: { app: 'cs' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25-alpine' }] } },
      },
    });
    await readyPods(w.client, 'pb8', 'cs', 3);
    const worst = await rollInPlaceUnderPub('pb8', 'cs', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs' },
      () => w.client.patch(CloneSets, 'pb8', 'cs', 'merge', newImage));
    assert.ok(worst >= 2, `at least 2 of 3 pods available throughout (worst ${worst})`);
  });
});

describe('Advanced StatefulSet in place under a PUB', () => {
  test('a Parallel ASTS allowed 3 unavailable still keeps 2 of 3 available: it asks the PUB first', async () => {
    await namespace(w.client, 'pb9');
    await w.client.create(AdvancedStatefulSets, {
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: { name: 'as', namespace: 'pb9' },
      spec: {
        replicas: 3, serviceName: 'as', podManagementPolicy: 'Parallel', selector: { matchLabels: { app: 'as' } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 3 } },
        template: { metadata: { labels: { app: 'as' } }, spec: { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }], containers: [{ name: 'main', image: 'nginx:1.25-alpine' }] } },
      },
    });
    await readyPods(w.client, 'pb9', 'as', 3, 30_000);
    const worst = await rollInPlaceUnderPub('pb9', 'as', { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'as' },
      () => w.client.patch(AdvancedStatefulSets, 'pb9', 'as', 'merge', newImage));
    assert.ok(worst >= 2, `at least 2 of 3 pods available throughout (worst ${worst})`);
  });
});

describe('kubectl drain (E.6, issue)', () => {
  test('drain of a node with a pod the budget protects is refused with the budget\'s message', async () => {
    await namespace(w.client, 'pbd');
    for (let i = 0; i < 2; i++) await w.client.create(Pods, barePod('pbd', `d-${i}`, { app: 'd' }));
    const pods = await readyPods(w.client, 'pbd', 'd', 2);
    await w.client.create(PubsV1alpha1, pubV1alpha1('pbd', 'd', { selector: { matchLabels: { app: 'd' } }, maxUnavailable: 0 }, { 'pub.kruise.io/protect-total-replicas': '2' }));
    await pubCounters(w.client, 'pbd', 'd', { total: 2, desired: 2, current: 2, allowed: 0 });
    await eventually('pods bound', async () => (await livePods(w.client, 'pbd', 'd')).every((p: Pod) => !!p.metadata.annotations?.['pub.kruise.io/related-pub']));
    const node = pods[0].spec.nodeName!;
    const r = await w.env.kubectl(['drain', node, '--ignore-daemonsets', '--force', '--delete-emptydir-data', '--timeout=20s']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /admission webhook "vpodeviction.kb.io" denied the request: podunavailablebudget.policy.kruise.io "d" is forbidden: pub unavailable allowed is negative/);
    assert.equal((await w.client.get<Pod>(Pods, 'pbd', pods[0].metadata.name!)).metadata.deletionTimestamp, undefined);
    await w.env.kubectl(['uncordon', node]);
  });
});
