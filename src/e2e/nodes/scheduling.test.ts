/**
 * Node obligations K9-K10 (docs/design/simulated-nodes.md §19): the scheduler places pods by node
 * affinity on metadata.name, taints and tolerations and cordons; nodes publish a Ready condition
 * whose transition time is real and survives heartbeats, and the labels they were given.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Leases, Nodes } from '../../api/resource-type.js';
import type { KObject } from '../../api/meta.js';
import { server, startNodesEnv, type NodesEnv } from './nodes-kit.js';
import type { Node, Pod } from '../../api/core/index.js';

let k: NodesEnv;
const [node0, node1, node2] = ['kruise-node-0', 'kruise-node-1', 'kruise-node-2'];

before(async () => {
  k = await startNodesEnv({ count: 3, labels: { type: 'virtual-kubelet' }, nodeStatusReportIntervalMs: 20_000 });
});

after(() => k.stop());

const onNode = (to: string): Pod['spec']['affinity'] => ({
  nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [to] }] }] } },
});
const scheduled = (p: Pod) => p.status?.conditions?.find((c) => c.type === 'PodScheduled');
const bound = (p: Pod) => !!p.spec.nodeName;
const nodeOf = async (name: string) => (await k.getPod(name)).spec.nodeName;

test('K9: the scheduler honours nodeAffinity matchFields metadata.name, taints and tolerations, and node.spec.unschedulable', async () => {
  await k.client.patch(Nodes, undefined, node1, 'merge', { spec: { taints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }] } });
  await k.client.patch(Nodes, undefined, node0, 'merge', { spec: { unschedulable: true } });
  const toleration = { key: 'dedicated', operator: 'Equal', value: 'infra', effect: 'NoSchedule' } as const;
  const pods: [string, Partial<Pod['spec']>][] = [
    ['k9-pinned-a', { affinity: onNode(node2) }], ['k9-pinned-b', { affinity: onNode(node2) }],
    ['k9-tolerating', { affinity: onNode(node1), tolerations: [toleration] }],
    ['k9-intolerant', { affinity: onNode(node1) }],
    ['k9-cordoned', { affinity: onNode(node0) }],
    ...[1, 2, 3, 4].map((i): [string, Partial<Pod['spec']>] => [`k9-free-${i}`, {}]),
  ];
  for (const [name, spec] of pods) await k.createPod(name, { containers: [server()], ...spec });
  for (const [name] of pods.filter(([n]) => !['k9-intolerant', 'k9-cordoned'].includes(n))) await k.advanceUntil(name, bound, 'bound', 10_000);
  assert.deepEqual(await Promise.all(pods.map(([name]) => nodeOf(name))),
    [node2, node2, node1, undefined, undefined, node2, node2, node2, node2], 'pinned where asked, the rest away from the taint and the cordon');

  await k.advance(5000);
  const intolerant = scheduled(await k.getPod('k9-intolerant'))!;
  assert.deepEqual([intolerant.status, intolerant.reason], ['False', 'Unschedulable']);
  assert.match(intolerant.message!, /1 node\(s\) had untolerated taint \{dedicated: infra\}/);
  assert.match(scheduled(await k.getPod('k9-cordoned'))!.message!, /1 node\(s\) were unschedulable/);

  await k.client.patch(Nodes, undefined, node1, 'merge', { spec: { taints: null } });
  await k.client.patch(Nodes, undefined, node0, 'merge', { spec: { unschedulable: null } });
  await k.advanceUntil('k9-intolerant', bound, 'bound once the taint is gone', 30_000);
  await k.advanceUntil('k9-cordoned', bound, 'bound once uncordoned', 30_000);
  assert.deepEqual([await nodeOf('k9-intolerant'), await nodeOf('k9-cordoned')], [node1, node0]);
});

test('K10: nodes publish Ready with a real lastTransitionTime that heartbeats keep, and the labels they were given', async () => {
  const virtual = await k.client.list<Node>(Nodes, { labelSelector: 'type=virtual-kubelet' });
  assert.deepEqual(virtual.items.map((n) => n.metadata.name).sort(), [node0, node1, node2]);
  const readyOf = async () => (await k.client.get<Node>(Nodes, undefined, node2)).status!.conditions!.find((c) => c.type === 'Ready')!;
  const renewed = async () => (await k.client.get<KObject & { spec: { renewTime: string } }>(Leases, 'kube-node-lease', node2)).spec.renewTime;
  const [before, leaseBefore] = [await readyOf(), await renewed()];
  assert.deepEqual([before.status, before.reason], ['True', 'KubeletReady']);
  const since = Date.parse(before.lastTransitionTime!);
  assert.ok(Math.abs(since - Date.now()) < 10 * 60_000, `lastTransitionTime ${before.lastTransitionTime} is a real time, not the zero time`);
  assert.ok(since <= k.clock.now());

  await k.advance(45_000, 1000);
  const later = await readyOf();
  assert.equal(later.status, 'True');
  assert.ok(Date.parse(later.lastHeartbeatTime!) >= Date.parse(before.lastHeartbeatTime!) + 40_000, `heartbeat ${before.lastHeartbeatTime} -> ${later.lastHeartbeatTime}`);
  assert.equal(later.lastTransitionTime, before.lastTransitionTime, 'a heartbeat is no transition');
  assert.ok(Date.parse(await renewed()) > Date.parse(leaseBefore), 'the lease is renewed');
});
