import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FailedPodBackoff } from './failed-backoff.js';
import { planManage } from './manage-plan.js';
import { daemonSet, fourNodes, node, pod, T0, view } from './test-kit.js';

const now = T0 + 60_000;
const plan = (ds = daemonSet(), nodes = fourNodes(), pods = [pod('node-a')], backoff = new FailedPodBackoff()) =>
  planManage(ds, view(ds, nodes, pods), 'new', now, backoff);

describe('planManage', () => {
  test('eligible nodes without a pod get one, in name order', () => {
    assert.deepEqual(plan().createOn, ['node-b', 'node-c', 'node-d']);
  });

  test('a node with only a terminating pod waits for it to go (no surge)', () => {
    const p = plan(daemonSet(), fourNodes(), [pod('node-a', { deleting: true }), pod('node-b'), pod('node-c'), pod('node-d')]);
    assert.deepEqual(p, { createOn: [], delete: [], failed: [] });
  });

  test('without surge only the oldest running pod stays', () => {
    const older = pod('node-a', { created: 1, hash: 'old' });
    const newer = pod('node-a', { created: 5 });
    const p = plan(daemonSet(), [node('node-a')], [newer, older]);
    assert.deepEqual(p.delete, [newer]);
  });

  test('ineligible nodes lose every live pod; NoSchedule-only taints keep them; unbound pods of gone nodes are deleted', () => {
    const ds = daemonSet({}, {});
    const nodes = [node('node-a', {}, [{ key: 'x', effect: 'NoExecute' }]), node('node-b', {}, [{ key: 'x', effect: 'NoSchedule' }])];
    const onA = pod('node-a');
    const onB = pod('node-b');
    const lost = pod('node-z', { bound: false });
    const boundLost = pod('node-y');
    const p = planManage(ds, view(ds, nodes, [onA, onB, lost, boundLost]), 'new', now, new FailedPodBackoff());
    assert.deepEqual(p.delete, [onA, lost]);
    assert.deepEqual(p.createOn, []);
  });

  test('Failed pods are deleted with a per-node back-off; PreparingDelete pods are delete candidates', () => {
    const backoff = new FailedPodBackoff();
    const failed = pod('node-a', { phase: 'Failed' });
    const first = plan(daemonSet(), [node('node-a')], [failed], backoff);
    assert.deepEqual(first.delete, [failed]);
    assert.deepEqual(first.failed.map((f) => f.node), ['node-a']);
    const again = plan(daemonSet(), [node('node-a')], [pod('node-a', { phase: 'Failed' })], backoff);
    assert.deepEqual(again.delete, []);
    assert.equal(again.requeueAfterMs, 1_000);
    const hooked = pod('node-a', { labels: { 'lifecycle.apps.kruise.io/state': 'PreparingDelete' } });
    assert.deepEqual(plan(daemonSet(), [node('node-a')], [hooked]).delete, [hooked]);
  });

  test('surge: keeps the oldest new and old pod until the new one is available (or the old one is not ready)', () => {
    const ds = daemonSet({ minReadySeconds: 10, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } });
    const old = pod('node-a', { hash: 'old', created: 0 });
    const fresh = pod('node-a', { created: 50, readySince: 55 });
    const extraNew = pod('node-a', { created: 51 });
    const waiting = planManage(ds, view(ds, [node('node-a')], [old, fresh, extraNew]), 'new', now, new FailedPodBackoff());
    assert.deepEqual(waiting.delete, [extraNew]);
    assert.equal(waiting.requeueAfterMs, 5_000);
    const available = planManage(ds, view(ds, [node('node-a')], [old, pod('node-a', { created: 40, readySince: 45 })]), 'new', now, new FailedPodBackoff());
    assert.deepEqual(available.delete, [old]);
    const oldUnready = pod('node-a', { hash: 'old', ready: false });
    assert.deepEqual(planManage(ds, view(ds, [node('node-a')], [oldUnready, fresh]), 'new', now, new FailedPodBackoff()).delete, [oldUnready]);
    assert.deepEqual(planManage(ds, view(ds, [node('node-a')], [pod('node-a', { deleting: true })]), 'new', now, new FailedPodBackoff()).createOn, ['node-a']);
  });

  test('partitionedScaling limits creations to desired - nodesWithNewPod - partition, ascending', () => {
    const ds = daemonSet({ scaleStrategy: { partitionedScaling: true }, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, partition: 3 } } });
    assert.deepEqual(planManage(ds, view(ds, fourNodes(), []), 'new', now, new FailedPodBackoff()).createOn, ['node-a']);
    assert.deepEqual(planManage(ds, view(ds, fourNodes(), [pod('node-a')]), 'new', now, new FailedPodBackoff()).createOn, []);
    const one = daemonSet({ scaleStrategy: { partitionedScaling: true }, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, partition: 1 } } });
    assert.deepEqual(planManage(one, view(one, fourNodes(), [pod('node-a')]), 'new', now, new FailedPodBackoff()).createOn, ['node-b', 'node-c']);
    const plain = daemonSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, partition: 3 } } });
    assert.equal(planManage(plain, view(plain, fourNodes(), []), 'new', now, new FailedPodBackoff()).createOn.length, 4);
  });
});
