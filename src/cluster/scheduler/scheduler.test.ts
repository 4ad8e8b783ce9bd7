/**
 * The scheduler against an embedded control plane through the in-process client: nodes and pods
 * are created through the API and each pod must be bound to the node the filters and scores call for.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { ConfigMaps, Pods } from '../../api/resource-type.js';
import { createHttpClient } from '../../client/http-client.js';
import { createScheduler } from './index.js';
import { makeNode, makePod } from './test-objects.js';
import { addNode, addPods, eventsFor, placements, podCondition, startEnv, unschedulableMessage, waitFor, type Env } from './scheduler-testkit.test.js';
import type { NodeSelectorRequirement, Pod } from '../../api/core/index.js';

let env: Env | undefined;
afterEach(async () => {
  await env?.stop();
  env = undefined;
});

async function cluster(...nodes: ReturnType<typeof makeNode>[]): Promise<Env> {
  env = await startEnv();
  for (const n of nodes) await addNode(env.client, n);
  await env.scheduler.start();
  return env;
}

describe('scheduler: resources', () => {
  test('pods created together are packed by what is left, counting pods just bound', async () => {
    const { client } = await cluster(makeNode('a', { cpu: '2' }), makeNode('b', { cpu: '2' }), makeNode('tiny', { cpu: '500m' }));
    const names = ['p1', 'p2', 'p3', 'p4'];
    await addPods(client, ...names.map((n) => makePod(n, { cpu: '1' })));
    const placed = await placements(client, names);
    const perNode = Object.values(placed).reduce<Record<string, number>>((m, n) => ({ ...m, [n]: (m[n] ?? 0) + 1 }), {});
    assert.deepEqual(perNode, { a: 2, b: 2 });
    await addPods(client, makePod('p5', { cpu: '1' }));
    assert.equal(await unschedulableMessage(client, 'p5'),
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.');
  });
});

describe('scheduler: node selection', () => {
  test('nodeSelector', async () => {
    const { client } = await cluster(makeNode('hdd', { labels: { disk: 'hdd' } }), makeNode('ssd', { labels: { disk: 'ssd' } }));
    await addPods(client, makePod('p', { nodeSelector: { disk: 'ssd' } }));
    assert.deepEqual(await placements(client, ['p']), { p: 'ssd' });
  });

  test('node affinity operators', async () => {
    const { client } = await cluster(
      makeNode('gold', { labels: { tier: 'gold', cores: '8' } }),
      makeNode('silver', { labels: { tier: 'silver', cores: '4' } }),
      makeNode('plain', { labels: { cores: '16' } }),
    );
    const withTerm = (name: string, term: { matchExpressions?: NodeSelectorRequirement[]; matchFields?: NodeSelectorRequirement[] }) =>
      makePod(name, { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] } } } });
    const expr = (key: string, operator: NodeSelectorRequirement['operator'], values?: string[]) => ({ key, operator, ...(values ? { values } : {}) });
    await addPods(client,
      withTerm('in', { matchExpressions: [expr('tier', 'In', ['gold'])] }),
      withTerm('notin', { matchExpressions: [expr('tier', 'NotIn', ['gold', 'silver'])] }),
      withTerm('exists-lt', { matchExpressions: [expr('tier', 'Exists'), expr('cores', 'Lt', ['6'])] }),
      withTerm('doesnotexist', { matchExpressions: [expr('tier', 'DoesNotExist')] }),
      withTerm('gt', { matchExpressions: [expr('cores', 'Gt', ['10'])] }),
      withTerm('fields', { matchFields: [expr('metadata.name', 'In', ['silver'])] }),
    );
    assert.deepEqual(await placements(client, ['in', 'notin', 'exists-lt', 'doesnotexist', 'gt', 'fields']), {
      in: 'gold', notin: 'plain', 'exists-lt': 'silver', doesnotexist: 'plain', gt: 'plain', fields: 'silver',
    });
  });

  test('taints and tolerations', async () => {
    const { client } = await cluster(
      makeNode('gpu', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }),
      makeNode('draining', { taints: [{ key: 'drain', effect: 'NoExecute' }] }),
      makeNode('soft', { taints: [{ key: 'spot', effect: 'PreferNoSchedule' }] }),
      makeNode('notready', { ready: 'False' }),
    );
    const tolerant = { tolerations: [{ key: 'dedicated', operator: 'Equal' as const, value: 'gpu', effect: 'NoSchedule' as const }, { key: 'drain', operator: 'Exists' as const }] };
    await addPods(client, makePod('plain1'), makePod('plain2'), makePod('tolerant1', tolerant), makePod('tolerant2', tolerant));
    const placed = await placements(client, ['plain1', 'plain2', 'tolerant1', 'tolerant2']);
    assert.equal(placed.plain1, 'soft');
    assert.equal(placed.plain2, 'soft');
    // PreferNoSchedule is only a score: tolerating pods avoid it when they can.
    assert.ok(['gpu', 'draining'].includes(placed.tolerant1) && ['gpu', 'draining'].includes(placed.tolerant2), JSON.stringify(placed));
  });

  test('host ports', async () => {
    const { client } = await cluster(makeNode('n1'), makeNode('n2'));
    const port = (name: string) => makePod(name, { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80, hostPort: 8080 }] } as never] });
    await addPods(client, port('h1'), port('h2'));
    const placed = await placements(client, ['h1', 'h2']);
    assert.notEqual(placed.h1, placed.h2);
    await addPods(client, port('h3'));
    assert.equal(await unschedulableMessage(client, 'h3'),
      "0/2 nodes are available: 2 node(s) didn't have free ports for the requested pod ports. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.");
  });
});

describe('scheduler: pod placement rules', () => {
  test('required anti-affinity by hostname', async () => {
    const { client } = await cluster(makeNode('n1'), makeNode('n2'), makeNode('n3'));
    const web = (name: string): Pod => makePod(name, {
      labels: { app: 'web' },
      affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' }] } },
    });
    await addPods(client, web('w1'), web('w2'), web('w3'));
    const placed = await placements(client, ['w1', 'w2', 'w3']);
    assert.equal(new Set(Object.values(placed)).size, 3);
    await addPods(client, web('w4'));
    assert.match(await unschedulableMessage(client, 'w4'), /^0\/3 nodes are available: 3 node\(s\) didn't match pod anti-affinity rules\. /);
  });

  test('required pod affinity follows the target into its zone', async () => {
    const { client } = await cluster(makeNode('a1', { labels: { zone: 'a' } }), makeNode('b1', { labels: { zone: 'b' } }), makeNode('b2', { labels: { zone: 'b' } }));
    await addPods(client, makePod('cache', { labels: { app: 'cache' }, nodeSelector: { 'kubernetes.io/hostname': 'a1' } }));
    await placements(client, ['cache']);
    await addPods(client, makePod('app', { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'cache' } }, topologyKey: 'zone' }] } } }));
    assert.deepEqual(await placements(client, ['app']), { app: 'a1' });
  });

  test('topology spread DoNotSchedule keeps zones within maxSkew', async () => {
    const { client } = await cluster(
      makeNode('a1', { labels: { zone: 'a' } }), makeNode('a2', { labels: { zone: 'a' } }), makeNode('a3', { labels: { zone: 'a' } }),
      makeNode('b1', { labels: { zone: 'b' } }),
    );
    const spread = (name: string) => makePod(name, {
      labels: { app: 'web' },
      topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } }],
    });
    const names = ['s1', 's2', 's3', 's4', 's5', 's6'];
    await addPods(client, ...names.map(spread));
    const placed = await placements(client, names);
    const inB = Object.values(placed).filter((n) => n === 'b1').length;
    assert.equal(inB, 3, JSON.stringify(placed));
  });

  test('pods of one owner spread across nodes by default', async () => {
    const { client } = await cluster(makeNode('n1'), makeNode('n2'), makeNode('n3'));
    // A real owner object, or the garbage collector would delete the pods.
    const owner = await client.create<KObject>(ConfigMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner', namespace: 'default' } });
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid!, controller: true };
    const names = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6'];
    await addPods(client, ...names.map((n) => { const p = makePod(n); p.metadata.ownerReferences = [ref]; return p; }));
    const placed = await placements(client, names);
    const counts = Object.values(placed).reduce<Record<string, number>>((m, n) => ({ ...m, [n]: (m[n] ?? 0) + 1 }), {});
    assert.deepEqual(Object.values(counts).sort(), [2, 2, 2], JSON.stringify(placed));
  });
});

describe('scheduler: over HTTP', () => {
  test('schedules through a kubeconfig like against any API server', async () => {
    env = await startEnv();
    const http = createHttpClient({ kubeconfigPath: env.env.kubeconfig });
    const scheduler = createScheduler({ client: http, seed: 1 });
    try {
      await addNode(env.client, makeNode('remote', { cpu: '2' }));
      await scheduler.start();
      await addPods(env.client, makePod('over-http', { cpu: '1' }), makePod('too-big', { cpu: '4' }));
      assert.deepEqual(await placements(env.client, ['over-http']), { 'over-http': 'remote' });
      assert.match(await unschedulableMessage(env.client, 'too-big'), /^0\/1 nodes are available: 1 Insufficient cpu\. /);
    } finally {
      await scheduler.stop();
    }
  });
});

describe('scheduler: unschedulable pods', () => {
  test('condition and event with the filter counts, then scheduled once a fitting node appears', async () => {
    const e = await cluster(makeNode('small', { cpu: '1' }), makeNode('labelled', { cpu: '8', labels: { pool: 'other' } }), makeNode('cordoned', { cpu: '8', unschedulable: true }));
    const { client } = e;
    await addPods(client, makePod('big', { cpu: '4', affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'NotIn', values: ['other'] }] }] } } } }));
    const want = "0/3 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) were unschedulable. "
      + 'preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.';
    assert.equal(await unschedulableMessage(client, 'big'), want);
    const cond = await podCondition(client, 'big');
    assert.equal(cond?.status, 'False');
    const failed = await waitFor(async () => (await eventsFor(client, 'big')).find((ev) => ev.reason === 'FailedScheduling'), 'FailedScheduling event');
    assert.equal(failed.type, 'Warning');
    assert.equal(failed.message, want);
    assert.deepEqual((failed.source as { component: string }).component, 'default-scheduler');
    assert.deepEqual((failed.involvedObject as { kind: string; name: string }).name, 'big');

    await addNode(client, makeNode('roomy', { cpu: '8' }));
    e.clock.advance(1000); // the pod's backoff after one failed attempt
    assert.deepEqual(await placements(client, ['big']), { big: 'roomy' });
    const scheduled = await waitFor(async () => (await eventsFor(client, 'big')).find((ev) => ev.reason === 'Scheduled'), 'Scheduled event');
    assert.equal(scheduled.type, 'Normal');
    assert.equal(scheduled.message, 'Successfully assigned default/big to roomy');
    assert.equal((await podCondition(client, 'big'))?.status, 'True');
  });

  test('a deleted pod frees its resources for a parked one', async () => {
    const e = await cluster(makeNode('only', { cpu: '1' }));
    await addPods(e.client, makePod('first', { cpu: '1' }));
    await placements(e.client, ['first']);
    await addPods(e.client, makePod('second', { cpu: '1' }));
    await unschedulableMessage(e.client, 'second');
    await e.client.delete(Pods, 'default', 'first', { gracePeriodSeconds: 0 });
    e.clock.advance(1000);
    assert.deepEqual(await placements(e.client, ['second']), { second: 'only' });
  });

  test('pods for another scheduler are left alone', async () => {
    const { client } = await cluster(makeNode('n1'));
    await addPods(client, makePod('mine'), makePod('theirs', { schedulerName: 'other-scheduler' }));
    await placements(client, ['mine']);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal((await podCondition(client, 'theirs'))?.reason, undefined);
  });
});
