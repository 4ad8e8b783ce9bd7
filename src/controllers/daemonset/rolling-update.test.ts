import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { partitionOf, rolloutBudget, scaledValue, burstReplicas } from './budget.js';
import { planRollingUpdate } from './rolling-update.js';
import { nodesToUpdate } from './rollout-nodes.js';
import { daemonSet, fourNodes, node, pod, T0, view } from './test-kit.js';
import type { DaemonSet } from './types.js';

const now = T0 + 60_000;
const rolling = (ru: Record<string, unknown>, extra: Partial<DaemonSet['spec']> = {}, status = {}) =>
  daemonSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: ru }, ...extra }, status);
const nodeNames = (ds: DaemonSet, pods = fourNodes().map((n) => pod(n.metadata.name!, { hash: 'old' })), nodes = fourNodes()) =>
  nodesToUpdate(ds, view(ds, nodes, pods).nodes, 'new').map((n) => n.name);

describe('budget', () => {
  test('maxUnavailable and maxSurge round up, partition and burstReplicas round down against status.desiredNumberScheduled', () => {
    assert.equal(scaledValue('30%', 4, true), 2);
    assert.equal(scaledValue('30%', 4, false), 1);
    assert.deepEqual(rolloutBudget(rolling({ maxUnavailable: '10%' }), 4), { maxSurge: 0, maxUnavailable: 1 });
    assert.deepEqual(rolloutBudget(rolling({ maxUnavailable: 0, maxSurge: '30%' }), 4), { maxSurge: 2, maxUnavailable: 0 });
    assert.deepEqual(rolloutBudget(rolling({ maxUnavailable: 0, maxSurge: 0 }), 4), { maxSurge: 0, maxUnavailable: 1 });
    assert.equal(partitionOf(rolling({ partition: '50%' }, {}, { desiredNumberScheduled: 5 })), 2);
    assert.equal(partitionOf(daemonSet({ updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 3 } } })), 0);
    assert.equal(burstReplicas(daemonSet({ burstReplicas: '50%' }, { desiredNumberScheduled: 5 })), 2);
    assert.equal(burstReplicas(daemonSet()), 250);
  });
});

describe('nodesToUpdate', () => {
  test('partition keeps the smallest names; percent partition is of status.desiredNumberScheduled', () => {
    assert.deepEqual(nodeNames(rolling({ maxUnavailable: 1, partition: 2 })), ['node-d', 'node-c']);
    assert.deepEqual(nodeNames(rolling({ maxUnavailable: 1, partition: '50%' })), ['node-d', 'node-c']);
    assert.deepEqual(nodeNames(rolling({ maxUnavailable: 1, partition: 4 })), []);
  });

  test('updated and podless nodes come first, so they use up the partition budget', () => {
    const pods = [pod('node-a'), pod('node-b', { hash: 'old' }), pod('node-c', { hash: 'old' })];
    assert.deepEqual(nodeNames(rolling({ maxUnavailable: 1, partition: 2 }), pods), ['node-a', 'node-d']);
  });

  test('rollingUpdate.selector limits the rest to matching nodes', () => {
    const nodes = [node('node-a'), node('node-b', { canary: 'true' }), node('node-c'), node('node-d')];
    const ds = rolling({ maxUnavailable: 1, selector: { matchLabels: { canary: 'true' } } });
    assert.deepEqual(nodeNames(ds, nodes.map((n) => pod(n.metadata.name!, { hash: 'old' })), nodes), ['node-b']);
  });
});

describe('planRollingUpdate', () => {
  const plan = (ds: DaemonSet, pods: ReturnType<typeof pod>[], budget: { maxSurge: number; maxUnavailable: number }) =>
    planRollingUpdate({ ds, nodes: nodesToUpdate(ds, view(ds, fourNodes(), pods).nodes, 'new'), hash: 'new', now, ...budget });

  test('no surge: unavailable old pods always go; available ones within maxUnavailable minus what is already down', () => {
    const ds = rolling({ maxUnavailable: 2 });
    const down = pod('node-a', { hash: 'old', ready: false });
    const b = pod('node-b', { hash: 'old' });
    const c = pod('node-c', { hash: 'old' });
    const newUnready = pod('node-d', { ready: false });
    const p = plan(ds, [down, b, c, newUnready], { maxSurge: 0, maxUnavailable: 2 });
    assert.deepEqual(p.replace, [down, c]);
    assert.deepEqual(p.createOn, []);
    const none = plan(ds, [b, c, pod('node-a', { hash: 'old', deleting: true })], { maxSurge: 0, maxUnavailable: 2 });
    assert.deepEqual(none.replace, [], 'a node with only a terminating pod and an empty node use up the budget');
  });

  test('minReadySeconds: a new pod counts as unavailable until ready long enough', () => {
    const ds = rolling({ maxUnavailable: 1 }, { minReadySeconds: 30 });
    const pods = [pod('node-a', { hash: 'old' }), pod('node-b', { hash: 'old' }), pod('node-c', { hash: 'old' }), pod('node-d', { readySince: 50 })];
    assert.deepEqual(plan(ds, pods, { maxSurge: 0, maxUnavailable: 1 }).replace, []);
    pods[3] = pod('node-d', { readySince: 20 });
    assert.equal(plan(ds, pods, { maxSurge: 0, maxUnavailable: 1 }).replace.length, 1);
  });

  test('surge: new pods next to available old ones up to maxSurge, at once for unavailable ones; old pods retire when the new one is available', () => {
    const ds = rolling({ maxSurge: 1, maxUnavailable: 0 });
    const a = pod('node-a', { hash: 'old', ready: false });
    const b = pod('node-b', { hash: 'old' });
    const c = pod('node-c', { hash: 'old' });
    const d = pod('node-d', { hash: 'old' });
    const dNew = pod('node-d');
    const p = plan(ds, [a, b, c, d, dNew], { maxSurge: 1, maxUnavailable: 0 });
    assert.deepEqual(p, { replace: [d], createOn: ['node-a', 'node-c'] });
    const inFlight = plan(ds, [a, b, c, d, pod('node-d', { ready: false })], { maxSurge: 1, maxUnavailable: 0 });
    assert.deepEqual(inFlight, { replace: [], createOn: ['node-a'] });
  });
});
