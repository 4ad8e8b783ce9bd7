/**
 * ASTS acceptance S1-S3 (docs/design/advanced-statefulset.md §12): ordered creation and pod identity, defaults and the
 * v1alpha1 view, and ordered scale-down through `kubectl scale` and the scale subresource.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kruiseResourceType } from '../../api/kruise/resource-types.js';
import { statefulSetKind } from '../../api/kruise/workloads/statefulset.js';
import { retryOnConflict } from '../../client/retry.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import {
  AdvancedStatefulSets, assertNoViolation, getSet, isPodReady, lifecycleOf, livePods, manifest, names, ns, readyAfterSeconds,
  revisionOf, settled, startStatefulSetEnv, sts, watchPods, type StatefulSet,
} from './fixtures.js';

const V1alpha1 = kruiseResourceType(statefulSetKind, 'v1alpha1');

describe('Advanced StatefulSet: identity, defaults, scale down', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startStatefulSetEnv(); });
  after(() => w.stop());

  const kubectl = async (args: string[], input?: string) => {
    const r = await w.env.kubectl(args, input === undefined ? {} : { input });
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };

  test('S1: ordered creation and identity', async () => {
    const order = await watchPods(w.client, 'web', (all, e) => {
      const m = /^web-(\d+)$/.exec(e.pod.metadata.name!);
      if (e.type !== 'ADDED' || !m || m[1] === '0') return undefined;
      const before = all.find((p) => p.metadata.name === `web-${Number(m[1]) - 1}`);
      return before && isPodReady(before) ? undefined : `${e.pod.metadata.name} created before web-${Number(m[1]) - 1} was Ready`;
    });
    await kubectl(['apply', '-f', '-'], manifest(sts('web', {}, { containers: [{ name: 'app', image: 'nginx:1.25-alpine', readinessProbe: readyAfterSeconds(3) }] })));
    const set = await settled(w.client, 'web', 3, { names: ['web-0', 'web-1', 'web-2'] });
    order.stop();
    assertNoViolation(order);
    const s = set.status!;
    assert.equal(s.labelSelector, 'app=web');
    assert.deepEqual([s.replicas, s.readyReplicas, s.currentReplicas, s.updatedReplicas, s.availableReplicas], [3, 3, 3, 3, 3]);
    assert.match(s.updateRevision!, /^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    for (const [i, pod] of (await livePods(w.client, 'web')).entries()) {
      const name = `web-${i}`;
      assert.equal(pod.metadata.labels?.['statefulset.kubernetes.io/pod-name'], name);
      assert.equal(pod.metadata.labels?.['apps.kubernetes.io/pod-index'], String(i));
      assert.equal(pod.spec.hostname, name);
      assert.equal(pod.spec.subdomain, 'web');
      assert.equal(lifecycleOf(pod), 'Normal');
      assert.equal(revisionOf(pod), s.updateRevision);
      assert.deepEqual(pod.metadata.ownerReferences?.map((r) => [r.apiVersion, r.kind, r.name, r.controller]), [['apps.kruise.io/v1beta1', 'StatefulSet', 'web', true]]);
    }
  });

  test('S2: defaults read back; v1alpha1 accepted; a v1alpha1 update drops v1beta1-only fields', async () => {
    const web = await getSet(w.client, 'web');
    const expectDefaults = (set: StatefulSet) => {
      assert.equal(set.spec?.podManagementPolicy, 'OrderedReady');
      assert.deepEqual(set.spec?.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 } });
      assert.equal(set.spec?.revisionHistoryLimit, 10);
    };
    expectDefaults(web);
    assert.deepEqual(web.spec?.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Retain' });
    const alpha = { ...sts('web2'), apiVersion: 'apps.kruise.io/v1alpha1' };
    await kubectl(['apply', '-f', '-'], manifest(alpha));
    // v1alpha1 has no retention-policy field (docs/design/advanced-statefulset.md §2), so only the defaults it can carry are compared;
    // the controller treats an absent policy as Retain/Retain.
    expectDefaults(await getSet(w.client, 'web2'));
    await settled(w.client, 'web2', 3);

    await w.client.patch(AdvancedStatefulSets, ns, 'web2', 'merge', { spec: { reserveOrdinals: [7] } });
    assert.deepEqual((await getSet(w.client, 'web2')).spec?.reserveOrdinals, [7]);
    await retryOnConflict(async () => {
      const viaAlpha = await w.client.get<StatefulSet>(V1alpha1, ns, 'web2');
      assert.equal((viaAlpha.spec as Record<string, unknown>).reserveOrdinals, undefined);
      await w.client.update(V1alpha1, { ...viaAlpha, metadata: { ...viaAlpha.metadata, labels: { touched: 'yes' } } });
    });
    const after = await getSet(w.client, 'web2');
    assert.equal(after.metadata.labels?.touched, 'yes');
    assert.equal(after.spec?.reserveOrdinals, undefined);
  });

  test('S3: scale down deletes the highest ordinal first; the scale subresource reports the new size', async () => {
    const order = await watchPods(w.client, 'web', (all, e) => {
      if (e.pod.metadata.name !== 'web-1' || !e.pod.metadata.deletionTimestamp) return undefined;
      return all.some((p) => p.metadata.name === 'web-2') ? 'web-1 got a deletionTimestamp while web-2 still existed' : undefined;
    });
    await kubectl(['scale', 'asts', 'web', '--replicas=1']);
    await settled(w.client, 'web', 1, { names: ['web-0'] });
    order.stop();
    assertNoViolation(order);
    assert.ok(order.history().some((e) => e.type === 'DELETED' && e.pod.metadata.name === 'web-2'));
    const scale = JSON.parse(await kubectl(['get', 'asts', 'web', '--subresource=scale', '-o', 'json'])) as { spec: { replicas: number }; status: { replicas: number; selector: string } };
    assert.deepEqual([scale.spec.replicas, scale.status.replicas, scale.status.selector], [1, 1, 'app=web']);
    assert.deepEqual(names(await livePods(w.client, 'web')), ['web-0']);
  });
});
