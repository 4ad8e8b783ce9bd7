/**
 * Kruise workloads on a REAL control plane (kube-apiserver + kube-controller-manager v1.32 from
 * scripts/real-control-plane.sh): CRDs from `kruise install`, `kruise manager` (controllers and
 * webhooks) out of process, and our scheduler and simulated nodes acting as kubelets, as KWOK
 * does. Skipped, with the reason, when the binaries are not cached.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { realControlPlaneAvailable } from '../../testing/real-control-plane.js';
import { realKruiseForSuite } from '../../testing/real-kruise-suite.js';
import { eventually } from '../../testing/workload-env.js';

type Obj = Record<string, any>;  

const availability = realControlPlaneAvailable();

describe('Kruise workloads on a real kube-apiserver', { skip: availability.available ? false : availability.reason, timeout: 420_000 }, () => {
  const k = realKruiseForSuite({ name: 'kruise-real-workloads' });
  const { kubectl, json, pods } = k;

  test('CloneSet: created, scaled with kubectl scale, rolled in place (same names and UIDs, restartCount 1)', async () => {
    const manifest = {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'demo', namespace: 'default' },
      spec: {
        replicas: 3, selector: { matchLabels: { app: 'demo' } }, updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 },
        template: { metadata: { labels: { app: 'demo' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25-alpine' }] } },
      },
    };
    const applied = await kubectl(['apply', '-f', '-'], { input: stringify(manifest) });
    assert.equal(applied.code, 0, applied.stderr);
    const settled = (replicas: number, revision?: string) => eventually(`demo settled at ${replicas}`, async () => {
      const cs = await json(['get', 'clonesets.v1beta1.apps.kruise.io', 'demo']);
      const s = cs.status ?? {};
      const live = await pods('demo');
      return s.observedGeneration === cs.metadata.generation && s.updatedAvailableReplicas === replicas && s.replicas === replicas
        && live.length === replicas && (!revision || s.updateRevision !== revision) && s.currentRevision === s.updateRevision ? cs : undefined;
    }, 90_000);
    const first = await settled(3);
    const before = await pods('demo');
    for (const pod of before) {
      assert.match(pod.metadata.name, /^demo-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      assert.equal(pod.metadata.labels['controller-revision-hash'], first.status.updateRevision);
      assert.equal(pod.metadata.labels['lifecycle.apps.kruise.io/state'], 'Normal');
      assert.match(pod.spec.nodeName, /^sim-/);
    }

    const scaled = await kubectl(['scale', 'clone', 'demo', '--replicas=4']);
    assert.equal(scaled.code, 0, scaled.stderr);
    await settled(4);
    const uids = new Map((await pods('demo')).map((p) => [p.metadata.name, p.metadata.uid]));

    const patched = await kubectl(['patch', 'clone', 'demo', '--type', 'merge', '-p', JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26-alpine' }] } } } })]);
    assert.equal(patched.code, 0, patched.stderr);
    const rolled = await settled(4, first.status.updateRevision);
    const after = await pods('demo');
    assert.deepEqual(new Map(after.map((p) => [p.metadata.name, p.metadata.uid])), uids);
    for (const pod of after) {
      assert.equal(pod.spec.containers[0].image, 'nginx:1.26-alpine');
      assert.equal(pod.status.containerStatuses[0].restartCount, 1);
      assert.equal(pod.metadata.labels['controller-revision-hash'], rolled.status.updateRevision);
    }
    const alpha = await json(['get', 'clonesets.v1alpha1.apps.kruise.io', 'demo']);
    assert.equal(alpha.spec.updateStrategy.type, 'InPlaceIfPossible');
    assert.equal(alpha.status.updatedReplicas, 4);
  });
  test('Advanced StatefulSet: ordered names, kubectl scale asts, Parallel in-place rollout (same UIDs, restartCount 1)', async () => {
    const manifest = {
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 2, serviceName: 'web', podManagementPolicy: 'Parallel', selector: { matchLabels: { app: 'web' } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 2 } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }], containers: [{ name: 'web', image: 'nginx:1.25-alpine' }] },
        },
      },
    };
    const applied = await kubectl(['apply', '-f', '-'], { input: stringify(manifest) });
    assert.equal(applied.code, 0, applied.stderr);
    const settled = (replicas: number, revision?: string) => eventually(`web settled at ${replicas}`, async () => {
      const sts = await json(['get', 'statefulsets.v1beta1.apps.kruise.io', 'web']);
      const s = sts.status ?? {};
      const live = await pods('web');
      return s.observedGeneration === sts.metadata.generation && s.readyReplicas === replicas && s.updatedReplicas === replicas
        && live.length === replicas && (!revision || s.updateRevision !== revision) && s.currentRevision === s.updateRevision ? sts : undefined;
    }, 90_000);
    const first = await settled(2);
    assert.deepEqual((await pods('web')).map((p) => p.metadata.name).sort(), ['web-0', 'web-1']);

    const scaled = await kubectl(['scale', 'asts', 'web', '--replicas=3']);
    assert.equal(scaled.code, 0, scaled.stderr);
    await settled(3);
    const uids = new Map((await pods('web')).map((p) => [p.metadata.name, p.metadata.uid]));
    assert.deepEqual([...uids.keys()].sort(), ['web-0', 'web-1', 'web-2']);

    const patched = await kubectl(['patch', 'asts', 'web', '--type', 'merge', '-p', JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26-alpine' }] } } } })]);
    assert.equal(patched.code, 0, patched.stderr);
    const rolled = await settled(3, first.status.updateRevision);
    const after = await pods('web');
    assert.deepEqual(new Map(after.map((p) => [p.metadata.name, p.metadata.uid])), uids);
    for (const pod of after) {
      assert.equal(pod.status.containerStatuses[0].restartCount, 1, pod.metadata.name);
      assert.equal(pod.metadata.labels['controller-revision-hash'], rolled.status.updateRevision);
      // the move back to Normal rides on the pods/status write that flips InPlaceUpdateReady
      assert.equal(pod.metadata.labels['lifecycle.apps.kruise.io/state'], 'Normal', pod.metadata.name);
      assert.equal(pod.status.conditions.find((c: Obj) => c.type === 'InPlaceUpdateReady')?.status, 'True');
    }
  });

  test('Advanced DaemonSet (v1alpha1): one pod per simulated node, Standard rollout recreates each', async () => {
    const manifest = {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 1 } },
        template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image: 'busybox:1.36', command: ['sleep', 'infinity'] }] } },
      },
    };
    const applied = await kubectl(['apply', '-f', '-'], { input: stringify(manifest) });
    assert.equal(applied.code, 0, applied.stderr);
    const settled = (hash?: string) => eventually('agent settled on 3 nodes', async () => {
      const ds = await json(['get', 'daemonsets.v1beta1.apps.kruise.io', 'agent']);
      const s = ds.status ?? {};
      const live = await pods('agent');
      return s.observedGeneration === ds.metadata.generation && s.desiredNumberScheduled === 3 && s.numberReady === 3
        && s.updatedNumberScheduled === 3 && live.length === 3 && (!hash || s.updateRevision !== hash) ? ds : undefined;
    }, 90_000);
    const first = await settled();
    const before = await pods('agent');
    assert.deepEqual(before.map((p) => p.spec.nodeName).sort(), ['sim-0', 'sim-1', 'sim-2']);

    const patched = await kubectl(['patch', 'ads', 'agent', '--type', 'merge', '-p', JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'agent', image: 'busybox:1.37', command: ['sleep', 'infinity'] }] } } } })]);
    assert.equal(patched.code, 0, patched.stderr);
    const rolled = await settled(first.status.updateRevision);
    const after = await pods('agent');
    assert.deepEqual(after.map((p) => p.spec.nodeName).sort(), ['sim-0', 'sim-1', 'sim-2']);
    for (const pod of after) {
      assert.equal(pod.spec.containers[0].image, 'busybox:1.37');
      assert.equal(pod.metadata.labels['controller-revision-hash'], rolled.status.updateRevision);
      assert.ok(!before.some((b) => b.metadata.uid === pod.metadata.uid), `${pod.metadata.name} was recreated`);
    }
    const alpha = await json(['get', 'daemonsets.v1alpha1.apps.kruise.io', 'agent']);
    assert.equal(alpha.status.daemonSetHash, rolled.status.updateRevision);
  });
});
